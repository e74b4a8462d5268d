import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { action, codes, idString, type ActionDef } from '@xinli/contract';
import { handlers } from '../../domains/index.js';
import { muserPermission } from '../../domains/accounts/tables.js';
import { muserApp } from '../../domains/apps/tables.js';
import { AppError } from '../../http/errors.js';
import type { HandlerMap } from '../../http/handlers.js';
import { engines } from '../harness.js';
import { randomBytes } from 'node:crypto';
import { dept, roleMenu } from '../../domains/system/tables.js';
import { PERSPECTIVES, codesFromStringsCheck, hostileCheck, looseObjects, parallelCreateCheck, tenantCheck } from './checks.js';
import { writeMark } from './fingerprint.js';
import { metadataProblems } from './metadata.js';
import { startWorld, type World } from './world.js';

/**
 * The sweeps must be able to fail: broken handlers are planted in a server of their own, and
 * each sweep is shown to catch its kind of break.
 */
const planted: HandlerMap = {
  ...handlers,
  // Reads any account's codes: skips its scope check.
  'as.m.permissions.getAllPermissions': async ({ musercode }, ctx) => {
    const rows = await ctx.db.select({ code: muserPermission.code }).from(muserPermission).where(eq(muserPermission.musercode, musercode));
    return { granted: rows.map((r) => r.code), grantable: [] };
  },
  // Replaces any account's apps: a write that skips its scope check.
  'as.m.app.muser.insertMUserApp': async ({ musercode, appids }, ctx) => {
    await ctx.db.delete(muserApp).where(eq(muserApp.musercode, musercode));
    if (appids.length) await ctx.db.insert(muserApp).values(appids.map((appid) => ({ musercode, appid })));
    return null;
  },
  // A list that answers another institution's row.
  'as.m.app.getAppList': async () => [{ appid: '000000001', appname: 'x', scenecode: '', iconurl: '', musercode: 'I0002' } as never],
  // Reads a code out of a caller-chosen string: a remark that looks like a code is granted.
  'as.m.system.role.updateRole': async (input, ctx) => {
    const out = await handlers['as.m.system.role.updateRole']!(input, ctx);
    if (input.remark && /^[0-9]{5,10}$/.test(input.remark)) await ctx.db.insert(roleMenu).values({ roleid: input.roleid, code: input.remark }).onConflictDoNothing();
    return out;
  },
  // Ignores the uniqueness rule: every create gets a name of its own, so no index stops it.
  'as.m.system.dept.insertDept': async ({ musercode, parentid, deptname }, ctx) => {
    const deptid = `D${randomBytes(6).toString('hex').toUpperCase()}`;
    await ctx.db.insert(dept).values({ deptid, musercode: musercode ?? ctx.me.musercode, parentid: parentid ?? null, deptname: `${deptname} ${deptid}` });
    return { deptid };
  },
  // A handler that throws.
  'as.m.system.ping': async () => {
    throw new Error('boom');
  },
  // A handler whose message leaks SQL and a file path.
  'as.m.system.menu.selectMenuList': async () => {
    throw new AppError('validation', {
      zh: 'relation "muser" does not exist at /srv/app/src/db.ts:12',
      en: 'relation "muser" does not exist at /srv/app/src/db.ts:12',
    });
  },
};

