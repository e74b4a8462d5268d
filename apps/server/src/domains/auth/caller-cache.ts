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
 * learns of it the same way as every other process.
 *
 * What "at once" means: on PGlite (one process, one connection) the notification is delivered with
 * the statement that caused it, before that statement returns. On PostgreSQL a notification travels
 * on its own, so a hit is first confirmed by a round trip on the listening connection (an empty
 * query, shared by all hits that arrive while one is pending): the committing backend signals every
 * listening backend before its client learns of the commit, and an idle listening backend sends what
 * it was signalled before it answers a command it reads afterwards, so a change committed before the
 * request arrived has dropped the entry by the time the round trip returns. One round trip per
 * request at most, as without the cache, but a trivial one instead of the whole statement: the
 * empty query is answered without parsing or planning (less than half the cost of `select 1` on
 * both sides), and like any command its answer comes after the notifications already signalled.
 */
export interface CachedCaller {
  caller: Caller;
  createdms: number;
  lastseenms: number;
  loadedms: number;
  /**
   * A login-as session's openers (issue 27 §15): their token hashes, and the earliest creation and
   * last-seen among them, checked by the same expiry rules on every hit. Their revocation or deletion
   * notifies like the session's own (migration 0025 revokes the sessions opened from a revoked one).
   */
  opener?: { chain: string[]; createdms: number; lastseenms: number };
}

export interface CallerCache {
  /** A caller loaded within the last ttl and since the last change, or undefined. */
  get(tokenhash: string, nowMs: number): Promise<CachedCaller | undefined>;
  /** The generation to hand to set(): an entry loaded before a change is never stored after it. */
  generation(): number;
  set(tokenhash: string, entry: CachedCaller, generation: number): void;
  /** Drops everything (a change was made or announced). */
  invalidate(): void;
  /** Whether the change listener is connected (GET /readyz reports it). */
  listening(): boolean;
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
  /** PostgreSQL: resolves once every notification committed before the call has been handled. */
  let confirm: (() => Promise<void>) | undefined;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(AUTH_CHANNEL, invalidate);
    listening = true;
    stop = unlisten;
  } else {
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
    // One confirmation in flight at a time; hits arriving meanwhile wait for the next one, which is
    // sent after they arrived (the one in flight may have been read by the database before that).
    let inFlight: Promise<void> | undefined;
    let queued: Promise<void> | undefined;
    const send = (): Promise<void> => {
      const c = conn;
      if (!c || !listening) return Promise.reject(new Error('not listening'));
      return c.query('').then(() => {});
    };
    confirm = () => {
      if (!inFlight) {
        inFlight = send().finally(() => (inFlight = undefined));
        return inFlight;
      }
      queued ??= inFlight
        .catch(() => {})
        .then(() => {
          queued = undefined;
          return confirm!();
        });
      return queued;
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
      if (!listening || !entries.has(tokenhash)) return undefined;
      if (confirm) {
        try {
          await confirm();
        } catch {
          return undefined;
        }
      }
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
    listening: () => listening && !closed,
    async close() {
      closed = true;
      invalidate();
      await stop();
    },
  };
}
