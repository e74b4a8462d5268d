import { defineArea } from '../../area';

/** The five band levels (evaluating.levels.*). */
export default defineArea({
  zh: {
    l0: '正常',
    l1: '轻度',
    l2: '中度',
    l3: '中重度',
    l4: '重度',
    levelN: '{{level}}级',
  },
  en: {
    l0: 'Normal',
    l1: 'Mild',
    l2: 'Moderate',
    l3: 'Moderately severe',
    l4: 'Severe',
    levelN: 'Level {{level}}',
  },
});
