import pg from 'pg';

/**
 * Statements PostgreSQL runs outside any database of ours (CREATE and DROP DATABASE): the test
 * templates, the per-file test databases and the benches' scratch databases.
 */
export async function admin(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The same server's URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** An empty database on the server of `url`, for one bench run; drop() removes it. */
export async function scratchDatabase(url: string, name: string) {
  await admin(url, `CREATE DATABASE ${name}`);
  return { url: withDatabase(url, name), drop: () => admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
