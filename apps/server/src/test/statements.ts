import type { Db } from '../db/database.js';

/**
 * The statements `db`'s driver is sent while `run` runs, as their text (prepared or not, on the
 * pool or PGlite; a transaction's, on a pooled connection, are not seen). For tests that count a
 * request's round trips or the reads of a table.
 */
export async function statementsSent(db: Db, run: () => Promise<unknown>): Promise<string[]> {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  const sent: string[] = [];
  client.query = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    sent.push(typeof first === 'string' ? first : (first?.text ?? ''));
    return query.apply(client, args);
  };
  try {
    await run();
  } finally {
    client.query = query;
  }
  return sent;
}
