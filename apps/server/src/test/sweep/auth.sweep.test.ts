import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sysuser } from '../../domains/system/tables.js';
import { engines } from '../harness.js';
import { authCheck, type BadToken } from './checks.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Authentication sweep: every non-public action of the catalogue, called without a token, with
 * garbage, with an expired, a revoked and a disabled account's token, answers 110000 and
 * changes nothing: with a valid body and with a hostile one (authentication comes first).
 */
describe.each(engines())('authentication sweep on %s', (engine) => {
  let w: World;
  const badTokens: BadToken[] = [];
  const tally = newTally();

  beforeAll(async () => {
    w = await startWorld(engine);
    const revoked = await w.token('B');
    expect((await w.call('as.m.user.logout', {}, revoked)).errorCode).toBe(0);
    const expired = await w.token('P');
    w.s.clock.advance(31 * 60_000); // past the 30-minute idle limit
    const staff = await w.staffWith(['00018']);
    await w.s.database.db.update(sysuser).set({ enabled: 0 }).where(eq(sysuser.userid, staff.userid));
    badTokens.push(
      { label: 'no token', token: undefined },
      { label: 'an unknown token', token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { label: 'an over-long token', token: 'x'.repeat(4096) },
      { label: 'an expired token', token: expired },
      { label: 'a revoked token', token: revoked },
      { label: 'the token of a disabled user', token: staff.token },
    );
  });
  afterAll(async () => {
    publish('auth', engine, tally);
    await w?.close();
  });

  it.each(allActions())('%s', async (name) => {
    const outcome = await authCheck(w, name, badTokens);
    count(tally, name, outcome);
    expect(outcome.failures).toEqual([]);
  });
});
