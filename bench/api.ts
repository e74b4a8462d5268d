/**
 * API overhead: requests per second and p50/p99 latency of
 *   (a) a bare Fastify route, and
 *   (b) a signed-in no-op catalogue action (token lookup, permission resolution, envelope),
 * measured in one run on loopback, with their ratio. `npm run bench:api` (BENCH_SECONDS, BENCH_CONNECTIONS).
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { testConfig } from '../apps/server/src/config.js';
import { startServer } from '../apps/server/src/server.js';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function measure(title: string, opts: autocannon.Options) {
  await autocannon({ ...opts, duration: 1, connections }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds, connections });
  const row = { title, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
  console.log(`${title.padEnd(34)} ${row.rps.toFixed(0).padStart(7)} req/s   p50 ${String(row.p50).padStart(3)} ms   p99 ${String(row.p99).padStart(3)} ms   errors ${row.errors}`);
  return row;
}

const bare = Fastify();
bare.post('/bare', async () => ({ errorCode: 0, errorMsg: '', data: null }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

// In-memory PGlite, demo data; database: process.env.DATABASE_URL to measure PostgreSQL instead.
const running = await startServer(testConfig({ demo: true, dataDir: '', databaseUrl: process.env.DATABASE_URL, logLevel: 'silent' }));
const apiUrl = await running.app.listen({ port: 0, host: '127.0.0.1' });
const login = await fetch(`${apiUrl}/api/as.m.user.login/1.0.0/action`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'school', pwd: md5Upper(process.env.XINLI_DEMO_PASSWORD ?? 'demo123') }),
}).then((r) => r.json());
const token = login.data.token as string;

console.log(`API benchmark: ${seconds}s per case, ${connections} connections, loopback, ${running.database.kind}`);
const a = await measure('(a) bare Fastify route', { url: `${bareUrl}/bare`, method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
const b = await measure('(b) signed-in as.m.system.ping', {
  url: `${apiUrl}/api/as.m.system.ping/1.0.0/action`,
  method: 'POST',
  body: '{}',
  headers: { 'content-type': 'application/json', token },
});
console.log(`ratio (b)/(a) throughput: ${(b.rps / a.rps).toFixed(3)}   p50 latency x${(b.p50 / Math.max(a.p50, 1)).toFixed(1)}`);

await bare.close();
await running.stop();
