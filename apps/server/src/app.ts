import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import { ErrorCode, errorMessages, pickLang } from '@xinli/contract';
import type { Config } from './config.js';
import { waitedOutForConnection, type Database, type Db } from './db/database.js';
import { handlers as allHandlers, jobHandlers as allJobHandlers, missingHandlers } from './domains/index.js';
import { JobRunner, jobLanes, startPeriodic, type JobHandlers } from './kit/jobs/index.js';
import { registerActionRoute, type Authentication } from './http/action-route.js';
import { AUTH_CHANNEL, createCallerCache, type CallerCache } from './domains/auth/caller-cache.js';
import { createChangeFeed, type ChangeFeed } from './db/change-feed.js';
import { keepReferenceReads, REFERENCE_CHANNEL } from './kit/reference-reads.js';
import { authenticate } from './domains/auth/sessions.js';
import { signInRateSpent } from './domains/auth/login.js';
import { holds } from './domains/auth/scope.js';
import { authenticateRespondent } from './domains/assessments/respondent-auth.js';
import { startAuditRetention, writeAudit } from './domains/audit/index.js';
import { registerWarnings } from './domains/warnings/events-route.js';
import { WARN_CHANNEL } from './domains/warnings/events.js';
import { registerFileRoutes } from './domains/files/routes.js';
import { registerPaymentRoutes } from './domains/orders/routes.js';
import { closePdfBrowsers } from './kit/pdf.js';
import { AppError } from './http/errors.js';
import { sendBusy, sendError } from './http/envelope.js';
import type { HandlerMap } from './http/handlers.js';
import { registerBodyParsers } from './http/body.js';
import { registerHealth } from './http/health.js';
import { registerMetrics } from './http/metrics.js';
import { redactLogLine, redactUrl } from './http/redact.js';

