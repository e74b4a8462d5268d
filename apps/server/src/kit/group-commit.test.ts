import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { groupCommit } from './group-commit.js';

/** The writes a group commit sent; the first waits until `release` is called. */
function recorder(fail: (items: number[]) => boolean = () => false) {
  const writes: number[][] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const write = async (_db: Db, items: number[]) => {
    writes.push(items);
    if (writes.length === 1) await held;
    if (fail(items)) throw new Error(`refused ${items.join(',')}`);
  };
  return { writes, release, write };
}
const db = {} as Db;
const other = {} as Db;

describe('group commits (kit/group-commit)', () => {
  it('sends a write at once, and together in order what arrives while it is in flight', async () => {
    const r = recorder();
    const write = groupCommit(r.write, 100);
    const first = write(db, 1);
    const rest = [2, 3, 4].map((n) => write(db, n));
    expect(r.writes).toEqual([[1]]);
    r.release();
    await Promise.all([first, ...rest]);
    expect(r.writes).toEqual([[1], [2, 3, 4]]);
  });

  it('takes at most its limit in one write, and keeps each database apart', async () => {
    const r = recorder();
    const write = groupCommit(r.write, 2);
    const all = [write(db, 1), write(db, 2), write(db, 3), write(db, 4), write(other, 9)];
    r.release();
    await Promise.all(all);
    expect(r.writes).toEqual([[1], [9], [2, 3], [4]]);
  });

  it('fails only the bad item of a group: its items are then written alone', async () => {
    const r = recorder((items) => items.includes(13));
    const write = groupCommit(r.write, 100);
    const outcomes = Promise.allSettled([12, 13, 14].map((n) => write(db, n)));
    r.release();
    expect((await outcomes).map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(r.writes).toEqual([[12], [13, 14], [13], [14]]);
  });
});
