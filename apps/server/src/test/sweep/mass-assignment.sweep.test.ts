import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { massAssignmentCheck } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Mass-assignment sweep: every write action, sent with extra ownership, permission and status
 * fields (another institution's musercode, permissions, enabled, issuper …) refuses them or
 * drops them; they are never applied.
 */
describe.each(engines())('mass-assignment sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('mass-assignment', engine, tally);
    await w?.close();
  });

  it.each(allActions())('%s', async (name) => {
    const outcome = await massAssignmentCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
