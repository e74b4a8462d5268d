import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, type ActionDef } from '@xinli/contract';
import { engines } from '../harness.js';
import { parallelCreateCheck } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Parallel-create sweep: every create action whose contract declares a uniqueness rule
 * (`unique`) is fired 12 times at once with one body: exactly one row, conflicts for the rest.
 */
describe.each(engines())('parallel-create sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('parallel-create', engine, tally);
    await w?.close();
  });

  it.each(allActions().filter((n) => (catalogue as Record<string, ActionDef>)[n]!.unique?.length))('%s', async (name) => {
    const outcome = await parallelCreateCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
