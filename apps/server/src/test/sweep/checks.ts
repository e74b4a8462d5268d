import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { and, count, eq } from 'drizzle-orm';
import { ErrorCode, allMenuCodes, catalogue, type ActionDef, type EntityName } from '@xinli/contract';
import type { Db } from '../../db/database.js';
import { auditLog } from '../../domains/audit/tables.js';
import { muser } from '../../domains/accounts/tables.js';
import { role, roleMenu, sysuser, sysuserRole } from '../../domains/system/tables.js';
import { resolveGrants } from '../../domains/auth/permissions.js';
import { md5Upper } from '../../domains/auth/passwords.js';
import { DEMO_PASSWORD } from '../harness.js';
import { hostileOf, seedFor, shapeOf, unwrap, validSamples } from './arbitrary.js';
import { entities } from './entities.js';
import { changedTables, fingerprint, ownershipPrint, rowCounts } from './fingerprint.js';
import { examples } from './examples.js';
import { massAssignmentFields, notObjectIds } from './reviewed.js';
import { SCOPE, WORLD, type Answer, type Who, type World } from './world.js';

/** Base seed of every generated body: SWEEP_SEED=<n> reproduces a run, SWEEP_SEED=random explores. */
export const SWEEP_SEED = (() => {
  const raw = process.env.SWEEP_SEED;
  if (raw === 'random') return (Math.random() * 2 ** 31) | 0;
  return raw && Number.isFinite(Number(raw)) ? Number(raw) | 0 : 20261121;
})();
/** Hostile bodies per action and caller mix; SWEEP_RUNS raises it for a deeper run. */
export const SWEEP_RUNS = Math.max(1, Number(process.env.SWEEP_RUNS) || 30);

/** What one check of one action found. */
export interface Outcome {
  failures: string[];
  bodies: number;
}

const defOf = (name: string) => (catalogue as Record<string, ActionDef>)[name]!;
const short = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);
const describeAnswer = (a: Answer) =>
  a.file ? `HTTP ${a.status} file ${a.contentType}` : `HTTP ${a.status} errorCode ${a.errorCode} “${short(a.errorMsg ?? '', 120)}”`;

// ---------------------------------------------------------------------------------------------
// Bodies

/** The schema of an input field, following dotted paths through arrays; null when absent. */
export function fieldSchema(input: unknown, path: string): unknown {
  let current: unknown = input;
  for (const key of path.split('.')) {
    let def = unwrap(current);
    while (def.type === 'array') def = unwrap(def.element);
    if (def.type !== 'object' || !(key in def.shape)) return null;
    current = def.shape[key];
  }
  return current;
}

/** Sets a field at a dotted path in every array element on the way; `create` adds an element to empty arrays. */
export function setPath(body: Record<string, unknown>, path: string, value: unknown, input: unknown, create = false): void {
  const keys = path.split('.');
  const leaf = fieldSchema(input, path);
  const wrapped = leaf && unwrap(leaf).type === 'array' ? [value] : value;
  let targets: Record<string, unknown>[] = [body];
  for (const [i, key] of keys.slice(0, -1).entries()) {
    targets = targets.flatMap((t) => {
      const next = t[key];
      if (Array.isArray(next) && next.length === 0 && create) next.push({});
      if (Array.isArray(next)) return next.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object');
      if (next && typeof next === 'object') return [next as Record<string, unknown>];
      if (!create) return [];
      const element = {};
      t[key] = unwrap(fieldSchema(input, keys.slice(0, i + 1).join('.'))).type === 'array' ? [element] : element;
      return [element];
    });
  }
  for (const t of targets) t[keys[keys.length - 1]!] = wrapped;
}

/**
 * A copy of the body with id fields set: `force` fields always, other declared id fields only
 * where the sample has them (so optional ids are tried both present and absent).
 */
