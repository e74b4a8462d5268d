import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, pgliteTemplate } from '../db/database.js';
import { admin, withDatabase } from '../db/admin.js';

/**
 * Builds the migrated databases once per run: a PGlite dump every test file loads, and, when
 * TEST_DATABASE_URL is set, a PostgreSQL template database each file clones.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-test-'));
  const file = path.join(dir, 'template.tar');
  const blob = await pgliteTemplate();
  fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide('pgliteTemplate', file);

  const url = process.env.TEST_DATABASE_URL;
  let templateName = '';
  if (url) {
    templateName = `xinli_tpl_${process.pid}`;
    await admin(url, `DROP DATABASE IF EXISTS ${templateName}`);
    await admin(url, `CREATE DATABASE ${templateName}`);
    const database = await openDatabase({ url: withDatabase(url, templateName) });
    await database.close();
  }
  project.provide('pgTemplate', templateName);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (url && templateName) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'xinli_t_${process.pid}_%' OR datname = $1`, [templateName]);
      for (const r of rows) await client.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
      await client.end();
    }
  };
}

export { admin, withDatabase } from '../db/admin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
