import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type Lang } from '@xinli/contract';
import { AppError } from './errors.js';
import type { FileResult } from './handlers.js';

const outcome = Symbol('outcome');
declare module 'fastify' {
  interface FastifyReply {
    [outcome]?: string;
  }
}

/** How an answer sent through the envelope ended: 'ok' or the error code's name (GET /metrics counts them). */
export const replyOutcome = (reply: FastifyReply): string | undefined => reply[outcome];

/** The response envelope of DESIGN §2: { errorCode, errorMsg, data }. */
export function sendOk(reply: FastifyReply, data: unknown) {
  reply[outcome] = 'ok';
  return reply.send({ errorCode: ErrorCode.ok, errorMsg: '', data: data ?? null });
}

export function sendError(reply: FastifyReply, err: AppError, lang: Lang) {
  reply[outcome] = err.codeName;
  return reply.status(err.httpStatus).send({ errorCode: err.code, errorMsg: err.text(lang), data: null });
}

const busy = new AppError('internal', { zh: '服务器繁忙，请稍后再试', en: 'The server is busy: please try again in a moment' }, 503);

/**
 * The answer to a request whose statement found no database connection free within
 * DATABASE_POOL_WAIT_MS (db/database.ts waitedOutForConnection): 503, to be tried again in a moment.
 */
export function sendBusy(req: FastifyRequest, reply: FastifyReply, lang: Lang) {
  req.log.warn({ url: req.url }, 'no database connection came free within DATABASE_POOL_WAIT_MS');
  reply.header('retry-after', '5');
  return sendError(reply, busy, lang);
}

export function sendFile(reply: FastifyReply, file: FileResult) {
  reply[outcome] = 'ok';
  const name = file.filename.includes('.') ? file.filename : `${file.filename}.xlsx`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply.header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`);
  reply.type(file.contentType ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return reply.send(file.body);
}
