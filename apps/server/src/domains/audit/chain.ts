import { sql } from 'drizzle-orm';
import type { ChainCheck } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { iso } from '../../kit/index.js';

/** Entries read per round trip while verifying: bounded memory whatever the log's size. */
const BATCH = 2000;

interface ChainRow {
  seq: number;
  at: Date | string;
  prevhash: string;
  hash: string;
  computed: string;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Walks the chain from its anchor (the newest entry the retention job removed, or the start) to
 * its head, recomputing every entry's hash in the database (audit_hash(), the one definition of
 * the canonical form, migration audit_chain). The first entry whose hash is not its content's,
 * whose link is not the hash before it, whose place skips one, or a head that is not the last
 * entry (newest entries removed) is the broken link.
 */
export async function verifyChain(db: DbOrTx): Promise<ChainCheck> {
  const [head] = rowsOf<{ headseq: number; headhash: string; anchorseq: number; anchorhash: string }>(
    await db.execute(sql`select headseq::int8 as headseq, headhash, anchorseq::int8 as anchorseq, anchorhash from audit_chain where one = 1`),
  );
  const anchorseq = Number(head?.anchorseq ?? 0);
  let expected = { seq: anchorseq + 1, prevhash: head?.anchorhash ?? '' };
  let checked = 0;
  let last: ChainRow | null = null;
  for (;;) {
    const rows = rowsOf<ChainRow>(
      await db.execute(sql`
        select a.seq::int8 as seq, a.at, a.prevhash, a.hash, audit_hash(a, a.prevhash) as computed
        from audit_log a where a.seq >= ${expected.seq} order by a.seq limit ${BATCH}`),
    );
    for (const r of rows) {
      const seq = Number(r.seq);
      const reason = seq !== expected.seq ? 'gap' : r.prevhash !== expected.prevhash ? 'link' : r.computed !== r.hash ? 'hash' : null;
      if (reason) return { whole: false, checked, broken: { seq, at: iso(new Date(r.at)), reason }, anchorseq };
      checked++;
      expected = { seq: seq + 1, prevhash: r.hash };
      last = r;
    }
    if (rows.length < BATCH) break;
  }
  if (head && (Number(head.headseq) !== expected.seq - 1 || head.headhash !== expected.prevhash)) {
    // The head names a later entry than the last one found: the newest entries were removed.
    return { whole: false, checked, broken: { seq: expected.seq, at: last ? iso(new Date(last.at)) : '', reason: 'head' }, anchorseq };
  }
  return { whole: true, checked, broken: null, anchorseq };
}
