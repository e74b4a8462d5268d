import type { FastifyInstance } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import { buildApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { syncReferenceData } from './seed/reference.js';
import { storageOf } from './domains/files/files.js';
import { seedDemo } from './seed/demo.js';
import { installKeys, readyEncryption } from './encryption.js';
import { serveDumps } from './ops/backup.js';
import { analyzeGrownTables, autovacuumWhileRunning } from './db/analyze.js';

export interface Running {
  app: FastifyInstance;
  database: Database;
  seeded: boolean;
  stop(): Promise<void>;
}

/**
 * Opens the database (migrating it), syncs the menu table, seeds demo data if asked, builds the app.
 * With `prepared`, the database was readied already (by the primary of `npm run serve` before it
 * started its workers): the app is built on it without migrating, syncing or seeding again.
 */
export async function startServer(config: Config, extra: Partial<AppOptions> & { prepared?: boolean } = {}): Promise<Running> {
  const { prepared, ...options } = extra;
  // Before the database opens: production without a data key stops here.
  installKeys(config);
  const database = await openDatabase({
    url: config.databaseUrl,
    readUrl: config.databaseReadUrl,
    poolSize: config.databasePoolSize,
    poolWaitMs: config.databasePoolWaitMs,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    migrate: !prepared,
  });
  const now = options.now ?? (() => new Date());
  const seeded = prepared ? false : await prepare(database, config, now());
  // A forked worker loads the index key; the primary (or a single process) sealed the rows in prepare.
  if (prepared) await readyEncryption(database.db, config, false);
  const app = await buildApp({ database, config, ...options, now });
  // The embedded database: `npm run backup` asks this process for a dump (no second process may open the folder).
  const closeDumps =
    database.kind === 'pglite' ? await serveDumps((database.db as unknown as { $client: PGlite }).$client, config.dataDir) : async () => {};
  // PGlite has no autovacuum: its tables are analyzed as they grow and vacuumed every round (PostgreSQL's autovacuum does it there).
  const stopAutovacuum =
    database.kind === 'pglite'
      ? autovacuumWhileRunning(database.db, { everyMs: AUTOVACUUM_EVERY_MS, vacuum: true }, (err) => app.log.warn({ err }, 'vacuum or analyze of the embedded database failed'))
      : async () => {};
  return {
    app,
    database,
    seeded,
    // In-flight requests finish before the database closes.
    stop: async () => {
      await app.close();
      await stopAutovacuum();
      await closeDumps();
      await database.close();
    },
  };
}

/** Autovacuum's own naptime. */
const AUTOVACUUM_EVERY_MS = 60_000;

async function prepare(database: Database, config: Config, now: Date): Promise<boolean> {
  await syncReferenceData(database.db);
  await readyEncryption(database.db, config, false);
  const seeded = config.demo ? await seedDemo(database.db, config.demoPassword, now, { files: storageOf(config), entryBase: config.publicBaseUrl }) : false;
  // After the seed: whatever is still plain (an upgraded database) is sealed before the server answers.
  await readyEncryption(database.db, config, true);
  // The first requests plan against the tables as the seed and the migrations left them, not as empty.
  await analyzeGrownTables(database.db);
  return seeded;
}

/** Migrates, syncs reference data and seeds the demo once, then closes: what the primary does before forking. */
export async function prepareDatabase(config: Config): Promise<{ seeded: boolean }> {
  installKeys(config);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  try {
    return { seeded: await prepare(database, config, new Date()) };
  } finally {
    await database.close();
  }
}
