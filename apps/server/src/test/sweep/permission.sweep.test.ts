import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { permissionCheck } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Permission sweep: for every action with permission codes, a signed-in staff user whose role
 * holds every code except the action's is refused with 100403, the refusal is audited and
 * nothing changes. Actions open to any signed-in caller are listed in reviewed.ts.
 */
describe.each(engines())('permission sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('permission', engine, tally);
    await w?.close();
  });

  it.each(allActions())('%s', async (name) => {
    const outcome = await permissionCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
