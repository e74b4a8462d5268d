import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, type ActionDef } from '@xinli/contract';
import { engines } from '../harness.js';
import { grantsCheck } from './grants.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Grants sweep (issue 27): every action whose contract says it changes settings, grants, passwords
 * or account state is refused to a staff user lacking its codes, and gives a narrow caller (a
 * provider's staff user, and the login-as session it opens) no way to hand out, or take over an
 * account holding, a code it does not hold. The metadata test makes every grant-like action say
 * what it changes, so the next one is swept without a new test.
 */
describe.each(engines())('grants sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
  });
  afterAll(async () => {
    publish('grants', engine, tally);
    await w?.close();
  });

  const swept = allActions().filter((name) => (catalogue as Record<string, ActionDef>)[name]!.changes);
  it('covers the actions that change settings, grants, passwords and account state', () => {
    expect(swept).toEqual(expect.arrayContaining(['as.m.user.updateMUser', 'as.m.system.user.resetPwd', 'as.m.warning.updateWarningSettings', 'as.m.user.loginAs']));
  });

  it.each(swept)('%s', async (name) => {
    const outcome = await grantsCheck(w, name);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
