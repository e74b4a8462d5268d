import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { catalogue, isActionName, pickLang, type ActionDef, type Lang } from '@xinli/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { authenticate } from '../domains/auth/sessions.js';
import type { CallerCache } from '../domains/auth/caller-cache.js';
import { holds } from '../domains/auth/scope.js';
import { authenticateRespondent } from '../domains/assessments/respondent-auth.js';
import { AppError } from './errors.js';
import { uniqueConflict } from '../db/unique.js';
import { createCtx } from './context.js';
import { isFileResult, type HandlerMap } from './handlers.js';
import { sendError, sendFile, sendOk } from './envelope.js';

export interface RouteDeps {
  db: Db;
  config: Config;
  now: () => Date;
  handlers: HandlerMap;
  /** Validate every answer against the contract (tests and development). */
  checkOutput: boolean;
  /** Resolved callers (auth/caller-cache.ts); absent: every request reads its session. */
  callers?: CallerCache;
}

/** The single route of the API (SPEC §7): POST /api/{name}/1.0.0/action. */
export function registerActionRoute(app: FastifyInstance, deps: RouteDeps) {
  app.post<{ Params: { name: string } }>('/api/:name/1.0.0/action', async (req, reply) => {
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    const requestId = req.id;
    reply.header('x-request-id', requestId);
    try {
      await runAction(req, reply, deps, lang, requestId);
    } catch (err) {
      if (err instanceof AppError) return sendError(reply, err, lang);
      const clash = uniqueConflict(err);
      if (clash) return sendError(reply, clash, lang);
      req.log.error({ err, action: req.params.name }, 'action failed');
      return sendError(reply, new AppError('internal', undefined, 500), lang);
    }
  });
}

async function runAction(req: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply, deps: RouteDeps, lang: Lang, requestId: string) {
  const name = req.params.name;
  if (!isActionName(name)) throw new AppError('notFound', { zh: `接口不存在：${name}`, en: `Unknown action: ${name}` }, 404);
  const def: ActionDef = catalogue[name];
  const { body, token } = readBody(req);
  const base = { db: deps.db, config: deps.config, now: deps.now, lang, ip: req.ip, requestId };

  // A respondent token opens only 'respondent' actions, and those accept nothing else: the two
  // kinds of token live in different tables, so neither is ever found where the other is asked.
  const respondent = def.access === 'respondent' ? await authenticateRespondent(deps.db, deps.now(), token) : null;
  const caller = def.access === 'public' || def.access === 'respondent' ? null : await authenticate(deps.db, deps.config, deps.now(), token, deps.callers);

  const ctx = createCtx({ ...base, caller, respondent });
  if (caller && typeof def.access === 'object' && !holds(caller, ...def.access.codes)) {
    await ctx.audit({ action: name, result: 'denied', detail: { needs: def.access.codes } });
    throw new AppError('permissionDenied');
  }

  if (hasNul(body)) throw new AppError('validation', { zh: '输入包含无效字符', en: 'The input contains an invalid character' });
  const parsed = def.input.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);

  const handler = deps.handlers[name] as ((input: unknown, c: typeof ctx) => Promise<unknown>) | undefined;
  if (!handler) throw new AppError('notFound');
  // No cache drop here after writes: every change that can change a caller notifies at commit, and
  // a cached caller is used only once that notification is known to be handled (caller-cache.ts).
  const result = await handler(parsed.data, ctx);
  if (isFileResult(result)) return sendFile(reply, result);
  if (deps.checkOutput) def.output.parse(result);
  return sendOk(reply, result);
}

/**
 * JSON bodies are the input itself. Downloads post a form (SPEC §7): the input travels as JSON
 * in the field `payload`, the token in the field `token` when no header carries it.
 */
function readBody(req: FastifyRequest): { body: unknown; token: string | undefined } {
  const header = req.headers.token;
  const headerToken = Array.isArray(header) ? header[0] : header;
  const raw = req.body ?? {};
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return { body: raw, token: headerToken };
  }
  const form = raw as Record<string, string>;
  let body: unknown = {};
  if (form.payload) {
    try {
      body = JSON.parse(form.payload);
    } catch {
      throw new AppError('validation', { zh: '请求格式有误', en: 'The request is malformed' }, 400);
    }
  }
  return { body, token: headerToken ?? form.token };
}

/** PostgreSQL text cannot hold NUL; refuse it here once rather than in every domain. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

function validationError(error: z.ZodError): AppError {
  const fields = [...new Set(error.issues.map((i) => i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : '')))]
    .filter(Boolean)
    .slice(0, 5)
    .join(', ');
  const unknown = error.issues.some((i) => i.code === 'unrecognized_keys');
  const zh = unknown ? `请求包含未知字段：${fields}` : `输入有误：${fields || '请求体'}`;
  const en = unknown ? `The request has unknown fields: ${fields}` : `The input is not valid: ${fields || 'body'}`;
  return new AppError('validation', { zh, en });
}
