import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { WarningLevel } from '@xinli/contract';
import type { Db, DbOrTx } from '../../db/database.js';

/**
 * Warning events for the console's live badge and list. They are published with pg_notify in the
 * transaction that makes the change, so they go out at commit and never for a change rolled back,
 * and every server process LISTENs on the channel (on PGlite, the one process's own connection).
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

export interface WarnEventHub {
  subscribe(fn: (e: WarnEvent) => void): () => void;
  /** Whether the listening connection is up (GET /readyz reports it). */
  listening(): boolean;
  close(): Promise<void>;
}

function parse(payload: string | undefined): WarnEvent | null {
  try {
    const e = JSON.parse(payload ?? '') as WarnEvent;
    return typeof e?.caseid === 'string' && typeof e.musercode === 'string' ? e : null;
  } catch {
    return null;
  }
}

/** Listens on the warning channel and hands each event to every subscriber. */
export async function createWarnEventHub(db: Db, onError: (err: Error) => void = () => {}): Promise<WarnEventHub> {
  const subscribers = new Set<(e: WarnEvent) => void>();
  const dispatch = (payload: string | undefined) => {
    const e = parse(payload);
    if (e) for (const fn of subscribers) fn(e);
  };
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  let stop: () => Promise<void>;
  let listening = false;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(WARN_CHANNEL, dispatch);
    listening = true;
    stop = async () => {
      listening = false;
      await unlisten();
    };
  } else {
    const options = (client as unknown as { options: pg.ClientConfig }).options;
    let closed = false;
    let conn: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      if (closed) return;
      const c = new pg.Client({ ...options, application_name: 'xinli-warn-listener' });
      const down = (err?: Error) => {
        if (conn !== c) return;
        conn = undefined;
        listening = false;
        if (err) onError(err);
        c.end().catch(() => {});
        if (!closed) retry = setTimeout(connect, 1000);
      };
      c.on('error', down);
      c.on('end', () => down());
      c.on('notification', (n) => dispatch(n.payload));
      conn = c;
      try {
        await c.connect();
        await c.query(`LISTEN ${WARN_CHANNEL}`);
        if (conn === c) listening = true;
      } catch (err) {
        down(err as Error);
      }
    };
    await connect();
    stop = async () => {
      closed = true;
      listening = false;
      clearTimeout(retry);
      const c = conn;
      conn = undefined;
      await c?.end().catch(() => {});
    };
  }
  return {
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    listening: () => listening,
    async close() {
      subscribers.clear();
      await stop();
    },
  };
}
