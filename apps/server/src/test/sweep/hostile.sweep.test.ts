import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { hostileCheck, SWEEP_RUNS, SWEEP_SEED } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Hostile-input sweep: for every action, SWEEP_RUNS bodies generated from its input schema
 * (wrong types, missing and extra fields, empty and 1 MB strings, page sizes at every edge,
 * deep nesting, SQL, formulas, HTML, control characters, mixed scripts), sent by the super
 * account and by an institution holding every code. No answer is a 5xx or leaks internals, and
 * a sign-in still works afterwards. SWEEP_SEED reproduces a run.
 */
describe.each(engines())(`hostile-input sweep on %s (SWEEP_SEED=${SWEEP_SEED}, SWEEP_RUNS=${SWEEP_RUNS})`, (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('hostile', engine, tally);
    await w?.close();
  });

  it.each(allActions())('%s', async (name) => {
    const outcome = await hostileCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
