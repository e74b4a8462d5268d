import { eq } from 'drizzle-orm';
import { DEFAULT_WARNING_SETTINGS, type WarningSettings } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { warningSetting } from './tables.js';

/** An institution's trigger and escalation settings; the defaults until it changes them. */
export async function settingsOf(db: DbOrTx, musercode: string): Promise<WarningSettings> {
  const [row] = await db.select().from(warningSetting).where(eq(warningSetting.musercode, musercode));
  return row
    ? { worsenpoints: row.worsenpoints, worsenlevels: row.worsenlevels, misseddays: row.misseddays, escalateminutes: row.escalateminutes }
    : { ...DEFAULT_WARNING_SETTINGS };
}

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

export async function saveSettings(db: DbOrTx, musercode: string, s: WarningSettings, now: Date) {
  await db
    .insert(warningSetting)
    .values({ musercode, ...s, updatedat: now })
    .onConflictDoUpdate({ target: warningSetting.musercode, set: { ...s, updatedat: now } });
}
