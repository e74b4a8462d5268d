/**
 * Verifies the audit log's hash chain (issue 30 §2):
 *   DATABASE_URL=postgres://… npm run audit:verify      (or the embedded database under DATA_DIR)
 * Prints that the chain is whole (entries checked, the anchor the retention job left) or its first
 * broken link (place, time and why) and exits 1.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { verifyChain } from '../domains/audit/index.js';

const REASONS = {
  hash: 'its content does not match its hash (changed after it was written)',
  link: 'it does not link to the entry before it (an entry before it was changed or removed)',
  gap: 'entries before it are missing',
  head: 'the newest entries are missing (the chain head names a later one)',
};

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
try {
  const check = await verifyChain(database.db);
  const from = check.anchorseq ? ` from the retention anchor after entry ${check.anchorseq}` : '';
  if (check.whole) {
    console.log(`audit chain whole: ${check.checked} entries checked${from}`);
  } else {
    const b = check.broken!;
    console.log(`audit chain BROKEN at entry ${b.seq} (${b.at || 'time unknown'}): ${REASONS[b.reason]}; ${check.checked} entries before it are whole${from}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