export function withIds(
  sample: unknown,
  def: ActionDef,
  pick: (path: string, entity: EntityName) => string | undefined,
  force: string[] = [],
  refs: Record<string, string> = {},
): Record<string, unknown> {
  const body = structuredClone((sample && typeof sample === 'object' ? sample : {}) as Record<string, unknown>);
  // Real reference values (an app, a category) so the body gets past those checks.
  for (const [field, value] of Object.entries(refs))
    if (field in body && !(field in (def.ids ?? {}))) setPath(body, field, value, def.input);
  for (const [path, entity] of Object.entries(def.ids ?? {})) {
    const top = path.split('.')[0]!;
    if (!force.includes(path) && !(top in body)) continue;
    const value = pick(path, entity);
    if (value !== undefined) setPath(body, path, value, def.input, force.includes(path));
  }
  return body;
}

/** Valid bodies of an action (deterministic per action, seed and salt). */
export function samplesOf(name: string, n: number, salt = ''): unknown[] {
  return validSamples(defOf(name).input, seedFor(SWEEP_SEED, name + salt), n);
}

/**
 * The bodies a check tries, best first: the hand-written example if the action has one, the
 * smallest valid body (required fields only), then generated ones.
 */
export async function bodiesFor(w: World, name: string, n: number, salt = ''): Promise<unknown[]> {
  const input = defOf(name).input;
  const example = examples[name] ? [await examples[name](w.s.database.db)] : [];
  const minimal = validSamples(input, seedFor(SWEEP_SEED, name + salt), 1, { optional: 'omit', nasty: false });
  return [...example, ...minimal, ...samplesOf(name, Math.max(0, n - example.length - minimal.length), salt)].slice(0, n);
}

/** Lets the list pages answer as many rows as they may. */
function widePage(body: Record<string, unknown>, def: ActionDef): Record<string, unknown> {
  const shape = shapeOf(def.input) ?? {};
  const out = { ...body };
  if ('page' in shape) out.page = 1;
  if ('pageSize' in shape) out.pageSize = 200;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Answers

const LEAK_PATTERNS: [string, RegExp][] = [
  ['a stack trace', /\n\s*at\s|\bat\s+[\w$.<>]+\s+\(|\b(Type|Reference|Range|Syntax)Error\b/],
  [
    'SQL text',
    /\bselect\b[\s\S]{0,200}\bfrom\b|\binsert\s+into\b|\bupdate\s+["\w]+\s+set\b|\bdelete\s+from\b|syntax error at or near|\brelation\s+"|\bcolumn\s+"|\bviolates\b|duplicate key|SQLSTATE|drizzle|pglite/i,
  ],
  ['a file path', /(?:\/[A-Za-z_.@-][\w.@-]*){2,}|[A-Za-z]:\\\w|\.(?:m?[jt]s|cjs)\b|node_modules/],
];

/** What is wrong with an answer to any body: a 5xx, an internal error, or a message that leaks internals. */
export function answerProblems(a: Answer): string[] {
  const out: string[] = [];
  if (a.status >= 500) out.push(`HTTP ${a.status}`);
  if (a.file) return out;
  if (typeof a.errorCode !== 'number' || typeof a.errorMsg !== 'string') return [...out, `not the envelope: ${a.contentType}`];
  if (a.errorCode === ErrorCode.internal && a.status < 500) out.push('internal error');
  for (const [label, pattern] of LEAK_PATTERNS) {
    const m = a.errorMsg.match(pattern);
    // A message may repeat what the caller sent (an unknown field's name); that reveals nothing.
    if (m && !a.sent.includes(m[0])) out.push(`errorMsg contains ${label}: “${short(a.errorMsg, 160)}”`);
  }
  return out;
}

async function leavesOf(a: Answer): Promise<{ key: string; value: string }[]> {
  const out: { key: string; value: string }[] = [];
  if (a.file) {
    if (a.contentType.includes('spreadsheet')) {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(a.file as never);
      book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => out.push({ key: '', value: String(cell.text ?? '') }))));
    } else {
      out.push({ key: '', value: a.file.toString('utf8') });
    }
    return out;
  }
  const walk = (v: unknown, key: string) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    else if (v !== null && v !== undefined) out.push({ key, value: String(v) });
  };
  walk(a.data, '');
  return out;
}

