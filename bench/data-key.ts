/**
 * The data key of benches that start the compiled server (README "Data key"): production refuses to
 * start without one. A fixed key, for bench data only, so a database a bench prepared in one run
 * (bench:stats-data) opens again in the next; DATA_KEY, when set, wins.
 */
import crypto from 'node:crypto';

process.env.DATA_KEY ||= crypto.createHash('sha256').update('xinli bench data key (not for real data)').digest('base64');
