import { eq, sql } from 'drizzle-orm';
import { DEFAULT_WARNING_SETTINGS, type WarningSettings } from '@xinli/contract';
import type { Db, DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { preparedOnce, referenceRead } from '../../kit/index.js';
import { ownerAccount } from '../accounts/index.js';
import { warningSetting } from './tables.js';

/** An institution's trigger and escalation settings; the defaults until it changes them. Kept (kit/reference-reads: every submission is judged by them). */
export const settingsOf = referenceRead(
  'warning_settings',
  (musercode: string) => musercode,
  async (db, musercode: string): Promise<WarningSettings> => {
    const [row] = await settingsRead(db).execute({ musercode });
    return row
      ? { worsenpoints: row.worsenpoints, worsenlevels: row.worsenlevels, misseddays: row.misseddays, escalateminutes: row.escalateminutes }
      : { ...DEFAULT_WARNING_SETTINGS };
  },
);
/** Prepared: every submission is judged against its institution's settings. */
const settingsRead = preparedOnce('warning_settings', (db, name) =>
  db.select().from(warningSetting).where(eq(warningSetting.musercode, sql.placeholder('musercode'))).prepare(name),
);

/** Every institution that changed its settings (the sweeps apply the defaults to the others). */
export async function changedSettings(db: DbOrTx): Promise<Map<string, WarningSettings>> {
  const rows = await db.select().from(warningSetting);
  return new Map(
    rows.map((r) => [
      r.musercode,
      { worsenpoints: r.worsenpoints, worsenlevels: r.worsenlevels, misseddays: r.misseddays, escalateminutes: r.escalateminutes },
    ]),
  );
}

/**
 * Saves an institution's settings and answers the ones they replace, for the audit log (issue 27
 * §5). The row is locked from the read to the write, so parallel changes each record the values
 * they really replaced; an institution still on the defaults gets its row (the defaults) first.
 */
export async function replaceSettings(db: Db, musercode: string, s: WarningSettings, now: Date): Promise<WarningSettings> {
  return db.transaction(async (tx) => {
    await tx.insert(warningSetting).values({ musercode, ...DEFAULT_WARNING_SETTINGS, updatedat: now }).onConflictDoNothing();
    const [row] = await tx.select().from(warningSetting).where(eq(warningSetting.musercode, musercode)).for('update');
    await tx.update(warningSetting).set({ ...s, updatedat: now }).where(eq(warningSetting.musercode, musercode));
    return { worsenpoints: row!.worsenpoints, worsenlevels: row!.worsenlevels, misseddays: row!.misseddays, escalateminutes: row!.escalateminutes };
  });
}

/** An institution's warning settings (thresholds, escalation minutes). */
export const settingHandlers = {
  'as.m.warning.getWarningSettings': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    return { musercode: owner.musercode, ...(await settingsOf(ctx.db, owner.musercode)) };
  },

  // Needs WARNING_SETTINGS_CODE, not the case code (issue 27 §5); audited with what it replaced.
  'as.m.warning.updateWarningSettings': async ({ musercode, ...settings }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const old = await replaceSettings(ctx.db, owner.musercode, settings, ctx.now());
    await ctx.audit({ result: 'ok', detail: { target: owner.musercode, old, new: settings } });
    return null;
  },
} satisfies HandlerMap;
