import type { ChangeFeed } from '../../db/change-feed.js';
import type { Caller } from '../../http/context.js';

/**
 * Callers resolved from tokens, kept for at most AUTH_CACHE_MS so that a burst of requests on one
 * session costs one database round trip, not one each. Never trusted past a change: migration 0007
 * makes every change that can change a caller (revoked session, account, staff user, roles, role
 * codes, role holders, account codes) NOTIFY channel xinli_auth at commit, and every server process
 * hears it on its change feed (db/change-feed.ts) and drops all it holds. While the feed is down
 * (start-up, database restart) nothing is served from the cache. The process that makes a change
 * learns of it the same way as every other process. A hit is first confirmed on the feed (on
 * PostgreSQL one trivial round trip, shared by all hits of one turn of the event loop): a change
 * committed before the request arrived has dropped the entry by then.
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
  /** Whether the change feed is connected (GET /readyz reports it). */
  listening(): boolean;
  close(): void;
}

const MAX_ENTRIES = 20_000;
export const AUTH_CHANNEL = 'xinli_auth';

export function createCallerCache(feed: ChangeFeed, ttlMs: number): CallerCache | undefined {
  if (ttlMs <= 0) return undefined;
  const entries = new Map<string, CachedCaller>();
  let gen = 0;
  let closed = false;
  const invalidate = () => {
    gen++;
    entries.clear();
  };
  feed.subscribe(invalidate, [AUTH_CHANNEL]);
  const listening = () => feed.listening() && !closed;

  return {
    async get(tokenhash, nowMs) {
      if (!listening() || !entries.has(tokenhash)) return undefined;
      try {
        await feed.confirm();
      } catch {
        return undefined;
      }
      if (!listening()) return undefined;
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
      if (!listening() || generation !== gen) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(tokenhash, entry);
    },
    invalidate,
    listening,
    close() {
      closed = true;
      invalidate();
    },
  };
}
