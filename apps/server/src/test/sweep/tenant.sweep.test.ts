import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { PERSPECTIVES, tenantCheck } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Tenant-isolation sweep: institution A calls every action with its sibling B's object ids, and
 * provider P0001 with the ids of an institution under another provider; each answers not found
 * and changes nothing. Every answer they do get (lists, reads, statistics, exports) holds no row
 * or id from outside their scope.
 */
describe.each(engines())('tenant-isolation sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('tenant', engine, tally);
    await w?.close();
  });

  it.each(allActions())('%s', async (name) => {
    const failures: string[] = [];
    let bodies = 0;
    for (const perspective of PERSPECTIVES) {
      const outcome = await tenantCheck(w, name, perspective);
      failures.push(...outcome.failures);
      bodies += outcome.bodies;
    }
    count(tally, name, { failures, bodies });
    expect(failures).toEqual([]);
  });
});