/** Rows or ids of institutions outside the caller's scope in an answer. */
export async function foreignRows(a: Answer, foreignIds: Set<string>, scope: string[] | 'all'): Promise<string[]> {
  const out = new Set<string>();
  for (const { key, value } of await leavesOf(a)) {
    if (foreignIds.has(value) || (!key && [...foreignIds].some((id) => value.includes(id))))
      out.add(`the answer holds ${value}, an id of another institution`);
    if (key === 'musercode' && value && scope !== 'all' && !scope.includes(value))
      out.add(`the answer holds a row of ${value}, outside the caller's institutions`);
  }
  return [...out];
}

// ---------------------------------------------------------------------------------------------
// 2. Authentication

export interface BadToken {
  label: string;
  token: string | undefined;
}

/** Without a working token, every non-public action answers 110000 and changes nothing. */
export async function authCheck(w: World, name: string, badTokens: BadToken[]): Promise<Outcome> {
  const def = defOf(name);
  if (def.access === 'public') return { failures: [], bodies: 0 };
  const own = await w.idsOf(WORLD.A.musercode);
  const shared = await w.sharedIds();
  const sample = (await bodiesFor(w, name, 1))[0] ?? {};
  const bodies = [withIds(sample, def, (_p, e) => own[e] ?? shared[e], [], await w.refs()), { x: "' OR 1=1 --", pageSize: -1 }];
  const failures: string[] = [];
  const before = await fingerprint(w.s.database.db);
  let tried = 0;
  for (const body of bodies) {
    for (const { label, token } of badTokens) {
      const a = await w.call(name, body, token);
      tried += 1;
      if (a.errorCode !== ErrorCode.identityInvalid) failures.push(`${label}: ${describeAnswer(a)}, expected 110000`);
    }
  }
  const changed = changedTables(before, await fingerprint(w.s.database.db));
  if (changed.length) failures.push(`calls without a working token changed ${changed.join(', ')}`);
  return { failures, bodies: tried };
}

// ---------------------------------------------------------------------------------------------
// 3. Permission

/** A staff user holding every code but the action's is refused, the refusal audited, nothing changed. */
export async function permissionCheck(w: World, name: string): Promise<Outcome> {
  const def = defOf(name);
  if (typeof def.access !== 'object') return { failures: [], bodies: 0 };
  const needs = def.access.codes;
  await w.heal();
  const staff = await w.staffWith(allMenuCodes().filter((c) => !needs.includes(c)));
  const own = await w.idsOf(WORLD.A.musercode);
  const shared = await w.sharedIds();
  const body = withIds((await bodiesFor(w, name, 1))[0] ?? {}, def, (_p, e) => own[e] ?? shared[e], [], await w.refs());
  const db = w.s.database.db;
  const denials = async () =>
    Number(
      (
        await db
          .select({ n: count() })
          .from(auditLog)
          .where(and(eq(auditLog.action, name), eq(auditLog.result, 'denied'), eq(auditLog.userid, staff.userid)))
      )[0]?.n,
    );
  const failures: string[] = [];
  const audited = await denials();
  const before = await fingerprint(db);
  const a = await w.call(name, body, staff.token);
  const changed = changedTables(before, await fingerprint(db));
  if (a.errorCode !== ErrorCode.permissionDenied)
    failures.push(`staff without ${needs.join('/')}: ${describeAnswer(a)}, expected ${ErrorCode.permissionDenied}`);
  if (changed.length) failures.push(`the refused call changed ${changed.join(', ')}`);
  if ((await denials()) !== audited + 1) failures.push('the refusal is not in the audit log');
  return { failures, bodies: 1 };
}

// ---------------------------------------------------------------------------------------------
// 4. Hostile input

