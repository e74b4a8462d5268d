import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { catalogue, isActionName, pickLang, ruleSentences, type ActionDef, type Lang } from '@xinli/contract';
import type { Config } from '../config.js';
import { waitedOutForConnection, type Db } from '../db/database.js';
import { AppError } from './errors.js';
import { uniqueClash } from '../db/unique.js';
import { createCtx } from './context.js';
import { clientGoneSignal } from '../kit/client-gone.js';
import { isFileResult, type HandlerMap } from './handlers.js';
import type { AuditWriter, Caller, RespondentCaller } from './context.js';
import { checkJsonShape, malformed, setBodyLimit } from './body.js';
import { keepDecoded, nulFree } from './json-worker.js';
import { sendBusy, sendError, sendFile, sendOk } from './envelope.js';

export interface RouteDeps {
  db: Db;
  /** The read replica's pool (DATABASE_READ_URL), or `db` when there is none. */
  readDb: Db;
  config: Config;
  now: () => Date;
  handlers: HandlerMap;
  /** Validate every answer against the contract (tests and development). */
  checkOutput: boolean;
  /** Who a token is; the app hands in the auth and assessments domains' functions. */
  authentication: Authentication;
  /** Where every context's audit entries go (the audit domain's writer). */
  writeAudit: AuditWriter;
}

/** Who a request's token is and what it may do; each throws its refusal as an AppError. */
export interface Authentication {
  /** The staff caller of a token (sessions). */
  caller(token: string | undefined, now: Date): Promise<Caller>;
  /** The respondent of a respondent token (one given assessment). */
  respondent(token: string | undefined, now: Date): Promise<RespondentCaller>;
  /** Whether the caller holds one of the codes. */
  holds(caller: Caller, ...codes: string[]): boolean;
  /** Whether this address may make no more calls of the action before its body is read (the sign-in's rate). */
  rateSpent(name: string, ip: string, now: Date): Promise<boolean>;
}

/**
 * The single route of the API (SPEC §7): POST /api/{name}/1.0.0/action. Before any byte of the body
 * is read, its onRequest hook (admit) authenticates the token of the header and decides how much of
 * the body may be read (issue 27 item 1): the server's limit, or the action's larger `maxBodyBytes`,
 * only for a signed-in caller allowed the action; the respondent limit for a respondent action called
 * with a valid respondent token; the small limit for everyone else. The route's own bodyLimit is the
 * largest of them; the parsers (body.ts) read no more than the request's.
 */
export function registerActionRoute(app: FastifyInstance, deps: RouteDeps) {
  const handle = async (name: string, req: FastifyRequest, reply: FastifyReply) => {
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    try {
      await runAction(name, req, reply, deps, lang, req.id); // admit has set x-request-id
    } catch (err) {
      if (err instanceof AppError) return sendError(reply, err, lang);
      const clash = uniqueClash(err);
      if (clash) return sendError(reply, new AppError('conflict', clash.msg), lang);
      if (waitedOutForConnection(err)) return sendBusy(req, reply, lang);
      req.log.error({ err, action: name }, 'action failed');
      return sendError(reply, new AppError('internal', undefined, 500), lang);
    }
  };
  const largest = Math.max(
    deps.config.bodyLimitBytes,
    deps.config.respondentBodyLimitBytes,
    deps.config.preauthBodyLimitBytes,
    ...Object.values(catalogue as Record<string, ActionDef>).map((d) => d.maxBodyBytes ?? 0),
  );
  app.post<{ Params: { name: string } }>(
    '/api/:name/1.0.0/action',
    { bodyLimit: largest, onRequest: (req, reply) => admit(req as FastifyRequest<{ Params: { name: string } }>, reply, deps) },
    (req, reply) => handle(req.params.name, req, reply),
  );
}

/** Who the header's token is, found before the body is read (or why it is no one: thrown later, in order). */
interface Admission {
  caller?: Caller;
  respondent?: RespondentCaller;
  error?: unknown;
}
const admission = Symbol('admission');
declare module 'fastify' {
  interface FastifyRequest {
    [admission]?: Admission;
  }
}

