import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { codesFromStringsCheck, writesPrincipals } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Codes-from-strings sweep: no string a caller chooses (role names and keys, user and department
 * names, remarks, an account's profile) changes what codes the resolver gives anyone, whatever
 * it looks like: k:000313, admin, admin:x, 000313, *, % …
 */
describe.each(engines())('codes-from-strings sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('codes-from-strings', engine, tally);
    await w?.close();
  });

  // Edits of the target role and user first: a create that took a hostile key would otherwise
  // make the same key a clash (conflict) for the edit, and hide what the edit could smuggle.
  const order = allActions()
    .filter(writesPrincipals)
    .sort((a, b) => Number(/\.insert/.test(a)) - Number(/\.insert/.test(b)) || a.localeCompare(b));
  it.each(order)('%s', async (name) => {
    const outcome = await codesFromStringsCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
