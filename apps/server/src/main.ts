import { loadConfig } from './config.js';
import { startServer } from './server.js';
import { demoSignIns } from './seed/demo.js';

const config = loadConfig();
const running = await startServer(config);
const address = await running.app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite at ${config.dataDir}`;
running.app.log.info(`Xinli console on ${address} (${where})`);
console.log(`\nXinli console: ${address.replace('127.0.0.1', 'localhost')}   database: ${where}`);
if (config.demo) {
  console.log(`Demo sign-ins (password: ${process.env.XINLI_DEMO_PASSWORD ? '$XINLI_DEMO_PASSWORD' : 'demo123'}):`);
  for (const [name, what] of demoSignIns) console.log(`  ${name.padEnd(12)} ${what}`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    if (stopping) return;
    stopping = true;
    running.app.log.info(`${signal}: finishing in-flight requests`);
    await running.stop();
    process.exit(0);
  });
}
