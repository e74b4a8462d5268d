import type { FormDefinitionInput } from '@xinli/contract';
import type { Db } from '../../db/database.js';
import { form, formVersion } from './tables.js';

/**
 * A small scale written straight to the database, for tests of other domains (stages, plans) that
 * need forms. Its items count as its own wording (fulltext) unless `fulltext` is false: then it is a
 * form without its item text, which cannot be given (scales/item-text.ts).
 */
export async function insertTestForm(db: Db, formcode: string, musercode: string | null, appids: string[], { fulltext = true } = {}) {
  const definition: FormDefinitionInput = {
    formcode,
    formname: { zh: `测试量表${formcode}`, en: `Test form ${formcode}` },
    formtype: '01',
    appids,
    instructions: { zh: '', en: '' },
    version: 1,
    licence: { zh: '', en: '' },
    source: '',
    fulltext,
    questions: [1, 2].map((no) => ({
      no,
      type: 1 as const,
      required: true,
      text: { zh: `第${no}题`, en: `Item ${no}` },
      options: [0, 1, 2].map((score) => ({ text: { zh: `${score}分`, en: `${score} points` }, score })),
    })),
    indicators: [{ code: 'total', name: { zh: '总分', en: 'Total' }, kind: 'total', formula: { op: 'sum' } }],
  };
  await db.insert(form).values({ formcode, musercode, formname: definition.formname.zh, formnameen: definition.formname.en, formtype: '01', appids, questioncount: 2, indicatorcount: 1 });
  await db.insert(formVersion).values({ formcode, version: 1, definition: definition as unknown as Record<string, unknown> });
}
