/* global process, console */
// `npm run demo:reset -- --yes`: deletes the embedded database's data directory (DATA_DIR, default
// ./data: the PGlite database and the uploaded files under it), so that the next `npm start` seeds
// the demo afresh. Stop the server first. It refuses without --yes, and refuses with DATABASE_URL
// set: the demo never lives in PostgreSQL, and a production database is not this script's to drop.
import fs from 'node:fs';
import path from 'node:path';

const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
if (process.env.DATABASE_URL) {
  console.error('demo:reset works on the embedded database only; DATABASE_URL is set, nothing deleted');
  process.exit(1);
}
if (!process.argv.includes('--yes')) {
  console.error(`demo:reset deletes ${dataDir} (the demo database and its uploaded files).`);
  console.error('Stop the server, then run: npm run demo:reset -- --yes');
  process.exit(1);
}
if (!fs.existsSync(dataDir)) {
  console.log(`${dataDir} does not exist: nothing to reset; npm start seeds the demo`);
} else {
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`deleted ${dataDir}; npm start seeds the demo afresh`);
}
