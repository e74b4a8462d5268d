import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ErrorCode, errorMessages, pickLang } from '@xinli/contract';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { handlers as allHandlers, missingHandlers } from './domains/index.js';
import { registerActionRoute } from './http/action-route.js';
import { AppError } from './http/errors.js';
import { sendError } from './http/envelope.js';
import type { HandlerMap } from './http/handlers.js';
import { parse as parseQuery } from 'node:querystring';

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
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      // Bodies are never logged; headers are not in the default serializers, but be explicit.
      redact: ['req.headers.token', 'req.headers.cookie', 'req.headers.authorization'],
    },
    bodyLimit: opts.config.bodyLimitBytes,
    trustProxy: opts.config.trustProxy,
    return503OnClosing: true,
    // One id per request, in every log line and in the x-request-id answer header.
    genReqId: () => randomUUID(),
  });

  // Once shutdown starts, answers close their connection: otherwise a keep-alive client whose
  // request was in flight would hold the server open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseQuery(body as string));
  });

  // Protocol faults (malformed JSON, body too large, wrong content type) keep their HTTP status
  // and still answer the envelope in the caller's language.
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, protocolError(status), pickLang(req.headers['accept-language'] as string | undefined));
  });

  registerActionRoute(app, {
    db: opts.database.db,
    config: opts.config,
    now: opts.now,
    handlers,
    checkOutput: opts.checkOutput ?? process.env.NODE_ENV !== 'production',
  });
  serveConsole(app, opts.config.webDist);
  return app;
}

/** The envelope for a fault Fastify raises before any action runs. */
function protocolError(status: number): AppError {
  if (status === 413) return new AppError('validation', { zh: '请求内容过大', en: 'The request body is too large' }, status);
  if (status === 429) return new AppError('rateLimited', undefined, status);
  if (status >= 500) return new AppError('internal', undefined, status);
  return new AppError('validation', { zh: '请求格式有误', en: 'The request is malformed' }, status);
}

/** The built console with history fallback: any GET outside /api answers index.html. */
function serveConsole(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasConsole = !!index && fs.existsSync(index);
  if (hasConsole) app.register(fastifyStatic, { root: webDist!, index: false });
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && hasConsole && !req.url.startsWith('/api/')) {
      return reply.type('text/html').send(fs.createReadStream(index!));
    }
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    return reply.status(404).send({ errorCode: ErrorCode.notFound, errorMsg: errorMessages.notFound[lang], data: null });
  });
}
