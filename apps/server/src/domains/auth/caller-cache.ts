import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Db } from '../../db/database.js';
import type { Caller } from '../../http/context.js';

/**
 * Callers resolved from tokens, kept for at most AUTH_CACHE_MS so that a burst of requests on one
 * session costs one database round trip, not one each. Never trusted past a change: migration 0007
 * makes every change that can change a caller (revoked session, account, staff user, roles, role
 * codes, role holders, account codes) NOTIFY channel xinli_auth at commit, and every server process
 * LISTENs and drops all it holds on each notification. While the listening connection is down
 * (start-up, database restart) nothing is served from the cache. The process that makes a change
 * also drops its own entries as soon as the writing action ends (action-route.ts), without waiting
 * for its notification.
 *
 * What "at once" means: on PGlite (one process, one connection) the notification is delivered with
 * the statement that caused it, before that statement returns. On PostgreSQL it reaches the other
 * processes when the database delivers it, which is when the change commits plus the time a
 * notification takes to arrive (well under a millisecond on one machine); a hit also waits one turn
 * of the event loop (setImmediate) so that a notification already received is handled first.
 */
export interface CachedCaller {
  caller: Caller;
  createdms: number;
  lastseenms: number;
  loadedms: number;
}

export interface CallerCache {
  /** A caller loaded within the last ttl and since the last change, or undefined. */
  get(tokenhash: string, nowMs: number): Promise<CachedCaller | undefined>;
  /** The generation to hand to set(): an entry loaded before a change is never stored after it. */
  generation(): number;
  set(tokenhash: string, entry: CachedCaller, generation: number): void;
  /** Drops everything (a change was made or announced). */
  invalidate(): void;
  close(): Promise<void>;
}

const MAX_ENTRIES = 20_000;
export const AUTH_CHANNEL = 'xinli_auth';

export async function createCallerCache(db: Db, ttlMs: number, onError: (err: Error) => void = () => {}): Promise<CallerCache | undefined> {
  if (ttlMs <= 0) return undefined;
  const entries = new Map<string, CachedCaller>();
  let gen = 0;
  let listening = false;
  let closed = false;
  const invalidate = () => {
    gen++;
    entries.clear();
  };

  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  let stop: () => Promise<void>;
  let yieldFirst = false;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(AUTH_CHANNEL, invalidate);
    listening = true;
    stop = unlisten;
  } else {
    yieldFirst = true;
    const options = (client as unknown as { options: pg.ClientConfig }).options;
    let conn: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      if (closed) return;
      const c = new pg.Client({ ...options, application_name: 'xinli-auth-listener' });
      const down = (err?: Error) => {
        if (conn !== c) return;
        listening = false;
        conn = undefined;
        invalidate();
        if (err) onError(err);
        c.end().catch(() => {});
        if (!closed) retry = setTimeout(connect, 1000);
      };
      c.on('error', down);
      c.on('end', () => down());
      c.on('notification', invalidate);
      conn = c;
      try {
        await c.connect();
        await c.query(`LISTEN ${AUTH_CHANNEL}`);
        if (conn !== c) return;
        invalidate(); // whatever changed while nobody listened
        listening = true;
      } catch (err) {
        down(err as Error);
      }
    };
    await connect();
    stop = async () => {
      clearTimeout(retry);
      const c = conn;
      conn = undefined;
      listening = false;
      await c?.end().catch(() => {});
    };
  }

  return {
    async get(tokenhash, nowMs) {
      if (!listening) return undefined;
      if (yieldFirst) await new Promise((r) => setImmediate(r));
      if (!listening) return undefined;
      const hit = entries.get(tokenhash);
      if (!hit) return undefined;
      if (nowMs - hit.loadedms > ttlMs || nowMs < hit.loadedms) {
        entries.delete(tokenhash);
        return undefined;
      }
      return hit;
    },
    generation: () => gen,
    set(tokenhash, entry, generation) {
      if (!listening || generation !== gen || closed) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(tokenhash, entry);
    },
    invalidate,
    async close() {
      closed = true;
      invalidate();
      await stop();
    },
  };
}
