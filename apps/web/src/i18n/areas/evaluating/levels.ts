import { BandLevel } from '@xinli/contract';
import { defineArea } from '../../area';

/** The five band levels (evaluating.levels.*): their words live in the contract, shared with exports and documents. */
export default defineArea({
  zh: {
    l0: BandLevel[0]!.zh,
    l1: BandLevel[1]!.zh,
    l2: BandLevel[2]!.zh,
    l3: BandLevel[3]!.zh,
    l4: BandLevel[4]!.zh,
    levelN: '{{level}}级',
  },
  en: {
    l0: BandLevel[0]!.en,
    l1: BandLevel[1]!.en,
    l2: BandLevel[2]!.en,
    l3: BandLevel[3]!.en,
    l4: BandLevel[4]!.en,
    levelN: 'Level {{level}}',
  },
});