/** Generated hostile bodies never get a 5xx or a leaking message, and a sign-in still works afterwards. */
export async function hostileCheck(w: World, name: string, runs = SWEEP_RUNS): Promise<Outcome> {
  const def = defOf(name);
  const seed = seedFor(SWEEP_SEED, name);
  let bodies = 0;
  const failures: string[] = [];
  await w.heal();
  const property = fc.asyncProperty(fc.constantFrom<Who>('admin', 'A'), hostileOf(def.input), async (who, body) => {
    bodies += 1;
    const token = def.access === 'public' ? undefined : await w.token(who);
    const a = await w.call(name, body, token);
    if (a.errorCode === ErrorCode.identityInvalid) w.forget(who);
    const problems = answerProblems(a);
    if (problems.length) throw new Error(problems.join('; '));
  });
  // No shrinking: each step is a request, and the first counterexample is readable enough.
  const result = await fc.check(property, { seed, numRuns: runs, endOnFailure: true });
  if (result.failed) {
    const [who, body] = (result.counterexample ?? []) as [Who, unknown];
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    failures.push(
      `${error} — caller ${who}, body ${short(JSON.stringify(body) ?? 'undefined', 300)}; reproduce with SWEEP_SEED=${SWEEP_SEED} (fast-check seed ${result.seed}, path ${result.counterexamplePath})`,
    );
  }
  await w.heal();
  const signIn = await w.call('as.m.user.login', { username: WORLD.sentinel.username, pwd: md5Upper(DEMO_PASSWORD) });
  if (signIn.errorCode !== 0) failures.push(`after the hostile bodies a sign-in answers ${describeAnswer(signIn)}`);
  return { failures, bodies };
}

// ---------------------------------------------------------------------------------------------
// 5. Tenant isolation

export interface Perspective {
  label: string;
  caller: Who;
  /** Institution whose objects the caller may use. */
  own: string;
  /** Institution outside the caller's scope. */
  foreign: string;
  /** A caller whose scope holds `foreign`: proves the foreign ids name real objects. */
  owner: Who;
}

export const PERSPECTIVES: Perspective[] = [
  { label: 'institution A with its sibling B’s ids', caller: 'A', own: WORLD.A.musercode, foreign: WORLD.B.musercode, owner: 'P' },
  {
    label: 'provider P0001 with the ids of X under another provider',
    caller: 'P',
    own: WORLD.B.musercode,
    foreign: WORLD.X.musercode,
    owner: 'Q',
  },
];

const ownedPaths = (def: ActionDef) =>
  Object.entries(def.ids ?? {})
    .filter(([, e]) => entities[e]?.kind === 'owned')
    .map(([p]) => p);

/**
 * Every id field set to another institution's object answers "not found" and changes nothing;
 * every answer the caller does get holds no row or id of institutions outside its scope.
 */
