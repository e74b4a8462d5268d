import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, type ActionDef } from '@xinli/contract';
import { planAuthorize } from '../../domains/plans/tables.js';
import { task } from '../../domains/tasks/tables.js';
import { classTask } from '../../domains/tasks/test-task.js';
import { engines, testDay } from '../harness.js';
import { z } from 'zod';
import { seedFor, shapeOf, validSamples } from './arbitrary.js';
import { answerProblems, bodiesFor, SWEEP_SEED } from './checks.js';
import { changedTables, fingerprint } from './fingerprint.js';
import { count, newTally, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Window sweep (issue 27 §6): every as.c.* action that acts for a code, a task or a link is called
 * with a credential whose window has closed: a respondent token and an assessment code of a task
 * that ended and of a plan authorisation that ended, the code of an ended task, an entry link that
 * was reset. Each call must be refused (by the window's own sentence where there is one) and
 * change nothing. The list of actions and the credential each takes come from the catalogue: a
 * respondent action takes a token, a public one the credential field its input names, so the next
 * as.c.* action is swept without a new test. An as.c.* action with none of these must be listed in
 * NO_WINDOW with the reason.
 */

type Kind = 'respondent' | 'assesscode' | 'taskcode' | 'entrytoken';
const FIELDS: Kind[] = ['assesscode', 'taskcode', 'entrytoken'];

/** as.c.* actions that act for none of a code, a task or a link, and why they have no window to close. */
export const NO_WINDOW: Record<string, string> = {
  'as.c.shop.getOrder':
    'acts for an order (its 192-bit order token), not a code, task or link: the buyer may read their order whatever the state of the shop; an unpaid order’s own lifetime is its expiry (issue 27 §8)',
};

const defOf = (name: string) => (catalogue as Record<string, ActionDef>)[name]!;

/** The credential an as.c.* action acts for, read from the catalogue; null when it has none. */
export function credentialOf(name: string): Kind | null {
  const def = defOf(name);
  if (def.access === 'respondent') return 'respondent';
  const shape = shapeOf(def.input) ?? {};
  return FIELDS.find((f) => f in shape) ?? null;
}

const respondentActions = () => allActions().filter((n) => n.startsWith('as.c.'));

/** Bodies the walker cannot invent (a mobile number through a pipe), kept here so the other sweeps' first bodies stay as they are. */
const WINDOW_EXAMPLES: Record<string, Record<string, unknown>> = {
  'as.c.shop.createOrder': { goodsid: 'GDSWEEP', quantity: 1, buyername: '窗口', buyerphone: '13800000000' },
};

/**
 * Valid bodies carrying the credential: generated with the credential field fixed (its format,
 * e.g. an entry token's, is one the walker cannot invent), else the sweep's usual bodies with it set.
 */
async function bodiesWith(w: World, name: string, kind: Kind, value: string): Promise<Record<string, unknown>[]> {
  if (kind === 'respondent') return (await bodiesFor(w, name, 2, 'window')) as Record<string, unknown>[];
  const input = defOf(name).input as unknown as { extend?: (s: Record<string, z.ZodType>) => z.ZodType };
  const fixed = input.extend?.({ [kind]: z.literal(value) });
  const made = fixed
    ? (validSamples(fixed, seedFor(SWEEP_SEED, `${name}window`), 2, { optional: 'omit', nasty: false }) as Record<string, unknown>[])
    : [];
  if (made.length) return made;
  if (WINDOW_EXAMPLES[name]) return [{ ...WINDOW_EXAMPLES[name], [kind]: value }];
  const usual = (await bodiesFor(w, name, 2, 'window')) as Record<string, unknown>[];
  return (usual.length ? usual : [{}]).map((b) => ({ ...b, [kind]: value }));
}

interface Closed {
  label: string;
  value: string;
  /** The refusal's sentence; null where the closed credential simply no longer exists (a reset link). */
  msg: RegExp | null;
}

describe.each(engines())('window sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  const closed: Record<Kind, Closed[]> = { respondent: [], assesscode: [], taskcode: [], entrytoken: [] };

  beforeAll(async () => {
    w = await startWorld(engine);
    const db = w.s.database.db;
    const school = await w.token('A');
    const provider = await w.token('P');
    const ok = async (p: Promise<{ errorCode?: number; errorMsg?: string; data?: unknown }>) => {
      const a = await p;
      if (a.errorCode !== 0) throw new Error(`window sweep setup: ${a.errorCode} ${a.errorMsg}`);
      return a.data as Record<string, any>;
    };
    const open = async (assesscode: string) => (await ok(w.call('as.c.exam.start', { assesscode }))).token as string;

    // A task of A, running: one student's token opened now, another's code left unopened; then it ends.
    const t = await classTask(w.s, school, {
      窗口班: [
        ['W001', '窗口一', '02'],
        ['W002', '窗口二', '01'],
      ],
    });
    const taskToken = await open(t.codes['窗口班']!['W001']!);
    const now = w.s.clock.now().getTime();
    await db
      .update(task)
      .set({ startat: new Date(now - 2 * 3_600_000), endat: new Date(now - 3_600_000) })
      .where(eq(task.taskid, t.taskid));
    const ended = /^测评任务「测评任务\d+」已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 结束$/;

    // A code of P's plan authorised to A: one opened, one not; then the authorisation ends.
    const { plancode } = await ok(
      w.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '窗口授权计划', formcodes: ['GAD7'] }, provider),
    );
    const { authid } = await ok(
      w.call(
        'as.m.exam.plan.authorizePlan',
        { plancode, musercode: 'I0001', count: 10, startdate: testDay(-1), enddate: testDay(1) },
        provider,
      ),
    );
    const authCode = async (realname: string) => {
      const { cusercode } = await ok(w.call('as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '02' }, school));
      return (await ok(w.call('as.m.user.insertCUserAssessCode', { cusercode, plancode }, school))).assesscode as string;
    };
    const authToken = await open(await authCode('授权一'));
    const authUnopened = await authCode('授权二');
    await db
      .update(planAuthorize)
      .set({ startdate: testDay(-3), enddate: testDay(-1) })
      .where(eq(planAuthorize.authid, authid));
    const authEnded = /^计划「窗口授权计划」的授权已于 \d{4}-\d{2}-\d{2} 结束，请联系机构$/;

    // A's entry link, then reset: the old link's validity has ended.
    const { qrcodeurl } = await ok(w.call('as.m.user.resetQrCode', { musercode: 'I0001' }, provider));
    const oldLink = String(qrcodeurl).split('/r/')[1]!;
    await ok(w.call('as.m.user.resetQrCode', { musercode: 'I0001' }, provider));

    closed.respondent.push(
      { label: 'token of an ended task', value: taskToken, msg: ended },
      { label: 'token of an ended authorisation', value: authToken, msg: authEnded },
    );
    closed.assesscode.push(
      { label: 'code of an ended task', value: t.codes['窗口班']!['W002']!, msg: ended },
      { label: 'code of an ended authorisation', value: authUnopened, msg: authEnded },
    );
    closed.taskcode.push({ label: 'code of an ended task', value: t.taskcode, msg: ended });
    closed.entrytoken.push({ label: 'a reset link', value: oldLink, msg: null });
  });
  afterAll(async () => {
    publish('window', engine, tally);
    await w?.close();
  });

  it('every as.c.* action acts for a code, a task or a link, or is listed with the reason it has no window', () => {
    const unlisted = respondentActions().filter((n) => !credentialOf(n) && !NO_WINDOW[n]);
    expect(unlisted, 'add the action to NO_WINDOW in window.sweep.test.ts with the reason, or give it a credential field').toEqual([]);
    const stale = Object.keys(NO_WINDOW).filter((n) => !respondentActions().includes(n) || credentialOf(n));
    expect(stale, 'NO_WINDOW names an action that is gone or now has a credential').toEqual([]);
  });

  it.each(respondentActions().filter((n) => credentialOf(n)))('%s', async (name) => {
    const kind = credentialOf(name)!;
    const failures: string[] = [];
    let bodies = 0;
    for (const c of closed[kind]) {
      for (const body of await bodiesWith(w, name, kind, c.value)) {
        if (!defOf(name).input.safeParse(body).success) {
          failures.push(`${c.label}: no valid body with the credential could be made; add one to examples.ts`);
          continue;
        }
        const before = await fingerprint(w.s.database.db);
        const a = await w.call(name, body, kind === 'respondent' ? c.value : undefined);
        bodies++;
        const where = `${c.label}, body ${a.sent.slice(0, 160)}`;
        if (a.errorCode === 0) failures.push(`${where}: answered (${JSON.stringify(a.data).slice(0, 120)})`);
        else if (c.msg && !c.msg.test(a.errorMsg ?? ''))
          failures.push(`${where}: refused, but not by the window: ${a.errorCode} “${a.errorMsg}”`);
        for (const p of answerProblems(a)) failures.push(`${where}: ${p}`);
        const changed = changedTables(before, await fingerprint(w.s.database.db));
        if (changed.length) failures.push(`${where}: changed ${changed.join(', ')}`);
      }
    }
    count(tally, name, { failures, bodies });
    expect(failures).toEqual([]);
  });
});