const isForm = (req: FastifyRequest) => (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
const headerToken = (req: FastifyRequest) => {
  const header = req.headers.token;
  return Array.isArray(header) ? header[0] : header;
};

async function admit(req: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply, deps: RouteDeps) {
  reply.header('x-request-id', req.id);
  const { config, authentication } = deps;
  setBodyLimit(req, config.preauthBodyLimitBytes);
  const name = req.params.name;
  // Unknown actions and forms (whose token may be in a field) stay small; the route answers them.
  if (!isActionName(name) || isForm(req)) return;
  const def: ActionDef = catalogue[name];
  const now = deps.now();
  if (await authentication.rateSpent(name, req.ip, now)) throw new AppError('rateLimited', undefined, 429);
  const found: Admission = {};
  req[admission] = found;
  if (def.access === 'public') return;
  const token = headerToken(req);
  try {
    if (def.access === 'respondent') {
      found.respondent = await authentication.respondent(token, now);
      setBodyLimit(req, config.respondentBodyLimitBytes);
      return;
    }
    const caller = await authentication.caller(token, now);
    found.caller = caller;
    if (def.access === 'signedIn' || authentication.holds(caller, ...def.access.codes)) setBodyLimit(req, Math.max(config.bodyLimitBytes, def.maxBodyBytes ?? 0));
  } catch (err) {
    found.error = err;
  }
}

async function runAction(name: string, req: FastifyRequest, reply: FastifyReply, deps: RouteDeps, lang: Lang, requestId: string) {
  if (!isActionName(name)) throw new AppError('notFound', { zh: `接口不存在：${name}`, en: `Unknown action: ${name}` }, 404);
  const def: ActionDef = catalogue[name];
  const { body, token } = readBody(req);
  const { authentication } = deps;
  // Listening from the start: a client that leaves while its caller is resolved still stops the work.
  const signal = clientGoneSignal(reply.raw);

  // A respondent token opens only 'respondent' actions, and those accept nothing else: the two
  // kinds of token live in different tables, so neither is ever found where the other is asked.
  // The header's token was resolved before the body was read (admit); a form's is resolved here.
  const found = isForm(req) ? undefined : req[admission];
  if (found?.error) throw found.error;
  const respondent = def.access === 'respondent' ? (found?.respondent ?? (await authentication.respondent(token, deps.now()))) : null;
  const caller =
    def.access === 'public' || def.access === 'respondent' ? null : (found?.caller ?? (await authentication.caller(token, deps.now())));

  const ctx = createCtx({
    db: deps.db,
    readDb: readDbFor(def, req, deps),
    config: deps.config,
    now: deps.now,
    lang,
    ip: req.ip,
    requestId,
    action: name,
    signal,
    caller,
    respondent,
    writeAudit: deps.writeAudit,
  });
  if (caller && typeof def.access === 'object' && !authentication.holds(caller, ...def.access.codes)) {
    await ctx.audit({ result: 'denied', detail: { needs: def.access.codes } });
    throw new AppError('permissionDenied');
  }

  if (hasNul(body)) throw new AppError('validation', { zh: '输入包含无效字符', en: 'The input contains an invalid character' });
  const parsed = def.input.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  keepDecoded(body, parsed.data);

  const handler = deps.handlers[name] as ((input: unknown, c: typeof ctx) => Promise<unknown>) | undefined;
  if (!handler) throw new AppError('notFound');
  // No cache drop here after writes: every change that can change a caller notifies at commit, and
  // a cached caller is used only once that notification is known to be handled (caller-cache.ts).
  const result = await handler(parsed.data, ctx);
  if (def.op === 'write' && deps.readDb !== deps.db) markWrote(req, reply, deps.config);
  if (isFileResult(result)) return sendFile(reply, result);
  if (deps.checkOutput) def.output.parse(result);
  return sendOk(reply, result);
}

/**
 * Read-your-writes with a replica (README "Read replica"): after a staff caller's write succeeds, its
 * answer sets a short-lived cookie; while the browser sends it back, that session's lists and
 * statistics read the primary, so a list reloaded after a save shows the save whatever the replica's
 * lag. The cookie carries no data and needs no signature: forging it only sends reads to the primary,
 * and dropping it only shows a lagging list. It is shared by every server process, since the browser
 * holds it. Callers without cookies (scripts) read the replica at once and may see a lag.
 */
const WROTE_COOKIE = 'xinli_wrote';
const wroteCookie = new RegExp(`(?:^|;\\s*)${WROTE_COOKIE}=1(?:;|$)`);

function markWrote(req: FastifyRequest, reply: FastifyReply, config: Config) {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${WROTE_COOKIE}=1; Max-Age=${config.primaryAfterWriteSeconds}; Path=/api; HttpOnly; SameSite=Strict${secure}`);
}

/** The replica only for a staff read that has not just written; respondents and public actions read the primary. */
function readDbFor(def: ActionDef, req: FastifyRequest, deps: RouteDeps): Db {
  if (deps.readDb === deps.db || (typeof def.access !== 'object' && def.access !== 'signedIn')) return deps.db;
  if (def.op !== 'list' && def.op !== 'read' && def.op !== 'export') return deps.db;
  return wroteCookie.test(req.headers.cookie ?? '') ? deps.db : deps.readDb;
}

/**
 * JSON bodies are the input itself. Downloads post a form (SPEC §7): the input travels as JSON
 * in the field `payload`, the token in the field `token` when no header carries it.
 */
function readBody(req: FastifyRequest): { body: unknown; token: string | undefined } {
  const raw = req.body ?? {};
  if (!isForm(req)) return { body: raw, token: headerToken(req) };
  const form = raw as Record<string, string | string[]>;
  const field = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const payload = field(form.payload);
  let body: unknown = {};
  if (payload) {
    checkJsonShape(payload);
    try {
      body = JSON.parse(payload);
    } catch {
      throw malformed();
    }
  }
  return { body, token: headerToken(req) ?? field(form.token) };
}

/**
 * PostgreSQL text cannot hold NUL; refuse it here once rather than in every domain. The long strings
 * of a body parsed off the event loop were checked there (json-worker.ts nulFree).
 */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  const checked = nulFree.get(value);
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || (!checked?.has(k) && hasNul(v, depth + 1)));
}

function validationError(error: z.ZodError): AppError {
  const fields = [...new Set(error.issues.map((i) => i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : '')))]
    .filter(Boolean)
    .slice(0, 5)
    .join(', ');
  const unknown = error.issues.some((i) => i.code === 'unrecognized_keys');
  // A rule that states itself (the person-name rule) is said in full, so the caller knows what is allowed.
  const said = [...new Set(error.issues.map((i) => ruleSentences[i.message]).filter((r) => r !== undefined))];
  const zh = unknown ? `请求包含未知字段：${fields}` : `输入有误：${fields || '请求体'}${said.map((r) => `（${r.zh}）`).join('')}`;
  const en = unknown ? `The request has unknown fields: ${fields}` : `The input is not valid: ${fields || 'body'}${said.map((r) => ` (${r.en})`).join('')}`;
  return new AppError('validation', { zh, en });
}
