import type { DbOrTx } from '../db/database.js';
import { syncApps } from '../domains/apps/handlers.js';
import { syncMenus } from '../domains/system/menu-sync.js';
import { syncAssessmentReference } from '../domains/plans/reference.js';
// The composition root hands the domains their hooks: syncing the built-in forms asks assessments,
// through scales' hook, whether a changed form's version has results (then it becomes a new version).
import '../domains/index.js';

/**
 * Reference data that follows the contract (menus, population apps), written at every start.
 * A domain with reference data of its own adds its sync here.
 */
export async function syncReferenceData(db: DbOrTx) {
  await syncMenus(db);
  await syncApps(db);
  await syncAssessmentReference(db);
}
