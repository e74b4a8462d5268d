import type { DbOrTx } from '../../db/database.js';
import { syncBuiltInForms, syncBuiltInNorms } from '../scales/index.js';
import { syncExamCategories } from './categories.js';

/** Reference data of the assessment domains (exam categories, the built-in scale library and its norms), synced at every start. */
export async function syncAssessmentReference(db: DbOrTx) {
  await syncExamCategories(db);
  await syncBuiltInForms(db);
  await syncBuiltInNorms(db);
}
