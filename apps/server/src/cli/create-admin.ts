/**
 * Creates the first administrator (the super account) of a production database:
 *   DATABASE_URL=postgres://… npm run create-admin -- <username>
 * The password is read from XINLI_ADMIN_PASSWORD, never from the command line.
 */
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { muser } from '../domains/accounts/tables.js';
import { createSuperAccount } from '../domains/accounts/accounts.js';
import { syncReferenceData } from '../seed/reference.js';

const username = process.argv[2]?.trim();
const password = process.env.XINLI_ADMIN_PASSWORD;
if (!username || !password || password.length < 8) {
  console.error('usage: XINLI_ADMIN_PASSWORD=<at least 8 characters> npm run create-admin -- <username>');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
await syncReferenceData(database.db);
const [existing] = await database.db.select().from(muser).where(eq(muser.username, username));
if (existing) {
  console.error(`account ${username} exists already`);
  await database.close();
  process.exit(1);
}
await createSuperAccount(database.db, username, password);
console.log(`super account ${username} created`);
await database.close();