describe.each(engines())('the sweeps catch planted breaks on %s', (engine) => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld(engine, { handlers: planted });
  });
  afterAll(() => w?.close());

  it('a read that skips its scope answers another institution’s object', async () => {
    const { failures } = await tenantCheck(w, 'as.m.permissions.getAllPermissions', PERSPECTIVES[0]!);
    expect(failures.join('\n')).toMatch(/foreign musercode: HTTP 200 errorCode 0 .*expected not found/);
  });

  it('a write that skips its scope changes another institution’s rows', async () => {
    const { failures } = await tenantCheck(w, 'as.m.app.muser.insertMUserApp', PERSPECTIVES[1]!);
    expect(failures.join('\n')).toMatch(/changed muser_app|errorCode 0 .*expected not found/);
  });

  it('a list that answers another institution’s rows', async () => {
    const { failures } = await tenantCheck(w, 'as.m.app.getAppList', PERSPECTIVES[0]!);
    expect(failures.join('\n')).toMatch(/row of I0002, outside the caller's institutions/);
  });

  it('a handler that throws answers 5xx to hostile bodies', async () => {
    const { failures } = await hostileCheck(w, 'as.m.system.ping', 5);
    expect(failures.join('\n')).toMatch(/HTTP 500.*SWEEP_SEED=/);
  });

  it('a string that becomes a code changes its holder’s codes', async () => {
    const { failures } = await codesFromStringsCheck(w, 'as.m.system.role.updateRole');
    expect(failures.join('\n')).toMatch(/remark = "000313" .*changed the codes of swcodesU: \[00018\] → \[00018,000313\]/);
  });

  it('a create that ignores its uniqueness rule stores every parallel create', async () => {
    const { failures } = await parallelCreateCheck(w, 'as.m.system.dept.insertDept');
    expect(failures.join('\n')).toMatch(/12 parallel identical creates \(deptname = .*\): 12 succeeded, want exactly 1/);
  });

  it('the fixtures are made again after any write: an object a call deleted comes back', async () => {
    const db = w.s.database.db;
    const ids = await w.idsOf('I0001');
    const mark = await writeMark(db);
    // A write that leaves the content as it was still moves the mark.
    await db.update(dept).set({ deptname: sql`${dept.deptname}` }).where(eq(dept.deptid, ids.dept!));
    expect(await writeMark(db)).not.toBe(mark);
    await db.delete(dept).where(eq(dept.deptid, ids.dept!));
    expect(await w.idsOf('I0001')).toEqual(ids);
    expect(await db.select({ id: dept.deptid }).from(dept).where(eq(dept.deptid, ids.dept!))).toEqual([{ id: ids.dept }]);
  });

  it('a message with SQL text and a file path', async () => {
    const { failures } = await hostileCheck(w, 'as.m.system.menu.selectMenuList', 5);
    expect(failures.join('\n')).toMatch(/errorMsg contains SQL text.*errorMsg contains a file path/);
  });
});

describe('the metadata and schema checks catch planted gaps', () => {
  const base = { kind: 'json' as const, output: z.null(), summary: 'planted' };
  const fake: Record<string, ActionDef> = {
    'planted.open': action({ ...base, access: 'signedIn', op: 'read', input: z.strictObject({}) }),
    'planted.noFixture': action({
      ...base,
      access: codes('00018'),
      op: 'read',
      input: z.strictObject({ warningid: idString }),
      ids: { warningid: 'warning' },
    }),
    'planted.undeclared': action({
      ...base,
      access: codes('00018'),
      op: 'write',
      input: z.strictObject({ rows: z.array(z.strictObject({ roleid: idString })) }),
    }),
    'planted.wrongField': action({ ...base, access: codes('99999'), op: 'read', input: z.strictObject({}), ids: { deptid: 'dept' } }),
    'planted.thing.insertThing': action({ ...base, access: codes('00018'), op: 'write', input: z.strictObject({ rolename: z.string(), remark: z.string() }) }),
    'planted.thing.insertOther': action({ ...base, access: codes('00018'), op: 'write', input: z.strictObject({ deptname: z.string() }), unique: ['deptname', 'nosuch'] }),
  };

  it('names every gap and the file to change', () => {
    const problems = metadataProblems(fake).join('\n');
    expect(problems).toContain('planted.open needs no permission code: add it with the reason to signedInActions');
    expect(problems).toContain(
      "planted.noFixture: ids uses entity 'warning', which has no fixture: add one entry for 'warning' to apps/server/src/test/sweep/entities.ts",
    );
    expect(problems).toContain('planted.undeclared: input field rows.roleid looks like an object id');
    expect(problems).toContain('planted.wrongField: ids names deptid, which is not a field of the input');
    expect(problems).toContain('planted.wrongField: permission code 99999 is not in the menu table');
    expect(problems).toContain('planted.thing.insertThing creates an entity with the unique field rolename: declare unique');
    expect(problems).toContain('planted.thing.insertOther: unique names nosuch, which is not a field of the input');
    // The reviewed lists name actions this fake catalogue lacks: stale entries are reported too.
    expect(problems).toContain('names as.m.user.login, which is not a public action of the catalogue');
  });

  it('finds input objects that pass unknown fields to the handler', () => {
    expect(looseObjects(z.strictObject({ a: z.string(), rows: z.array(z.looseObject({ b: z.string() })) }))).toEqual([
      'input.rows[] keeps unknown fields (catchall unknown)',
    ]);
    expect(looseObjects(z.strictObject({ a: z.object({ b: z.string() }) }))).toEqual([]);
  });
});
