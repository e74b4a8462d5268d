import { and, eq, inArray } from 'drizzle-orm';
import { DEFAULT_WARNING_SETTINGS } from '@xinli/contract';
import type { Db } from '../../db/database.js';
import { unfinishedCodes } from '../assessments/index.js';
import { addWarning } from './raise.js';
import { changedSettings } from './settings.js';
import { warning } from './tables.js';
import { isMissed, missedTrigger } from './triggers.js';

/**
 * The missed-deadline sweep (run hourly as a job, see jobs.ts) on the clock it is given. Two
 * processes running it at once raise each warning once: the unique index on (given assessment,
 * kind missed) decides.
 */

const BATCH = 500;

/**
 * What a long sweep reports to its job: a stop asked for (server shutting down: the job is put
 * back and the next run goes on, since each warning is raised once), and each batch done (which
 * also renews the job's lease, so a first sweep over a large backlog is not taken by another worker).
 */
export interface SweepControl {
  signal?: AbortSignal;
  batchDone?: () => Promise<void>;
}

/** Given assessments past their institution's deadline get one missed warning each. */
export async function sweepMissed(db: Db, now: Date, control: SweepControl = {}): Promise<number> {
  const changed = await changedSettings(db);
  const daysOf = (m: string) => (changed.get(m) ?? DEFAULT_WARNING_SETTINGS).misseddays;
  const all = [DEFAULT_WARNING_SETTINGS.misseddays, ...[...changed.values()].map((s) => s.misseddays)].filter((d) => d > 0);
  if (!all.length) return 0;
  const before = new Date(now.getTime() - Math.min(...all) * 86_400_000);
  let after = '';
  let raised = 0;
  for (;;) {
    control.signal?.throwIfAborted();
    const batch = await unfinishedCodes(db, before, after, BATCH);
    if (!batch.length) break;
    after = batch[batch.length - 1]!.assesscode;
    const due = batch.filter((c) => isMissed(c.createdat, false, daysOf(c.musercode), now));
    const known = due.length
      ? new Set(
          (
            await db
              .select({ c: warning.assesscode })
              .from(warning)
              .where(
                and(
                  eq(warning.kind, 'missed'),
                  inArray(
                    warning.assesscode,
                    due.map((c) => c.assesscode),
                  ),
                ),
              )
          ).map((r) => r.c),
        )
      : new Set<string | null>();
    for (const c of due) {
      if (known.has(c.assesscode)) continue;
      control.signal?.throwIfAborted();
      const t = missedTrigger(daysOf(c.musercode));
      const r = await db.transaction((tx) =>
        addWarning(
          tx,
          {
            musercode: c.musercode,
            cusercode: c.cusercode,
            kind: t.kind,
            level: t.level,
            params: t.params,
            assesscode: c.assesscode,
            stagecode: c.stagecode,
            by: 'system',
          },
          now,
        ),
      );
      if (r) raised++;
    }
    if (batch.length < BATCH) break;
    await control.batchDone?.();
  }
  return raised;
}
