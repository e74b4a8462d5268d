import type { Db } from '../db/database.js';

interface Waiting<T> {
  item: T;
  done: (error?: unknown) => void;
}
interface Queue<T> {
  waiting: Waiting<T>[];
  flushing: boolean;
}

/**
 * Writes grouped as a group commit: what arrives while a write is in flight goes together in the
 * next one, so fifty requests writing at once wait for one or two statements, not for fifty one
 * after another (each a round trip, and a commit holding whatever it locked). Alone, a write is sent
 * at once. Each caller's promise settles once its own item is committed; when a group fails, each
 * of its items is written alone, so a bad one fails only its own caller.
 *
 * `writeMany` writes the items in one statement (outside any transaction: the database's own).
 */
export function groupCommit<T>(writeMany: (db: Db, items: T[]) => Promise<unknown>, maxItems: number): (db: Db, item: T) => Promise<void> {
  const queues = new WeakMap<Db, Queue<T>>();

  const alone = async (db: Db, w: Waiting<T>) => {
    try {
      await writeMany(db, [w.item]);
      w.done();
    } catch (e) {
      w.done(e ?? new Error('write failed'));
    }
  };

  /** Writes what waits, group after group, until nothing does. */
  const flush = async (db: Db, q: Queue<T>) => {
    q.flushing = true;
    try {
      while (q.waiting.length) {
        const group = q.waiting.splice(0, maxItems);
        const items = group.map((w) => w.item);
        try {
          await writeMany(db, items);
          for (const w of group) w.done();
        } catch {
          await Promise.all(group.map((w) => alone(db, w)));
        }
      }
    } finally {
      q.flushing = false;
    }
  };

  return (db, item) => {
    let queue = queues.get(db);
    if (!queue) queues.set(db, (queue = { waiting: [], flushing: false }));
    const q = queue;
    return new Promise<void>((resolve, reject) => {
      q.waiting.push({ item, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!q.flushing) void flush(db, q);
    });
  };
}