export async function tenantCheck(w: World, name: string, p: Perspective): Promise<Outcome> {
  const def = defOf(name);
  // Respondent actions take no staff token at all (110000 for every one); their isolation, one
  // respondent token against another's reports and forms, is tested in domains/exam.
  if (def.access === 'public' || def.access === 'respondent') return { failures: [], bodies: 0 };
  const db = w.s.database.db;
  const failures: string[] = [];
  let bodies = 0;
  const samples = await bodiesFor(w, name, 4, p.label);
  if (samples.length === 0)
    return { failures: [`no body generated from the input schema passes it; give the walker in arbitrary.ts what it misses`], bodies };

  const scope = SCOPE[p.caller];
  const shared = await w.sharedIds();
  // Fixture ids are fixed strings, so the set is computed once (idsOf also recreates deleted objects).
  const foreignIds = new Set(Object.values(await w.idsOf(p.foreign)));
  const call = async (who: Who, body: unknown) => {
    bodies += 1;
    const a = await w.call(name, body, await w.token(who));
    if (a.errorCode === ErrorCode.identityInvalid) w.forget(who);
    return a;
  };
  /** Answers the caller gets must hold nothing of the foreign institution. */
  const checkLeaks = async (a: Answer, what: string) => {
    if (a.errorCode !== 0 && !a.file) return;
    for (const leak of await foreignRows(a, foreignIds, scope)) failures.push(`${what}: ${leak}`);
  };

  const paths = ownedPaths(def);
  const refs = await w.refs();
  if (paths.length > 0) {
    let conclusive = false;
    let ownerMissed: string | undefined;
    for (const sample of samples) {
      await w.heal();
      const own = await w.idsOf(p.own);
      const foreign = await w.idsOf(p.foreign);
      const ownPick = (_path: string, e: EntityName) => own[e] ?? shared[e];
      // All id fields foreign, then each alone foreign with the others the caller's own.
      const variants = paths.length > 1 ? [paths, ...paths.map((x) => [x])] : [paths];
      const refused: { what: string; answer: Answer; all: boolean }[] = [];
      for (const foreignPaths of variants) {
        const body = withIds(sample, def, (path, e) => (foreignPaths.includes(path) ? foreign[e] : ownPick(path, e)), paths, refs);
        const what = `${p.label}, foreign ${foreignPaths.join('+')}`;
        const before = await fingerprint(db);
        const a = await call(p.caller, body);
        const changed = changedTables(before, await fingerprint(db));
        if (changed.length) failures.push(`${what}: changed ${changed.join(', ')} (body ${short(a.sent)})`);
        await checkLeaks(a, what);
        if (a.errorCode === ErrorCode.notFound) continue;
        if (a.errorCode === 0 || a.status >= 500)
          failures.push(`${what}: ${describeAnswer(a)}, expected not found ${ErrorCode.notFound} (body ${short(a.sent)})`);
        else refused.push({ what, answer: a, all: foreignPaths === paths });
      }
      // Refused for another reason: the same body with the caller's own ids shows whether the
      // body (refused the same way) or the foreign ids (answered otherwise) caused it.
      const ownAnswer = await call(p.caller, withIds(sample, def, ownPick, paths, refs));
      await checkLeaks(ownAnswer, `${p.label}, own ids`);
      let allInconclusive = false;
      for (const r of refused) {
        if (r.answer.errorCode === ownAnswer.errorCode) {
          allInconclusive ||= r.all;
          continue;
        }
        failures.push(
          `${r.what}: ${describeAnswer(r.answer)} while the same body with its own ids answers ${describeAnswer(ownAnswer)}; another institution's object must answer not found (body ${short(r.answer.sent)})`,
        );
      }
      if (allInconclusive) continue;
      // The foreign ids must name real objects: their owner's side finds them. When it does not,
      // another field of this body (a version, a code) named nothing, and the next body is tried.
      const ownerAnswer = await call(
        p.owner,
        withIds(sample, def, (_path, e) => foreign[e] ?? shared[e], paths, refs),
      );
      if (ownerAnswer.errorCode === ErrorCode.notFound) {
        ownerMissed = short(ownerAnswer.sent);
        continue;
      }
      conclusive = true;
      break;
    }
    if (!conclusive && ownerMissed) {
      failures.push(
        `${p.label}: even ${p.owner}, whose scope holds ${p.foreign}, gets not found for every body (last ${ownerMissed}); ` +
          'every id field of the input must be declared in the action’s ids (the metadata test lists undeclared ones), and the fixture in entities.ts must give a real object',
      );
    } else if (!conclusive) {
      failures.push(
        `${p.label}: every body was refused, with the caller's own ids too, before the ids were checked; the sweep could not reach the scope check (add a body to examples.ts)`,
      );
    }
  }

  // Reads, lists, statistics and exports: what the caller gets holds nothing from outside its scope.
  if (def.op !== 'write' && def.op !== 'auth') {
    await w.heal();
    const own = await w.idsOf(p.own);
    for (const sample of samples.slice(0, 3)) {
      const body = widePage(
        withIds(sample, def, (_path, e) => own[e] ?? shared[e], [], refs),
        def,
      );
      await checkLeaks(await call(p.caller, body), `${p.label}, ${def.op} with own ids`);
    }
  }
  return { failures: [...new Set(failures)], bodies };
}

// ---------------------------------------------------------------------------------------------
// 6. Mass assignment

