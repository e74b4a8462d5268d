import { defineArea } from '../../area';

/** The comments database (evaluating.comments.*). */
export default defineArea({
  zh: {
    formname: '量表',
    indicator: '指标',
    range: '得分范围',
    level: '等级',
    label: '分段名称',
    interpretation: '结果解释',
    advice: '建议',
    raisesWarning: '预警',
    editTitle: '编辑评语：{{form}} · {{indicator}} · {{label}}',
    builtinHint: '内置量表的评语只读；复制量表后可修改。',
    keyword: '关键词',
    keywordPlaceholder: '解释或建议中的文字',
  },
  en: {
    formname: 'Scale',
    indicator: 'Indicator',
    range: 'Score range',
    level: 'Level',
    label: 'Band',
    interpretation: 'Interpretation',
    advice: 'Advice',
    raisesWarning: 'Warning',
    editTitle: 'Edit comment: {{form}} · {{indicator}} · {{label}}',
    builtinHint: 'Comments of built-in scales are read-only; copy the scale to change them.',
    keyword: 'Keyword',
    keywordPlaceholder: 'Text in interpretation or advice',
  },
});
