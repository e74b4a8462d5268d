import type { DbOrTx } from '../../db/database.js';
import { syncBuiltInForms } from '../scales/index.js';
import { syncExamCategories } from './categories.js';

/** Reference data of the assessment domains (exam categories, the built-in scale library), synced at every start. */
export async function syncAssessmentReference(db: DbOrTx) {
  await syncExamCategories(db);
  await syncBuiltInForms(db);
}