/** Object schemas inside an input that pass unknown fields through to the handler. */
export function looseObjects(input: unknown, path = 'input', seen = new Set<unknown>()): string[] {
  if (seen.has(input)) return [];
  seen.add(input);
  const def = unwrap(input);
  const out: string[] = [];
  if (def.type === 'object') {
    const catchall = def.catchall ? unwrap(def.catchall).type : 'none';
    if (catchall !== 'never' && catchall !== 'none') out.push(`${path} keeps unknown fields (catchall ${catchall})`);
    for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) out.push(...looseObjects(v, `${path}.${k}`, seen));
  } else if (def.type === 'array') out.push(...looseObjects(def.element, `${path}[]`, seen));
  else if (def.type === 'union') (def.options as unknown[]).forEach((o, i) => out.push(...looseObjects(o, `${path}|${i}`, seen)));
  else if (def.type === 'record') out.push(...looseObjects(def.valueType, `${path}{}`, seen));
  return out;
}

/** Extra ownership, permission and status fields on a write are refused or ignored, never applied. */
export async function massAssignmentCheck(w: World, name: string): Promise<Outcome> {
  const def = defOf(name);
  if (def.op !== 'write') return { failures: [], bodies: 0 };
  const failures = looseObjects(def.input).map((l) => `the input schema: ${l}`);
  // A staff token never reaches a respondent handler; the strict-schema part above still holds.
  if (def.access === 'respondent') return { failures, bodies: 0 };
  const db = w.s.database.db;
  const declared = shapeOf(def.input) ?? {};
  const extras = Object.fromEntries(
    Object.entries(massAssignmentFields(WORLD.B.musercode, WORLD.Q.musercode)).filter(([k]) => !(k in declared)),
  );
  let bodies = 0;
  for (const sample of await bodiesFor(w, name, 2)) {
    await w.heal();
    const own = await w.idsOf(WORLD.A.musercode);
    const shared = await w.sharedIds();
    const body = { ...withIds(sample, def, (_p, e) => own[e] ?? shared[e], [], await w.refs()), ...extras };
    const parsed = def.input.safeParse(body);
    if (parsed.success) {
      const kept = Object.keys(extras).filter((k) => k in (parsed.data as Record<string, unknown>));
      if (kept.length) failures.push(`the input schema hands ${kept.join(', ')} to the handler`);
    }
    const before = await fingerprint(db);
    const ownership = await ownershipPrint(db, WORLD.A.musercode);
    bodies += 1;
    const a = await w.call(name, body, await w.token('A'));
    if (a.errorCode === ErrorCode.identityInvalid) w.forget('A');
    if (a.errorCode !== 0) {
      const changed = changedTables(before, await fingerprint(db));
      if (changed.length) failures.push(`refused (${describeAnswer(a)}) but changed ${changed.join(', ')}`);
    } else {
      const moved = changedTables(ownership, await ownershipPrint(db, WORLD.A.musercode));
      if (moved.length) failures.push(`accepted ${Object.keys(extras).join(', ')} and changed ${moved.join(', ')}`);
    }
  }
  return { failures: [...new Set(failures)], bodies };
}

// ---------------------------------------------------------------------------------------------
// Codes from strings

/** Strings a caller could hope the server reads as codes, keys or wildcards. */
export const CODE_SMUGGLERS = ['k:000313', 'admin', 'admin:x', '000313', '*', '%'];

/**
 * Actions that write roles, staff users, accounts and departments: the strings they store sit
 * next to what codes are resolved from. (By name: every such action lives in these namespaces.)
 */
export const writesPrincipals = (name: string) => defOf(name).op === 'write' && /^as\.m\.(system\.(role|user|dept|muser)|user|permissions)\./.test(name);

/** The codes the per-request resolver gives every account and every staff user, by id. */
export async function resolvedCodes(db: Db): Promise<Map<string, string>> {
  const accounts = await db.select({ musercode: muser.musercode, musertype: muser.musertype, issuper: muser.issuper }).from(muser);
  const users = await db.select({ userid: sysuser.userid, musercode: sysuser.musercode }).from(sysuser);
  const byCode = new Map(accounts.map((a) => [a.musercode, a]));
  const out = new Map<string, string>();
  for (const a of accounts) out.set(a.musercode, (await resolveGrants(db, a, null)).codes.sort().join(','));
  for (const u of users) out.set(u.userid, (await resolveGrants(db, byCode.get(u.musercode)!, u.userid)).codes.sort().join(','));
  return out;
}

