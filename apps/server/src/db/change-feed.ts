import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Db } from './database.js';

/**
 * Changes announced by the database (NOTIFY, at commit), for what a server process keeps in memory
 * (the callers it resolved, auth/caller-cache.ts; the rows that rarely change, kit/reference-reads.ts)
 * and what it passes on (the live warning events, warnings/events.ts, with their payload). Every
 * process LISTENs on one connection and tells its subscribers; while the listening
 * connection is down (start-up, database restart) it is not `listening()`, and its subscribers are
 * told on going down and on coming back (whatever changed meanwhile was not heard).
 *
 * What "at once" means: on PGlite (one process, one connection) the notification is delivered with
 * the statement that caused it, before that statement returns. On PostgreSQL a notification travels
 * on its own, so what is kept is first confirmed by a round trip on the listening connection (an
 * empty query, shared by all who ask in the same turn of the event loop or while one is in flight):
 * the committing backend signals every listening backend before its client learns of the commit,
 * and an idle listening backend sends what it was signalled before it answers a command it reads
 * afterwards, so a change committed before the confirmation was asked for has been told by the time
 * it returns. The empty query is answered without parsing or planning (less than half the cost of
 * `select 1` on both sides).
 */
export interface ChangeFeed {
  /**
   * Calls `fn` with the payload of every notification of `channels` (all the feed's when omitted),
   * and without one when the feed goes down or comes back; answers the unsubscribe.
   */
  subscribe(fn: (payload?: string) => void, channels?: string[]): () => void;
  /** Resolves once every notification committed before the call has been told (PostgreSQL; at once on PGlite); rejects while down. */
  confirm(): Promise<void>;
  /** Whether the listening connection is up (GET /readyz reports it). */
  listening(): boolean;
  close(): Promise<void>;
}

/** All channels: a subscriber told of a reconnection has missed what any of them said. */
const ANY = '*';

export async function createChangeFeed(
  db: Db,
  channels: string[],
  applicationName: string,
  onError: (err: Error) => void = () => {},
): Promise<ChangeFeed> {
  const subscribers = new Set<{ fn: (payload?: string) => void; channels?: string[] }>();
  const tell = (channel: string, payload?: string) => {
    for (const s of subscribers)
      if (channel === ANY || !s.channels || s.channels.includes(channel)) s.fn(channel === ANY ? undefined : payload);
  };
  let listening = false;
  let closed = false;
  let stop: () => Promise<void>;
  let confirm: () => Promise<void> = async () => {
    if (!listening) throw new Error('not listening');
  };

  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof PGlite) {
    const unlisten: (() => Promise<void>)[] = [];
    for (const channel of channels) unlisten.push(await client.listen(channel, (payload) => tell(channel, payload)));
    listening = true;
    stop = async () => {
      for (const u of unlisten) await u();
    };
  } else {
    const options = (client as unknown as { options: pg.ClientConfig }).options;
    let conn: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      if (closed) return;
      const c = new pg.Client({ ...options, application_name: applicationName });
      const down = (err?: Error) => {
        if (conn !== c) return;
        listening = false;
        conn = undefined;
        tell(ANY);
        if (err) onError(err);
        c.end().catch(() => {});
        if (!closed) retry = setTimeout(connect, 1000);
      };
      c.on('error', down);
      c.on('end', () => down());
      c.on('notification', (n) => tell(n.channel, n.payload));
      conn = c;
      try {
        await c.connect();
        for (const channel of channels) await c.query(`LISTEN ${channel}`);
        if (conn !== c) return;
        tell(ANY); // whatever changed while nobody listened
        listening = true;
      } catch (err) {
        down(err as Error);
      }
    };
    // Callers join the confirmation not yet sent. It is sent at the end of the event loop's turn, so
    // every request read in that turn shares it (a signed-in no-op from 10 connections at once: 0.20
    // round trips a request, 0.26 when the first caller's was sent at once), and never while another
    // is in flight (those asking meanwhile share the next). It is always sent after its callers asked.
    let gathering: Promise<void> | undefined;
    let inFlight: Promise<unknown> = Promise.resolve();
    const send = (): Promise<void> => {
      gathering = undefined;
      const c = conn;
      const sent = !c || !listening ? Promise.reject(new Error('not listening')) : c.query('').then(() => {});
      inFlight = sent.catch(() => {});
      return sent;
    };
    confirm = () => (gathering ??= inFlight.then(() => new Promise((r) => setImmediate(r))).then(send));
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
    subscribe(fn, channels) {
      const s = { fn, channels };
      subscribers.add(s);
      return () => void subscribers.delete(s);
    },
    confirm: () => confirm(),
    listening: () => listening && !closed,
    async close() {
      closed = true;
      tell(ANY);
      await stop();
    },
  };
}
