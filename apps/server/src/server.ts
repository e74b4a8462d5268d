import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { syncReferenceData } from './seed/reference.js';
import { seedDemo } from './seed/demo.js';

export interface Running {
  app: FastifyInstance;
  database: Database;
  seeded: boolean;
  stop(): Promise<void>;
}

/** Opens the database (migrating it), syncs the menu table, seeds demo data if asked, builds the app. */
export async function startServer(config: Config, extra: Partial<AppOptions> = {}): Promise<Running> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  await syncReferenceData(database.db);
  const now = extra.now ?? (() => new Date());
  const seeded = config.demo ? await seedDemo(database.db, config.demoPassword, now()) : false;
  const app = await buildApp({ database, config, ...extra, now });
  return {
    app,
    database,
    seeded,
    // In-flight requests finish before the database closes.
    stop: async () => {
      await app.close();
      await database.close();
    },
  };
}