/** Caller-chosen strings of an input: top-level string fields that are not ids, reference codes or the password. */
function callerStrings(def: ActionDef): string[] {
  return Object.entries(shapeOf(def.input) ?? {})
    .filter(([k, v]) => unwrap(v).type === 'string' && !(k in (def.ids ?? {})) && !(k in notObjectIds) && k !== 'pwd')
    .map(([k]) => k);
}

/** A role of A held by one staff user of A, both made for this check: strings are written to them. */
async function codesTarget(w: World): Promise<{ roleid: string; userid: string }> {
  const db = w.s.database.db;
  const roleid = 'swcodesR';
  const userid = 'swcodesU';
  const [known] = await db.select({ roleid: role.roleid }).from(role).where(eq(role.roleid, roleid));
  if (known) return { roleid, userid };
  const [template] = await db.select({ pwdhash: muser.pwdhash }).from(muser).where(eq(muser.musercode, WORLD.A.musercode));
  await db.insert(role).values({ roleid, musercode: WORLD.A.musercode, rolename: 'sweep codes', rolekey: 'sweepcodes' });
  await db.insert(roleMenu).values({ roleid, code: '00018' });
  await db.insert(sysuser).values({ userid, musercode: WORLD.A.musercode, sysusername: 'swcodes', pwdhash: template!.pwdhash, realname: 'sweep codes' });
  await db.insert(sysuserRole).values({ userid, roleid });
  return { roleid, userid };
}

/**
 * No string a caller chooses changes what codes are resolved. Every caller-chosen string of a
 * write to roles, users, accounts or departments is set to each of CODE_SMUGGLERS (all fields at
 * once, then one at a time when that is refused), on a role held by a staff user; after every call
 * the codes of every account and staff user are what they were, and anyone created holds none.
 */
export async function codesFromStringsCheck(w: World, name: string): Promise<Outcome> {
  const def = defOf(name);
  const fields = writesPrincipals(name) ? callerStrings(def) : [];
  if (fields.length === 0) return { failures: [], bodies: 0 };
  await w.heal();
  // Institution A, or provider P when A may not write this at all (an institution creates no accounts).
  const asA = await codesFromStringsAs(w, name, fields, 'A');
  if (asA.accepted || asA.failures.length) return asA;
  const asP = await codesFromStringsAs(w, name, fields, 'P');
  return { failures: asP.failures, bodies: asA.bodies + asP.bodies };
}

async function codesFromStringsAs(w: World, name: string, fields: string[], who: 'A' | 'P'): Promise<Outcome & { accepted: boolean }> {
  const def = defOf(name);
  const db = w.s.database.db;
  const target = await codesTarget(w);
  const own = { ...(await w.idsOf(WORLD[who].musercode)), role: target.roleid, sysuser: target.userid };
  const shared = await w.sharedIds();
  const [sample] = validSamples(def.input, seedFor(SWEEP_SEED, `${name}codes`), 1, { optional: 'omit', nasty: false });
  const base = withIds(sample, def, (_p, e) => own[e] ?? shared[e], [], await w.refs());
  const failures: string[] = [];
  let bodies = 0;
  let accepted = false;
  let known = await resolvedCodes(db);
  const send = async (set: string[], value: string) => {
    const body = { ...base, ...Object.fromEntries(set.map((f) => [f, value])) };
    bodies += 1;
    const rolesBefore = new Set((await db.select({ id: role.roleid }).from(role)).map((r) => r.id));
    const a = await w.call(name, body, await w.token(who));
    if (a.errorCode === ErrorCode.identityInvalid) w.forget(who);
    if (a.errorCode === 0) accepted = true;
    for (const p of answerProblems(a)) failures.push(`${set.join(', ')} = ${JSON.stringify(value)}: ${p}`);
    // A role just created has no holder yet: give it to the target user, so that what its key
    // or name might smuggle in would show in the holder's codes (it was created with no codes).
    const created = (await db.select({ id: role.roleid }).from(role)).filter((r) => !rolesBefore.has(r.id));
    if (created.length) await db.insert(sysuserRole).values(created.map((r) => ({ userid: target.userid, roleid: r.id })));
    const now = await resolvedCodes(db);
    for (const [id, codesNow] of now) {
      const before = known.get(id);
      if (before === undefined ? codesNow !== '' : before !== codesNow) {
        failures.push(`${set.join(', ')} = ${JSON.stringify(value)} (${describeAnswer(a)}) changed the codes of ${id}: [${before ?? 'new'}] → [${codesNow}]`);
      }
    }
    known = now;
    return a;
  };
  for (const value of CODE_SMUGGLERS) {
    const a = await send(fields, value);
    if (a.errorCode !== 0 && fields.length > 1) for (const f of fields) await send([f], value);
  }
  return { failures: [...new Set(failures)], bodies, accepted };
}

