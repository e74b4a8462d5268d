/**
 * Creates the first administrator (the super account) of a production database:
 *   DATABASE_URL=postgres://… npm run create-admin -- <username>
 * The password is read from XINLI_ADMIN_PASSWORD, never from the command line. In production (a
 * DATABASE_URL, or NODE_ENV=production) it also enrols the account's second factor (issue 30 §1):
 * it prints the otpauth:// URI and its QR code in the terminal, asks for the first code of the
 * authenticator, and prints the ten one-time recovery codes once.
 */
import { createInterface } from 'node:readline/promises';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { muser } from '../domains/accounts/tables.js';
import { createSuperAccount } from '../domains/accounts/accounts.js';
import { syncReferenceData } from '../seed/reference.js';
import { readyEncryption } from '../encryption.js';
import { acceptCode, beginEnrolment, newRecoveryCodes } from '../domains/auth/index.js';
import type { Db } from '../db/database.js';

const username = process.argv[2]?.trim();
const password = process.env.XINLI_ADMIN_PASSWORD;
if (!username || !password || password.length < 8) {
  console.error('usage: XINLI_ADMIN_PASSWORD=<at least 8 characters> npm run create-admin -- <username>');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
await syncReferenceData(database.db);
// The second factor's secret is sealed (issue 30 §3): the same data key as the server's.
await readyEncryption(database.db, config, false);
const [existing] = await database.db.select().from(muser).where(eq(muser.username, username));
if (existing) {
  console.error(`account ${username} exists already`);
  await database.close();
  process.exit(1);
}
const musercode = await createSuperAccount(database.db, username, password);
console.log(`super account ${username} created`);
if (config.databaseUrl || process.env.NODE_ENV === 'production') await enrol(database.db, { musercode, userid: null });
await database.close();

/** Enrols the second factor at the terminal: the QR code, the first code (three tries), the recovery codes. */
async function enrol(db: Db, person: { musercode: string; userid: null }) {
  const { uri } = await beginEnrolment(db, person, username, new Date());
  console.log('\nSecond factor: scan this QR code with an authenticator app, or add this URI by hand:');
  console.log(await QRCode.toString(uri, { type: 'terminal', small: true }));
  console.log(uri);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  for (let tries = 0; tries < 3; tries++) {
    const code = (await rl.question('Enter the 6-digit code the app shows: ')).trim();
    if (/^[0-9]{6}$/.test(code) && (await acceptCode(db, person, code, new Date(), true))) {
      rl.close();
      console.log('Second factor enrolled. Recovery codes (each signs in once; keep them offline, they are not shown again):');
      for (const c of await newRecoveryCodes(db, person)) console.log(`  ${c}`);
      return;
    }
    console.log('That code is not right; try the next one the app shows.');
  }
  rl.close();
  console.error('Second factor not enrolled: sign in, then enrol it from the account menu (top right).');
  process.exitCode = 1;
}