export interface AppOptions {
  database: Database;
  config: Config;
  /**
   * The clock every time-dependent rule reads (session expiry, lockout, authorisation dates).
   * Required, so that no caller gets the wall clock by forgetting it: tests pass the harness's
   * clock (see test/harness.ts), the server passes the real one.
   */
  now: () => Date;
  handlers?: HandlerMap;
  /** Background job kinds this app's runner takes (all the domains' by default). */
  jobHandlers?: JobHandlers;
  checkOutput?: boolean;
  /** Where logs go (tests read them to prove no secret is logged); stdout by default. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const handlers = opts.handlers ?? allHandlers;
  const missing = missingHandlers(handlers);
  if (missing.length) throw new Error(`Catalogued actions without a handler: ${missing.join(', ')}`);

  const app = Fastify({
    logger: {
      level: opts.config.logLevel,
      customLevels: { [REQUEST_LEVEL]: REQUEST_LEVEL_VALUE },
      // Asynchronous by default (a request does not wait for its log line to reach the terminal).
      stream: opts.logStream ?? logDestination(),
      // Bodies are never logged; headers are not in the default serializers, but be explicit.
      redact: ['req.headers.token', 'req.headers.cookie', 'req.headers.authorization'],
      // No line carries a credential of a URL (issue 27 item 12): path tokens and query signatures are
      // masked in every line as it is written, whichever logger or serializer wrote it.
      hooks: { streamWrite: redactLogLine },
    },
    logController: new RequestLines(),
    // The small limit unless a route says otherwise (the action route decides per caller: http/body.ts).
    bodyLimit: opts.config.preauthBodyLimitBytes,
    trustProxy: opts.config.trustProxy,
    return503OnClosing: true,
    // One id per request, in every log line and in the x-request-id answer header.
    genReqId: () => randomUUID(),
  });

  // Security headers on every answer (console, assets, API, errors), computed once at start; API
  // answers are never documents and get the smaller set that matters for them (apiSecurityHeaders).
  const headers = securityHeaders(opts.config);
  const apiHeaders = apiSecurityHeaders(headers);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
  // Once shutdown starts, answers close their connection: otherwise a keep-alive client whose
  // request was in flight would hold the server open until its keep-alive timeout. API answers are
  // never cached (set last, so that no route's own header wins).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  registerBodyParsers(app, opts.config.preauthBodyLimitBytes);

  // Protocol faults (malformed JSON, body too large, wrong content type) keep their HTTP status
  // and still answer the envelope in the caller's language.
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    // Refusals of the body guard and of the action route's hook carry their own status and message.
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    if (err instanceof AppError) return sendError(reply, err, lang);
    if (waitedOutForConnection(err)) return sendBusy(req, reply, lang);
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, protocolError(status), lang);
  });

  // What this process keeps in memory (resolved callers, reference rows) hears every change on one
  // feed, and the live warning events arrive on it too.
  const feed = await createChangeFeed(opts.database.db, [AUTH_CHANNEL, REFERENCE_CHANNEL, WARN_CHANNEL], 'xinli-change-feed', (err) =>
    app.log.warn({ err }, 'change feed down; every request reads its session and reference rows, and live badges wait, until it is back'),
  );
  app.decorate('changeFeed', feed);
  app.addHook('onClose', () => feed.close());
  const callers = createCallerCache(feed, opts.config.authCacheMs);
  if (callers) app.addHook('onClose', () => callers.close());
  keepReferenceReads(opts.database.db, feed, [AUTH_CHANNEL, REFERENCE_CHANNEL]);
  app.addHook('onClose', closePdfBrowsers);
  registerActionRoute(app, {
    authentication: authentication(opts.database.db, opts.config, callers),
    writeAudit,
    db: opts.database.db,
    readDb: opts.database.readDb,
    config: opts.config,
    now: opts.now,
    handlers,
    checkOutput: opts.checkOutput ?? process.env.NODE_ENV !== 'production',
  });
  registerMetrics(app, { db: opts.database.db, token: opts.config.metricsToken, now: opts.now });
  registerWarnings(app, { db: opts.database.db, config: opts.config, now: opts.now, callers, feed });
  await registerFileRoutes(app, { db: opts.database.db, config: opts.config, now: opts.now });
  await registerPaymentRoutes(app, { db: opts.database.db, now: opts.now, config: opts.config });
  serveConsole(app, opts.config.webDist);

  // Background jobs: every server process polls the shared job table (tests run them with
  // app.jobs.runDue() on the test clock instead); closing stops the poll and puts back a job in flight.
  // The poll runs one runner per lane (jobLanes): a 500-PDF zip or an LLM writer never holds up a
  // crisis warning's notification or escalation queued behind it.
  const runner = (handlers: JobHandlers) => new JobRunner({ db: opts.database.db, config: opts.config, now: opts.now, handlers, log: app.log });
  const jobHandlers = opts.jobHandlers ?? allJobHandlers;
  const jobs = runner(jobHandlers);
  const lanes = jobLanes(jobHandlers).map(runner);
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => {
    // The audit retention job, when AUDIT_RETENTION_DAYS is set (one daily job, whoever asks), and
    // the housekeeping kinds (JobDefinition.every).
    await startAuditRetention(opts.database.db, opts.config, opts.now());
    await startPeriodic(opts.database.db, jobHandlers, opts.now());
    lanes.forEach((lane) => lane.start(opts.config.jobPollMs));
  });
  app.addHook('onClose', () => Promise.all([jobs, ...lanes].map((r) => r.stop())));
  registerHealth(app, opts.database, {
    // With JOB_POLL_MS=0 no lane polls (jobs run when asked): ready unless stopped.
    jobs: () => [jobs, ...lanes].every((r) => r.state !== 'stopped') && (opts.config.jobPollMs <= 0 || lanes.every((r) => r.state === 'polling')),
    listeners: { changeFeed: feed.listening },
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
    changeFeed: ChangeFeed;
  }
}

/** The sign-in steps whose per-address rate limit is applied before their body is read. */
const SIGN_IN = new Set(['as.m.user.login', 'as.m.user.loginSecondFactor', 'as.m.user.confirmSecondFactor']);

/** The action route's authentication: the auth domain's sessions and scope, the assessments domain's respondent tokens. */
function authentication(db: Db, config: Config, callers: CallerCache | undefined): Authentication {
  return {
    caller: (token, now) => authenticate(db, config, now, token, callers),
    respondent: (token, now) => authenticateRespondent(db, now, token),
    holds,
    rateSpent: async (name, ip, now) => SIGN_IN.has(name) && signInRateSpent(db, config, now, ip),
  };
}

/** The pino level of the one line written per request (README "Configuration"). */
export const REQUEST_LEVEL = 'request';
const REQUEST_LEVEL_VALUE = 25;

/**
 * One line per request, written when it is answered, at its own level between debug and info:
 * LOG_LEVEL=request (the default) writes it; LOG_LEVEL=info keeps start, stop, warnings and errors
 * but writes no line per request. Fastify's "incoming request" line is not written at all.
 */
class RequestLines extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    const log = request.log as unknown as pino.Logger<typeof REQUEST_LEVEL>;
    if (!log.isLevelEnabled(REQUEST_LEVEL)) return;
    log[REQUEST_LEVEL](
      { method: request.method, url: redactUrl(request.url), ip: request.ip, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
  }
}

/**
 * Standard output, written asynchronously: a request pays for formatting its line, not for a write
 * system call; lines that arrive while a write is in flight go out together in the next one. What is
 * still buffered at exit is written then (pino registers an exit flush for asynchronous destinations).
 */
function logDestination() {
  return pino.destination({ dest: 1, sync: false });
}

/**
 * Helmet's headers, computed once: with no CSP nonces they depend on nothing in the request.
 * (@fastify/helmet built helmet's middleware again for every request, about 20 µs each.) Helmet's
 * middlewares only set and remove headers, synchronously; a stand-in response collects them.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value), removeHeader: () => {} };
  let done = false;
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...contentSecurityPolicy, connectSrc: ["'self'", ...uploadOrigins(config)] } },
    frameguard: { action: 'deny' },
  });
  middleware({} as IncomingMessage, collect as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * The headers of an API answer (JSON, a download, the event stream), from the console's set: what a
 * browser applies to a response that is never rendered as a page (OWASP REST Security Cheat Sheet).
 * The policy allows nothing, so an answer opened as a page can run, load and embed nothing, and no
 * page may frame it; HSTS, nosniff, DENY, no-referrer and same-origin resource policy stay. Helmet's
 * headers for documents (opener policy, agent cluster, DNS prefetch, IE's download and XSS switches,
 * Flash's cross-domain policy) are left off: each costs every answer bytes to write and to parse.
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const kept = ['strict-transport-security', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-resource-policy'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    ...Object.fromEntries(kept.filter((name) => name in documentHeaders).map((name) => [name, documentHeaders[name]!])),
  };
}

/** The envelope for a fault Fastify raises before any action runs. */
function protocolError(status: number): AppError {
  if (status === 413) return new AppError('validation', { zh: '请求内容过大', en: 'The request body is too large' }, status);
  if (status === 429) return new AppError('rateLimited', undefined, status);
  if (status >= 500) return new AppError('internal', undefined, status);
  return new AppError('validation', { zh: '请求格式有误', en: 'The request is malformed' }, status);
}

/**
 * The console's Content-Security-Policy. Scripts only from this origin (the build has no inline
 * script and nothing evaluates strings). Styles allow 'unsafe-inline': antd writes its theme's CSS
 * variables, and the rc-components it builds on (scroll locker, motion) their rules, in <style>
 * elements at run time, not all of them able to carry a nonce (its component styles come from a
 * stylesheet: web theme.ts). No plugins, no framing, no foreign base URI or form target.
 */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Where the console may PUT large files itself: the object store's origin when files go to S3. */
function uploadOrigins(config: Config): string[] {
  const s3 = config.files.storage === 's3' ? config.files.s3 : undefined;
  if (!s3) return [];
  if (s3.endpoint) return [new URL(s3.endpoint).origin];
  return [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`];
}

/**
 * The built console with history fallback: `/` and any GET or HEAD of a console route (a path
 * outside /api whose last segment has no file extension) answer index.html. Build internals
 * (`/.vite/manifest.json`, any dot-folder) are not served; a missing file is a 404, not the page.
 * Hashed assets are cached for a year, index.html is revalidated on every load.
 */
function serveConsole(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasConsole = !!index && fs.existsSync(index);
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(index!));
  if (hasConsole) {
    app.register(fastifyStatic, {
      root: webDist!,
      index: false,
      dotfiles: 'ignore',
      allowedPath: (pathname) => !pathname.split('/').some((segment) => segment.startsWith('.')) && !pathname.endsWith('/'),
      setHeaders(reply, file) {
        const rel = path.relative(webDist!, file).split(path.sep).join('/');
        if (rel.startsWith('assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
        else if (rel === 'index.html') reply.header('cache-control', 'no-cache');
      },
    });
    app.get('/', (_req, reply) => sendIndex(reply));
  }
  // The respondent pages (DESIGN §9): their own small entry of the build, for a one-time code
  // (/a/<assesscode>, or /a to type it), for an institution's QR link (/r/<entry token>) and for
  // a group task (/t/<task code>).
  const respondent = webDist ? path.join(webDist, 'respondent.html') : undefined;
  if (respondent && fs.existsSync(respondent)) {
    const sendRespondent = (_req: FastifyRequest, reply: FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(respondent));
    // /a alone: the respondent types the code from the slip or text message.
    app.get('/a', sendRespondent);
    app.get('/a/:assesscode', sendRespondent);
    app.get('/r/:entrytoken', sendRespondent);
    // The institution's published articles, read through its QR link.
    app.get('/r/:entrytoken/articles', sendRespondent);
    app.get('/r/:entrytoken/articles/:articleid', sendRespondent);
    // Its goods, bought there and paid at the provider's cashier (back here with ?order=).
    app.get('/r/:entrytoken/shop', sendRespondent);
    // Its relaxation music and courses.
    app.get('/r/:entrytoken/media', sendRespondent);
    // A group task's sign-in: its code (in the link, or typed) with the student's number and name.
    app.get('/t', sendRespondent);
    app.get('/t/:taskcode', sendRespondent);
  }
  app.setNotFoundHandler((req, reply) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && hasConsole && isConsoleRoute(req.url)) return sendIndex(reply);
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    return reply.status(404).send({ errorCode: ErrorCode.notFound, errorMsg: errorMessages.notFound[lang], data: null });
  });
}

/** A path the console's router answers: not the API, not a file, not under a dot-folder or /assets. */
export function isConsoleRoute(url: string): boolean {
  const pathname = url.split(/[?#]/)[0]!;
  if (/^\/(api|assets)(\/|$)/.test(pathname)) return false;
  const segments = pathname.split('/');
  if (segments.some((segment) => segment.startsWith('.'))) return false;
  return !segments[segments.length - 1]!.includes('.');
}
