import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { actionPath, allMenuCodes, catalogue, populationApps, type EntityName } from '@xinli/contract';
import { muser, muserPermission } from '../../domains/accounts/tables.js';
import { muserApp } from '../../domains/apps/tables.js';
import { role, roleMenu, sysuser, sysuserRole } from '../../domains/system/tables.js';
import { md5Upper } from '../../domains/auth/passwords.js';
import { hashToken } from '../../domains/auth/sessions.js';
import { secondFactorPolicy, session } from '../../domains/auth/tables.js';
import { DEMO_PASSWORD, startTestServer, type Engine, type TestServer } from '../harness.js';
import type { HandlerMap } from '../../http/handlers.js';
import { entities } from './entities.js';
import { writeMark } from './fingerprint.js';
import { notObjectIds } from './reviewed.js';

/**
 * The sweep's world: the demo data plus a second provider with one institution, every account
 * holding every permission code and every app, so that only the rule under test can refuse.
 *
 *   P0001 provider ─┬─ I0001 school   ("A": the caller of the sibling checks)
 *                   ├─ I0002 hospital ("B": A's sibling, same shape of data)
 *                   └─ I0003 eldercare
 *   P9002 provider ─── I9002 institution ("X": outside P0001)
 *   I9009 sentinel: signs in after every hostile batch to prove the server still answers.
 *   M0000 super account (admin).
 */
export const WORLD = {
  admin: { username: 'admin', musercode: 'M0000' },
  A: { username: 'school', musercode: 'I0001' },
  B: { username: 'hospital', musercode: 'I0002' },
  P: { username: 'provider', musercode: 'P0001' },
  Q: { username: 'sweepprovider', musercode: 'P9002' },
  X: { username: 'sweepinst', musercode: 'I9002' },
  sentinel: { username: 'sweepsentinel', musercode: 'I9009' },
} as const;
export type Who = keyof typeof WORLD;

/** Institutions whose data each caller may see (what resolveScope should answer). */
export const SCOPE: Record<Who, string[] | 'all'> = {
  admin: 'all',
  A: ['I0001'],
  B: ['I0002'],
  P: ['P0001', 'I0001', 'I0002', 'I0003'],
  Q: ['P9002', 'I9002'],
  X: ['I9002'],
  sentinel: ['I9009'],
};

export interface Answer {
  status: number;
  errorCode?: number;
  errorMsg?: string;
  data?: unknown;
  /** Download answers: the file body and its type. */
  file?: Buffer;
  contentType: string;
  /** The request body as sent, for messages. */
  sent: string;
}

export interface World {
  s: TestServer;
  engine: Engine;
  /** The account's token, signing in when there is none (heal drops tokens that stopped working). */
  token(who: Who): Promise<string>;
  /** Drops a token an answer showed to be dead (110000). */
  forget(who: Who): void;
  call(name: string, body: unknown, token?: string): Promise<Answer>;
  /** Puts the callers back as they were (password, state, codes, apps) after calls that changed them. */
  heal(): Promise<void>;
  /** Ids of every owned entity for an institution (creating the objects when missing). */
  idsOf(musercode: string): Promise<Partial<Record<EntityName, string>>>;
  sharedIds(): Promise<Partial<Record<EntityName, string>>>;
  /** Real values of the reference fields (reviewed.ts), by field name. */
  refs(): Promise<Record<string, string>>;
  /** A signed-in staff user of A (or of another account of the world) whose role holds exactly these codes. */
  staffWith(codes: string[], musercode?: string): Promise<{ userid: string; token: string }>;
  close(): Promise<void>;
}

const CALLERS: Who[] = ['admin', 'A', 'B', 'P', 'Q', 'X', 'sentinel'];

