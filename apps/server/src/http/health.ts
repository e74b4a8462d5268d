import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Database, type Db } from '../db/database.js';

/**
 * GET /healthz and GET /readyz, for a load balancer or an orchestrator: unauthenticated, cheap, and
 * carrying no data beyond which part is down. /healthz answers while the process can answer at all;
 * /readyz answers 200 only while this process can serve: the database answers, its migrations are
 * the ones this build carries, the job runner polls and the notification listeners are connected.
 * With a read replica (DATABASE_READ_URL) the replica is one more part: it answers and carries this
 * build's migrations (a list read from a replica without a new column would fail).
 * Otherwise 503, naming the failing parts. Neither writes a request log line (a probe every few
 * seconds would bury the log); a failing readiness check is logged once when it starts failing.
 */
export interface ReadinessParts {
  /** Whether the job runners may run jobs (polling, or run by hand when JOB_POLL_MS=0). */
  jobs(): boolean;
  /** Each notification listener by name: whether it is connected. */
  listeners: Record<string, () => boolean>;
}

export type PartState = 'ok' | 'failing';

/** How long the database may take to answer before the process counts as not ready. */
const DATABASE_TIMEOUT_MS = 2000;

export function registerHealth(app: FastifyInstance, database: Pick<Database, 'db' | 'readDb'>, parts: ReadinessParts) {
  const latest = latestMigration();
  let failing = '';
  app.get('/healthz', { logLevel: 'warn' }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', { logLevel: 'warn' }, async (req, reply) => {
    const checks = await readiness(database, latest, parts);
    const down = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    if (down.join() !== failing) {
      if (down.length) req.log.warn({ failing: down }, 'not ready');
      else if (failing) req.log.info('ready again');
      failing = down.join();
    }
    reply.header('cache-control', 'no-store').status(down.length ? 503 : 200);
    return { status: down.length ? 'unavailable' : 'ready', failing: down, checks };
  });
}

async function readiness({ db, readDb }: Pick<Database, 'db' | 'readDb'>, latest: number, parts: ReadinessParts): Promise<Record<string, PartState>> {
  // Two pools: the two probes may run at once.
  const [applied, replica] = await Promise.all([lastAppliedMigration(db), readDb === db ? null : lastAppliedMigration(readDb)]);
  const state = (ok: boolean): PartState => (ok ? 'ok' : 'failing');
  return {
    database: state(applied !== undefined),
    // Not knowable while the database is down: reported failing with it.
    migrations: state(applied !== undefined && applied >= latest),
    ...(replica === null ? {} : { replica: state(replica !== undefined && replica >= latest) }),
    jobs: state(parts.jobs()),
    ...Object.fromEntries(Object.entries(parts.listeners).map(([name, up]) => [name, state(up())])),
  };
}

/** The creation stamp of the newest migration applied (drizzle's own table), undefined when the database does not answer in time. */
async function lastAppliedMigration(db: Db): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DATABASE_TIMEOUT_MS)));
  const query = db
    .execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`)
    .then((res) => Number((res as unknown as { rows: { last: string | number | null }[] }).rows[0]?.last ?? 0))
    .catch(() => undefined);
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The newest migration this build carries (its journal's last entry). */
function latestMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}
