import { eq } from 'drizzle-orm';
import type { FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { builtInForms } from './library/index.js';
import { scaleHooks } from './hooks.js';
import { canonical, createForm, loadStored, reviseForm } from './store.js';
import { form } from './tables.js';

/** Band ids of built-in scales are stable (formcode-indicator-n), so a re-sync keeps them. */
const libraryIds = (def: FormDefinition) => new Map(def.indicators.map((ind) => [ind.code, ind.bands.map((_, i) => `${def.formcode}-${ind.code}-${i + 1}`)]));

/**
 * Seeds and updates the built-in library (musercode null) at every start. Idempotent: an
 * unchanged scale is left alone; a changed one is rewritten in place while no result uses its
 * current version, and becomes a new version once results exist (or when the library raises
 * the version number itself).
 */
export async function syncBuiltInForms(db: DbOrTx, now = new Date()) {
  for (const def of builtInForms) {
    await db.transaction(async (tx) => {
      const [head] = await tx.select({ formcode: form.formcode, version: form.version, musercode: form.musercode }).from(form).where(eq(form.formcode, def.formcode));
      if (!head) return createForm(tx, def.formcode, null, def, now, libraryIds(def));
      if (head.musercode !== null) return; // never overwrite an institution's form
      const stored = await loadStored(tx, head.formcode, head.version);
      if (def.version > head.version) return void (await reviseForm(tx, head, def, libraryIds(def), now, def.version));
      if (canonical({ ...stored.def, version: 0 }) === canonical({ ...def, version: 0 })) return;
      const frozen = (await scaleHooks().resultCount(tx, head.formcode, head.version)) > 0;
      await reviseForm(tx, head, def, libraryIds(def), now, frozen ? head.version + 1 : head.version);
    });
  }
}
