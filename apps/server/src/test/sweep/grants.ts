import { eq } from 'drizzle-orm';
import { ErrorCode, allMenuCodes, catalogue, type ActionDef, type EntityName } from '@xinli/contract';
import { muser } from '../../domains/accounts/tables.js';
import { role, roleMenu, sysuser, sysuserRole } from '../../domains/system/tables.js';
import { md5Upper } from '../../domains/auth/passwords.js';
import { SWEEP_SEED, bodiesFor, resolvedCodes, setPath, withIds, type Outcome } from './checks.js';
import { seedFor, validSamples } from './arbitrary.js';
import { changedTables, fingerprint } from './fingerprint.js';
import { fieldPaths } from './metadata.js';
import { WORLD, type Answer, type World } from './world.js';

/**
 * The grants sweep (issue 27): every action that changes settings, grants, passwords or account
 * state (its contract's `changes`) is called
 * 1. by a staff user of provider P lacking its codes (the access codes, then each code of `needs`):
 *    refused with 100403, nothing changed;
 * 2. by a narrow caller (a staff user of P holding only what the action needs, and the login-as
 *    session that user opens into institution A) aimed at what holds more than it: a role of A
 *    giving every code, the staff user of A holding that role, account A itself; every code field
 *    asks for every code. Refused, or accepted without anyone gaining a code the caller lacks and
 *    without the password, state or existence of anything holding such a code changing.
 */

const defOf = (name: string) => (catalogue as Record<string, ActionDef>)[name]!;
const PASSWORD = md5Upper('Sweep-grants-9');
const STRONG = { roleid: 'swgrantR', userid: 'swgrantU' };
/** Code lists, role lists, passwords and states in inputs, by leaf field name: what a grant or takeover would set. */
const GRANT_VALUES: Record<string, () => unknown> = {
  codes: () => allMenuCodes(),
  permissions: () => allMenuCodes(),
  roleids: () => [STRONG.roleid],
  pwd: () => PASSWORD,
  // The targets are enabled: 0 is the value that changes their state.
  enabled: () => 0,
};

const describeAnswer = (a: Answer) => (a.file ? `HTTP ${a.status} file` : `errorCode ${a.errorCode} “${(a.errorMsg ?? '').slice(0, 120)}”`);

/** A role of A that gives every code, and a staff user of A holding it; put back as they were before every call. */
async function strongTargets(w: World) {
  const db = w.s.database.db;
  const [template] = await db.select({ pwdhash: muser.pwdhash }).from(muser).where(eq(muser.musercode, WORLD.A.musercode));
  await db
    .insert(role)
    .values({ ...STRONG, musercode: WORLD.A.musercode, rolename: 'sweep grants strong', rolekey: 'sweepgrants' })
    .onConflictDoUpdate({ target: role.roleid, set: { enabled: 1, rolekey: 'sweepgrants' } });
  await db.delete(roleMenu).where(eq(roleMenu.roleid, STRONG.roleid));
  await db.insert(roleMenu).values(allMenuCodes().map((code) => ({ roleid: STRONG.roleid, code })));
  await db
    .insert(sysuser)
    .values({ userid: STRONG.userid, musercode: WORLD.A.musercode, sysusername: 'swgrantstrong', pwdhash: template!.pwdhash, realname: 'sweep strong' })
    .onConflictDoUpdate({ target: sysuser.userid, set: { enabled: 1, pwdhash: template!.pwdhash } });
  await db.insert(sysuserRole).values({ userid: STRONG.userid, roleid: STRONG.roleid }).onConflictDoNothing();
}

/** A body aimed at A's strongest objects, with every grant field asking for everything. */
async function aimedBodies(w: World, name: string, n: number): Promise<Record<string, unknown>[]> {
  const def = defOf(name);
  const own = await w.idsOf(WORLD.A.musercode);
  const shared = await w.sharedIds();
  const refs = await w.refs();
  const pick = (_path: string, e: EntityName) => (e === 'role' ? STRONG.roleid : e === 'sysuser' ? STRONG.userid : (own[e] ?? shared[e]));
  const grantPaths = fieldPaths(def.input).filter((p) => p.split('.').pop()! in GRANT_VALUES);
  // The hand-written example and the smallest body first, then plain generated ones (no hostile strings:
  // this sweep is about who may do what, and the hostile sweep has those).
  const plain = validSamples(def.input, seedFor(SWEEP_SEED, `${name}grants`), n, { optional: 'random', nasty: false });
  const samples = [...(await bodiesFor(w, name, 2, 'grants')), ...plain].slice(0, n);
  return samples.map((sample) => {
    const body = withIds(sample, def, pick, Object.keys(def.ids ?? {}), refs);
    for (const path of grantPaths) {
      const value = GRANT_VALUES[path.split('.').pop()!]!();
      // setPath wraps a value for an array field; a top-level list is set as it is.
      if (path.includes('.')) setPath(body, path, value, def.input, true);
      else body[path] = value;
    }
    return body;
  });
}

/** Sign-in secrets and state of every account and staff user, by id. */
async function credentials(w: World): Promise<Map<string, string>> {
  const db = w.s.database.db;
  const accounts = await db.select({ id: muser.musercode, h: muser.pwdhash, e: muser.enabled }).from(muser);
  const users = await db.select({ id: sysuser.userid, h: sysuser.pwdhash, e: sysuser.enabled }).from(sysuser);
  return new Map([...accounts, ...users].map((r) => [r.id, `${r.h}|${r.e}`]));
}