// ---------------------------------------------------------------------------------------------
// Parallel creates

let parallelValue = 0;

/**
 * A create action with a uniqueness rule (its contract's `unique`) keeps it under parallel
 * identical creates: one succeeds, every other answers conflict with a clean message, and the rows
 * written are exactly those of one create (measured on a single create first). The caller is
 * institution A, or provider P when A may not create this kind of thing (an institution creates
 * no accounts): the check itself is the same for both.
 */
export async function parallelCreateCheck(w: World, name: string, n = 12): Promise<Outcome> {
  const def = defOf(name);
  if (!def.unique?.length) return { failures: [], bodies: 0 };
  await w.heal();
  let bodies = 0;
  for (const who of ['A', 'P'] as const) {
    const outcome = await parallelCreateAs(w, name, who, n);
    bodies += outcome.bodies;
    if (outcome.failures.length || outcome.created) return { failures: outcome.failures, bodies };
  }
  return { failures: [`no generated body of ${name} created anything: add a body to examples.ts`], bodies };
}

async function parallelCreateAs(w: World, name: string, who: 'A' | 'P', n: number): Promise<Outcome & { created: boolean }> {
  const def = defOf(name);
  const db = w.s.database.db;
  const own = await w.idsOf(WORLD[who].musercode);
  const shared = await w.sharedIds();
  const refs = await w.refs();
  const token = await w.token(who);
  const delta = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.keys(b).flatMap((t) => (b[t] !== a[t] ? [[t, b[t]! - (a[t] ?? 0)]] : [])));
  let bodies = 0;
  for (const sample of await bodiesFor(w, name, 4, 'parallel')) {
    const base = withIds(sample, def, (_p, e) => own[e] ?? shared[e], [], refs);
    const withValue = (v: string) => ({ ...base, ...Object.fromEntries(def.unique!.map((f) => [f, v])) });
    const fresh = () => `Swpar${w.engine.slice(0, 2)}${++parallelValue}`;
    const start = await rowCounts(db);
    bodies += 1;
    const single = await w.call(name, withValue(fresh()), token);
    if (single.errorCode !== 0) continue;
    const one = delta(start, await rowCounts(db));
    const mid = await rowCounts(db);
    const value = fresh();
    bodies += n;
    const answers = await Promise.all(Array.from({ length: n }, () => w.call(name, withValue(value), token)));
    const failures: string[] = [];
    const ok = answers.filter((a) => a.errorCode === 0).length;
    if (ok !== 1) failures.push(`${n} parallel identical creates (${def.unique!.join(', ')} = ${value}): ${ok} succeeded, want exactly 1`);
    for (const a of answers) {
      if (a.errorCode !== 0 && a.errorCode !== ErrorCode.conflict) failures.push(`a losing create answered ${describeAnswer(a)}, want conflict (${ErrorCode.conflict})`);
      for (const p of answerProblems(a)) failures.push(p);
    }
    const many = delta(mid, await rowCounts(db));
    if (JSON.stringify(many) !== JSON.stringify(one)) failures.push(`rows written by the parallel creates ${JSON.stringify(many)} differ from one create's ${JSON.stringify(one)}`);
    return { failures: [...new Set(failures)], bodies, created: true };
  }
  return { failures: [], bodies, created: false };
}