export async function startWorld(engine: Engine, opts: { handlers?: HandlerMap } = {}): Promise<World> {
  const s = await startTestServer(engine, {
    handlers: opts.handlers,
    // The sweep signs in often from one address; lockout and rate limits have their own tests.
    // No Chromium: hundreds of swept PDF calls would print for minutes, and the PDF actions check
    // scope and filters before they need the browser (reports/document tests print real PDFs).
    config: {
      loginPerMinutePerAddress: 1_000_000,
      lockoutFailures: 1_000_000,
      codeFailuresPerAddress: 1_000_000,
      linkEntriesPerAddressPerHour: 1_000_000,
      linkEntriesPerLinkPerHour: 1_000_000,
      chromiumPath: '/nonexistent/chromium',
    },
  });
  const db = s.database.db;
  const [adminRow] = await db.select().from(muser).where(eq(muser.musercode, 'M0000'));
  const pwdhash = adminRow!.pwdhash;
  await db.insert(muser).values([
    { musercode: 'P9002', username: 'sweepprovider', musertype: '005', insname: 'sweep provider', pwdhash },
    { musercode: 'I9002', username: 'sweepinst', musertype: '001', insname: 'sweep institution', parentcode: 'P9002', pwdhash },
    { musercode: 'I9009', username: 'sweepsentinel', musertype: '001', insname: 'sweep sentinel', pwdhash },
  ]);
  const callerCodes = CALLERS.map((w) => WORLD[w].musercode);
  const snapshot = await db.select().from(muser).where(inArray(muser.musercode, callerCodes));
  const codes = allMenuCodes();

  const tokens = new Map<Who, string>();
  let staffCounter = 1;
  /** Staff users by the codes they hold: actions that share codes share the user. */
  const staff = new Map<string, { userid: string; token: string }>();
  let refs: Record<string, string> | undefined;
  let shared: Partial<Record<EntityName, string>> | undefined;
  /** What idsOf made, valid while the database holds the write mark taken after the making. */
  const made = { mark: '', ids: new Map<string, Partial<Record<EntityName, string>>>() };
  const call: World['call'] = async (name, body, token) => {
    const sent = JSON.stringify(body) ?? 'null';
    const res = await s.app.inject({
      method: 'POST',
      url: actionPath(name),
      payload: sent,
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    });
    const contentType = String(res.headers['content-type'] ?? '');
    if (contentType.startsWith('application/json')) {
      const env = res.json() as { errorCode: number; errorMsg: string; data: unknown };
      return { status: res.statusCode, errorCode: env.errorCode, errorMsg: env.errorMsg, data: env.data, contentType, sent };
    }
    return { status: res.statusCode, file: res.rawPayload, contentType, sent };
  };

  const signIn = async (who: Who, lifted = false): Promise<string> => {
    const res = await call('as.m.user.login', { username: WORLD[who].username, pwd: md5Upper(DEMO_PASSWORD) });
    if (res.errorCode !== 0) throw new Error(`sweep sign-in of ${who} failed: ${res.errorCode} ${res.errorMsg}`);
    const token = (res.data as { token?: string }).token;
    // A second-factor challenge instead: a policy set by the action under test (which also ended
    // the password-only sessions it covers) asks for a code. Lift it, as heal does, and sign in again.
    if (!token && !lifted) {
      await db.delete(secondFactorPolicy);
      return signIn(who, true);
    }
    if (!token) throw new Error(`sweep sign-in of ${who} answered no token: ${JSON.stringify(res.data)}`);
    tokens.set(who, token);
    return token;
  };

  const world: World = {
    s,
    engine,
    async token(who) {
      return tokens.get(who) ?? signIn(who);
    },
    forget(who) {
      tokens.delete(who);
    },
    call,
    async heal() {
      // A second-factor policy set by an action under test would make the world's sign-ins ask for codes.
      await db.delete(secondFactorPolicy);
      // Repairs only what differs: most actions change none of it.
      const now = await db.select().from(muser).where(inArray(muser.musercode, callerCodes));
      for (const row of snapshot) {
        const { musercode, pwdhash: hash, enabled, parentcode, musertype, issuper } = row;
        const cur = now.find((r) => r.musercode === musercode);
        if (
          cur &&
          cur.pwdhash === hash &&
          cur.enabled === enabled &&
          cur.parentcode === parentcode &&
          cur.musertype === musertype &&
          cur.issuper === issuper
        )
          continue;
        await db.update(muser).set({ pwdhash: hash, enabled, parentcode, musertype, issuper }).where(eq(muser.musercode, musercode));
      }
      const rows = snapshot.filter((r) => !r.issuper);
      const [perms] = await db
        .select({ n: count() })
        .from(muserPermission)
        .where(
          and(
            inArray(
              muserPermission.musercode,
              rows.map((r) => r.musercode),
            ),
            inArray(muserPermission.code, codes),
          ),
        );
      if (Number(perms?.n) < rows.length * codes.length) {
        await db
          .insert(muserPermission)
          .values(rows.flatMap((r) => codes.map((code) => ({ musercode: r.musercode, code }))))
          .onConflictDoNothing();
      }
      const [apps] = await db
        .select({ n: count() })
        .from(muserApp)
        .where(
          inArray(
            muserApp.musercode,
            rows.map((r) => r.musercode),
          ),
        );
      if (Number(apps?.n) < rows.length * populationApps.length) {
        await db
          .insert(muserApp)
          .values(rows.flatMap((r) => populationApps.map((a) => ({ musercode: r.musercode, appid: a.appid }))))
          .onConflictDoNothing();
      }
      // Sessions ended by an action under test (logout, password change) are dropped.
      const held = [...tokens].map(([who, token]) => ({ who, hash: hashToken(token) }));
      if (held.length) {
        const live = await db
          .select({ h: session.tokenhash })
          .from(session)
          .where(
            and(
              inArray(
                session.tokenhash,
                held.map((x) => x.hash),
              ),
              isNull(session.revokedat),
            ),
          );
        const alive = new Set(live.map((x) => x.h));
        for (const { who, hash } of held) if (!alive.has(hash)) tokens.delete(who);
      }
    },
    async idsOf(musercode) {
      // Making every fixture is 27 statements, and the sweeps ask before every body: what was
      // made stays valid while nothing has written since (the mark taken after the last making).
      const mark = await writeMark(db);
      if (mark !== made.mark) made.ids.clear();
      const known = made.ids.get(musercode);
      if (known) return known;
      const out: Partial<Record<EntityName, string>> = {};
      for (const [name, fixture] of Object.entries(entities)) {
        if (fixture.kind === 'owned') out[name as EntityName] = await fixture.make(db, musercode);
      }
      // One institution's making leaves the others' objects as they were.
      made.ids.set(musercode, out);
      made.mark = await writeMark(db);
      return out;
    },
    async sharedIds() {
      if (shared) return shared;
      shared = {};
      for (const [name, fixture] of Object.entries(entities)) {
        if (fixture.kind === 'shared') shared[name as EntityName] = await fixture.make(db);
      }
      return shared;
    },
    // Reference data does not change during a run: both are read once.
    async refs() {
      if (refs) return refs;
      refs = {};
      for (const [field, ref] of Object.entries(notObjectIds)) if (ref.value) refs[field] = await ref.value(db);
      return refs;
    },
    async staffWith(held, musercode = 'I0001') {
      const key = `${musercode === 'I0001' ? '' : `${musercode}:`}${held.slice().sort().join(',')}`;
      const known = staff.get(key);
      if (known && (await call('as.m.system.ping', {}, known.token)).errorCode === 0) return known;
      const suffix = staffCounter++;
      const roleid = `swperm${suffix}`;
      const userid = `swpermU${suffix}`;
      const sysusername = `swperm${suffix}`;
      await db
        .insert(role)
        .values({ roleid, musercode, rolename: `sweep ${suffix} ${key.slice(0, 20)}`, rolekey: `sweep${suffix}` });
      if (held.length) await db.insert(roleMenu).values(held.map((code) => ({ roleid, code })));
      await db.insert(sysuser).values({ userid, musercode, sysusername, pwdhash, realname: 'sweep staff' });
      await db.insert(sysuserRole).values({ userid, roleid });
      const res = await call('as.m.user.login', { username: sysusername, pwd: md5Upper(DEMO_PASSWORD) });
      if (res.errorCode !== 0) throw new Error(`sweep staff sign-in failed: ${res.errorCode} ${res.errorMsg}`);
      const made = { userid, token: (res.data as { token: string }).token };
      staff.set(key, made);
      return made;
    },
    close: () => s.close(),
  };
  await world.heal();
  // The same shape of data for every institution of the world.
  for (const who of ['A', 'B', 'P', 'Q', 'X'] as Who[]) await world.idsOf(WORLD[who].musercode);
  return world;
}

/** Every action of the catalogue, in a stable order. */
export const allActions = () => Object.keys(catalogue).sort();