const roleCodes = async (w: World) => new Set((await w.s.database.db.select().from(roleMenu)).map((r) => `${r.roleid}:${r.code}`));

/** 1. A staff user of P holding every code but the action's (or but one of its `needs`) is refused and changes nothing. */
async function withoutItsCodes(w: World, name: string): Promise<Outcome> {
  const def = defOf(name);
  const groups = [...(typeof def.access === 'object' ? [def.access.codes] : []), ...(def.needs ?? []).map((c) => [c])];
  const failures: string[] = [];
  for (const lacking of groups) {
    await w.heal();
    await strongTargets(w);
    const staff = await w.staffWith(
      allMenuCodes().filter((c) => !lacking.includes(c)),
      WORLD.P.musercode,
    );
    const [body] = await aimedBodies(w, name, 1);
    const before = await fingerprint(w.s.database.db);
    const a = await w.call(name, body, staff.token);
    const changed = changedTables(before, await fingerprint(w.s.database.db));
    if (a.errorCode !== ErrorCode.permissionDenied) failures.push(`staff of P without ${lacking.join('/')}: ${describeAnswer(a)}, expected ${ErrorCode.permissionDenied} (body ${a.sent.slice(0, 200)})`);
    if (changed.length) failures.push(`staff of P without ${lacking.join('/')}: the refused call changed ${changed.join(', ')}`);
  }
  return { failures, bodies: groups.length };
}

/** 2. A narrow caller aimed at what holds more than it obtains nothing it does not hold. */
async function beyondTheCaller(w: World, name: string): Promise<Outcome> {
  const def = defOf(name);
  const db = w.s.database.db;
  const held = [...new Set([...(typeof def.access === 'object' ? def.access.codes : []), ...(def.needs ?? []), '00021'])];
  const holds = new Set(held);
  const failures: string[] = [];
  let bodies = 0;
  let conclusive = false;
  const refusals: string[] = [];
  for (const body of await aimedBodies(w, name, 3)) {
    await w.heal();
    await strongTargets(w);
    const staff = await w.staffWith(held, WORLD.P.musercode);
    const as = await w.call('as.m.user.loginAs', { musercode: WORLD.A.musercode }, staff.token);
    const callers: [string, string][] = [[`staff of P holding ${held.join(',')}`, staff.token]];
    if (as.errorCode === 0) callers.push([`its login-as session into A`, (as.data as { token: string }).token]);
    for (const [who, token] of callers) {
      await strongTargets(w);
      const codesBefore = await resolvedCodes(db);
      const credsBefore = await credentials(w);
      const rolesBefore = await roleCodes(w);
      const before = await fingerprint(db);
      const a = await w.call(name, body, token);
      bodies += 1;
      const what = `${who}: ${describeAnswer(a)} (body ${a.sent.slice(0, 200)})`;
      if (a.errorCode === ErrorCode.permissionDenied || a.errorCode === 0) conclusive = true;
      if (a.errorCode !== 0) {
        refusals.push(what);
        const changed = changedTables(before, await fingerprint(db));
        if (changed.length) failures.push(`${what}: refused but changed ${changed.join(', ')}`);
        continue;
      }
      // Accepted: nobody gained a code the caller lacks; nothing holding such a code changed its sign-in or state.
      const codesAfter = await resolvedCodes(db);
      for (const [id, list] of codesAfter) {
        const had = new Set((codesBefore.get(id) ?? '').split(',').filter(Boolean));
        const gained = list.split(',').filter((c) => c && !had.has(c) && !holds.has(c));
        if (gained.length) failures.push(`${what}: ${id} gained ${gained.join(',')}, which the caller does not hold`);
      }
      for (const entry of await roleCodes(w)) {
        const code = entry.split(':')[1]!;
        if (!rolesBefore.has(entry) && !holds.has(code)) failures.push(`${what}: role ${entry.split(':')[0]} was given ${code}, which the caller does not hold`);
      }
      const credsAfter = await credentials(w);
      for (const [id, cred] of credsBefore) {
        if (credsAfter.get(id) === cred) continue;
        const beyond = (codesBefore.get(id) ?? '').split(',').filter((c) => c && !holds.has(c));
        if (beyond.length) failures.push(`${what}: changed the password, state or existence of ${id}, which holds ${beyond.slice(0, 5).join(',')}… beyond the caller`);
      }
      const granted = (a.data as { permissions?: { component: string }[] } | null)?.permissions;
      const beyondSession = (granted ?? []).map((p) => p.component).filter((c) => !holds.has(c));
      if (beyondSession.length) failures.push(`${what}: answered a session holding ${beyondSession.join(',')}, which the caller does not hold`);
    }
    if (conclusive) break;
  }
  // A settings action gives nothing to anyone: its refusals elsewhere (an entry that exists) are no gap.
  if (!conclusive && def.changes !== 'settings') failures.push(`no body reached the action's own checks (every call was refused for another reason: ${refusals.slice(-2).join('; ')}): add a body to examples.ts`);
  return { failures: [...new Set(failures)], bodies };
}

export async function grantsCheck(w: World, name: string): Promise<Outcome> {
  if (!defOf(name).changes) return { failures: [], bodies: 0 };
  const a = await withoutItsCodes(w, name);
  const b = await beyondTheCaller(w, name);
  await w.heal();
  return { failures: [...a.failures, ...b.failures], bodies: a.bodies + b.bodies };
}
