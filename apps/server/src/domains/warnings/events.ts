import { sql } from 'drizzle-orm';
import type { WarningLevel } from '@xinli/contract';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { DbOrTx } from '../../db/database.js';

/**
 * Warning events for the console's live badge and list. They are published with pg_notify in the
 * transaction that makes the change, so they go out at commit and never for a change rolled back,
 * and every server process hears them on its change feed (db/change-feed.ts).
 * An event carries no personal data: what happened, the case, its level and its institution.
 */
export const WARN_CHANNEL = 'xinli_warn';

export interface WarnEvent {
  /** warning: a warning joined or opened a case; critical: a critical warning; escalated; changed: a case moved. */
  kind: 'warning' | 'critical' | 'escalated' | 'changed';
  caseid: string;
  level: WarningLevel;
  musercode: string;
}

export async function publishWarnEvent(tx: DbOrTx, e: WarnEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${WARN_CHANNEL}, ${JSON.stringify(e)})`);
}

/** The warning events the change feed tells, one parsed event to `fn` at a time; answers the unsubscribe. */
export function onWarnEvent(feed: ChangeFeed, fn: (e: WarnEvent) => void): () => void {
  return feed.subscribe(
    (payload) => {
      const e = parse(payload);
      if (e) fn(e);
    },
    [WARN_CHANNEL],
  );
}

function parse(payload: string | undefined): WarnEvent | null {
  if (payload === undefined) return null; // the feed went down or came back
  try {
    const e = JSON.parse(payload) as WarnEvent;
    return typeof e?.caseid === 'string' && typeof e.musercode === 'string' ? e : null;
  } catch {
    return null;
  }
}
