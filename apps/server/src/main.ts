/**
 * `npm run serve`. On PostgreSQL it starts SERVER_PROCESSES server processes (default one per core)
 * with node:cluster: the primary migrates, syncs reference data and seeds the demo once, then forks
 * the workers, which share the port and keep no state another process would need (DESIGN §4:
 * sessions live in the database). SIGTERM or SIGINT drains every worker (in-flight requests finish)
 * before the primary exits. The embedded PGlite is one process's database: embedded mode runs a
 * single process and says so.
 */
import cluster from 'node:cluster';
import { loadConfig, type Config } from './config.js';
import { prepareDatabase, startServer } from './server.js';
import { demoSignIns } from './seed/demo.js';

// The compiled server (npm run build, npm run serve) is the production build: development-only work
// such as validating every answer against the contract is off unless NODE_ENV says otherwise.
if (import.meta.url.endsWith('.js')) process.env.NODE_ENV ??= 'production';

const config = loadConfig();
const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite at ${config.dataDir}`;

if (cluster.isPrimary && config.processes > 1) await primary(config);
else await worker(config, cluster.isWorker);

async function primary(config: Config) {
  await prepareDatabase(config);
  cluster.setupPrimary({ silent: false });
  let stopping = false;
  let address = '';
  const workers = new Set<ReturnType<typeof cluster.fork>>();
  const fork = () => {
    const w = cluster.fork();
    workers.add(w);
    w.on('message', (m: { listening?: string }) => {
      if (m.listening && !address) {
        address = m.listening;
        announce(address, `${config.processes} processes`);
      }
    });
    w.once('exit', (code, signal) => {
      workers.delete(w);
      if (stopping) {
        if (!workers.size) process.exit(0);
        return;
      }
      // A worker that died is replaced (after a pause, so a worker failing at start does not spin).
      console.error(`server process ${w.process.pid} exited (${signal ?? code}); starting another`);
      setTimeout(() => !stopping && fork(), 1000);
    });
  };
  for (let i = 0; i < config.processes; i++) fork();

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: draining ${workers.size} server processes`);
      if (!workers.size) process.exit(0);
      // Each worker finishes its in-flight requests and exits 0 (it may have had the signal already).
      for (const w of workers) w.process.kill('SIGTERM');
    });
  }
}

async function worker(config: Config, forked: boolean) {
  // The stop handlers come first: a signal while the worker is still starting (the primary drains a
  // fresh worker) must not kill it outright; it finishes starting, then drains like the others.
  const starting = startServer(config, { prepared: forked });
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    const running = await starting;
    // Written at once (stdout to a pipe or file is synchronous), like the primary's line: the
    // asynchronous request log may not get to write before a busy worker exits.
    console.log(`${why}: finishing in-flight requests (process ${process.pid})`);
    await running.stop();
    process.exit(0);
  };
  // `on`, not `once`: a worker may get the signal twice (from the terminal's process group and from
  // the primary), and a second one must not fall through to the default action (exit at once).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
  // The primary is gone (killed outright): do not live on as an orphan.
  if (forked) process.once('disconnect', () => void stop('primary gone'));

  const running = await starting;
  if (stopping) return;
  const address = await running.app.listen({ port: config.port, host: config.host });
  running.app.log.info({ address, database: config.databaseUrl ? 'postgres' : 'pglite' }, 'listening');
  if (forked) process.send?.({ listening: address });
  else {
    const single = config.databaseUrl ? 'one process (SERVER_PROCESSES=1)' : 'one process: the embedded database serves a single process';
    announce(address, single);
  }
}

function announce(address: string, processes: string) {
  console.log(`\nXinli console: ${address.replace('127.0.0.1', 'localhost')}   database: ${where}   ${processes}`);
  // The sandbox pays without money: say so, so that nobody runs it in production by mistake.
  console.log(
    config.paymentProvider === 'sandbox'
      ? 'payment: sandbox (development only; PAYMENT_PROVIDER=none turns it off)'
      : 'payment: none (the shop lists goods but takes no order)',
  );
  if (!config.databaseUrl && process.env.SERVER_PROCESSES && process.env.SERVER_PROCESSES !== '1') {
    console.log(`SERVER_PROCESSES=${process.env.SERVER_PROCESSES} is ignored: the embedded PGlite runs in one process (set DATABASE_URL for several)`);
  }
  if (config.demo) {
    console.log(`Demo sign-ins (password: ${process.env.XINLI_DEMO_PASSWORD ? '$XINLI_DEMO_PASSWORD' : 'demo123'}):`);
    for (const [name, what] of demoSignIns) console.log(`  ${name.padEnd(12)} ${what}`);
  }
}
