import type { FastifyInstance } from 'fastify';
import { pickLang, WARNING_CODE } from '@xinli/contract';
import type { Config } from '../../config.js';
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { createCtx, type Caller } from '../../http/context.js';
import { sendError } from '../../http/envelope.js';
import { openEventStreams } from '../../kit/metrics.js';
import { type CallerCache, holds, authenticate } from '../auth/index.js';
import { writeAudit } from '../audit/index.js';
import { channelFromConfig } from './channel.js';
import { onWarnEvent, type WarnEvent } from './events.js';
import { unreadCount } from './notifications.js';
import { configureOutbound, enqueueSweep } from './jobs.js';

/**
 * GET /api/events: the live stream of the navbar badge (server-sent events). The token travels
 * in the `token` header as for actions (the console reads the stream with fetch), and the caller
 * must hold the warning code. Each message is `event: warning` with data
 * `{"kind","caseid","level","count"}`: what happened, the case, its level and the caller's unread
 * count; never a name or phone. The first message (`event: ready`) carries the count alone. A
 * comment line every HEARTBEAT_MS keeps proxies from closing an idle stream.
 */
export const EVENTS_PATH = '/api/events';
const HEARTBEAT_MS = 25_000;

export interface WarningDeps {
  db: Db;
  config: Config;
  now: () => Date;
  callers?: CallerCache;
  /** The process's change feed, which tells the warning events (WARN_CHANNEL) among its channels. */
  feed: ChangeFeed;
}

/** Whether the caller hears of an event: its own institution's staff; escalations only its administrators (the account itself). */
export const hears = (caller: Caller, e: WarnEvent) =>
  e.musercode === caller.musercode && (e.kind !== 'escalated' || caller.userid === null);

/** Registers the stream and the outbound messages of warnings. */
export function registerWarnings(app: FastifyInstance, deps: WarningDeps): void {
  // Open streams end when the server closes (otherwise they would hold it open).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get(EVENTS_PATH, async (req, reply) => {
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    const header = req.headers.token;
    const token = Array.isArray(header) ? header[0] : header;
    let caller: Caller;
    try {
      caller = await authenticate(deps.db, deps.config, deps.now(), token, deps.callers);
      if (!holds(caller, WARNING_CODE)) throw new AppError('permissionDenied');
    } catch (err) {
      if (err instanceof AppError) return sendError(reply, err, lang);
      throw err;
    }
    const ctx = createCtx({ db: deps.db, config: deps.config, now: deps.now, lang, ip: req.ip, requestId: req.id, caller, writeAudit });
    reply.hijack();
    const res = reply.raw;
    // Hijacked: the headers set on the reply so far (the security headers) are written here.
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('ready', { count: await unreadCount(ctx) });
    // Events are handled one after another so counts arrive in order.
    let chain = Promise.resolve();
    const unsubscribe = onWarnEvent(deps.feed, (e) => {
      if (!hears(caller, e)) return;
      chain = chain.then(async () => {
        try {
          // The session may have ended since the stream opened: then the stream ends too.
          await authenticate(deps.db, deps.config, deps.now(), token, deps.callers);
          send('warning', { kind: e.kind, caseid: e.caseid, level: e.level, count: await unreadCount(ctx) });
        } catch {
          res.end();
        }
      });
    });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    openEventStreams.inc();
    let open = true;
    const stop = () => {
      if (open) openEventStreams.dec();
      open = false;
      clearInterval(beat);
      unsubscribe();
      streams.delete(end);
    };
    const end = () => {
      stop();
      res.end();
    };
    streams.add(end);
    res.on('close', stop);
  });

  // Outbound messages of this database go through the configured channel; the hourly
  // missed-deadline sweep is queued once the server is ready (one job per hour, whoever asks).
  configureOutbound(deps.db, { channel: channelFromConfig(deps.config), publicBaseUrl: deps.config.publicBaseUrl });
  app.addHook('onReady', async () => {
    await enqueueSweep(deps.db, deps.now(), deps.now());
  });
}
