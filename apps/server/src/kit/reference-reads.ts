import { PgTransaction } from 'drizzle-orm/pg-core';
import rfdc from 'rfdc';
import type { ChangeFeed } from '../db/change-feed.js';
import type { DbOrTx } from '../db/database.js';

/**
 * Reads of rows that rarely change but that every respondent step reads (issue 33 §3: an account's
 * name, its entry settings and consent notice, a plan's name, a task, a form's brief and head, the
 * scoring choices and warning settings of an institution, and a respondent's own person and class
 * grade): a server process keeps what it read, so a class of fifty reads them once, not fifty
 * times, and a student their own once, not at every step.
 *
 * Never served past a change: the tables behind them NOTIFY channel xinli_ref at commit (migrations
 * 0048, 0052 and 0053; accounts announce on xinli_auth, migration 0007), and everything kept is dropped on any
 * notification of those two channels on the process's change feed (db/change-feed.ts), or when the
 * feed goes down or comes back. A hit is first confirmed on the feed, so a change committed before
 * the request arrived has dropped it. A value loaded while a change was told is not kept. Inside a
 * transaction nothing is read from here or kept: the transaction may have changed the row itself.
 * Each caller gets its own copy (callers may change what they are given).
 */
export const REFERENCE_CHANNEL = 'xinli_ref';

/**
 * A caller's own deep copy of what a read gave: rows, jsonb, Date, Map and Set. Not
 * structuredClone, which copied a GAD-7 definition 5 times slower and an SCL-90 one 7 to 10 times
 * (issue 33 §3: it was 4.7 % of the server's thread in a screening, one copy per kept read).
 */
export const ownCopy: <T>(value: T) => T = rfdc();

interface Kept {
  feed: ChangeFeed;
  values: Map<string, unknown>;
  generation: number;
}
/** Per database (each test's server has its own), set when the app starts; a database without one reads every time. */
const keptFor = new WeakMap<object, Kept>();
/**
 * Values kept per database before all are dropped: a screening keeps three for each student who
 * signs in (the task of their personal code, their person, their class's grade), so a school of
 * more than ten thousand fits (about 10 MB), as callers do (auth).
 */
const MAX_VALUES = 50_000;

/** Keeps reference reads of `db` from now on, dropped on every change the feed tells on `channels`. */
export function keepReferenceReads(db: object, feed: ChangeFeed, channels: string[]): void {
  const kept: Kept = { feed, values: new Map(), generation: 0 };
  feed.subscribe(() => {
    kept.generation++;
    kept.values.clear();
  }, channels);
  keptFor.set(db, kept);
}

/** What `db` keeps, or undefined: a transaction, or a database that keeps nothing. */
const keptOf = (db: DbOrTx) => (db instanceof PgTransaction ? undefined : keptFor.get(db));

/**
 * Where the kept reads of `db` stand now, for a later `keep` of what the request reads after
 * this: taken before that read, so a change told in between stops the keep.
 */
export const keptSince = (db: DbOrTx): number | undefined => keptOf(db)?.generation;

/**
 * A read made a reference read: `key` names what it reads (undefined: not kept, e.g. many codes
 * at once), `read` reads it from the database. Its `keep` stores a value the request read another
 * way (a task's sign-in has the task its code belongs to), so the next step does not read it.
 * `keeps` says which values may be kept (all by default): a table that announces changes but not
 * inserts (persons) keeps only the rows found, since a row inserted later would not be told.
 */
export function referenceRead<A extends unknown[], V>(
  name: string,
  key: (...args: A) => string | undefined,
  read: (db: DbOrTx, ...args: A) => Promise<V>,
  keeps: (value: V) => boolean = () => true,
) {
  const idOf = (kept: Kept | undefined, args: A) => {
    const k = kept?.feed.listening() ? key(...args) : undefined;
    return k === undefined ? undefined : `${name}\u0000${k}`;
  };
  const store = (kept: Kept, id: string, value: V) => {
    if (!keeps(value)) return;
    if (kept.values.size >= MAX_VALUES) kept.values.clear();
    kept.values.set(id, ownCopy(value));
  };
  const readKept = async (db: DbOrTx, ...args: A): Promise<V> => {
    const kept = keptOf(db);
    const id = idOf(kept, args);
    if (!kept || id === undefined) return read(db, ...args);
    if (kept.values.has(id)) {
      const confirmed = await kept.feed.confirm().then(
        () => true,
        () => false,
      );
      if (confirmed && kept.values.has(id)) return ownCopy(kept.values.get(id) as V);
    }
    const generation = kept.generation;
    const value = await read(db, ...args);
    if (generation === kept.generation && kept.feed.listening()) store(kept, id, value);
    return value;
  };
  /** Keeps `value` as what `read(db, ...args)` gives, unless a change was told since `since` (keptSince before it was read). */
  const keep = (db: DbOrTx, since: number | undefined, args: A, value: V) => {
    const kept = keptOf(db);
    const id = idOf(kept, args);
    if (kept && id !== undefined && since === kept.generation) store(kept, id, value);
  };
  return Object.assign(readKept, { keep });
}
