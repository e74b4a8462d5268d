import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { applyNotice, type NoticeResult } from './machine.js';
import { activeProvider, SANDBOX_SIGNATURE_HEADER, SandboxProvider, type CashierLink, type PaymentProvider } from './payment.js';

interface Deps {
  db: Db;
  now: () => Date;
  config: Pick<Config, 'paymentProvider' | 'webDist'>;
}

/**
 * Takes one provider callback: the raw body is verified against its signature before anything is
 * read; a forged one answers 403 and changes nothing; a replay, or a callback for an order no longer
 * paying, answers 200 and changes nothing. A payment for an expired order is refused: the order is
 * not paid, the refusal is logged, and the payment is handed back to the provider to refund.
 */
async function takeCallback(
  deps: Deps,
  provider: PaymentProvider,
  rawBody: string,
  signature: string,
  log: FastifyBaseLogger,
): Promise<{ status: number; result?: NoticeResult }> {
  const notice = await provider.verify(rawBody, signature);
  if (!notice) {
    log.warn({ provider: provider.name }, 'payment callback with a bad signature refused');
    return { status: 403 };
  }
  const { result, orderid } = await applyNotice(deps.db, provider.name, notice, deps.now());
  if (result === 'expired' && notice.outcome === 'paid') {
    log.warn(
      { provider: provider.name, orderid, providerref: notice.providerref, amount: notice.amount },
      'payment callback for an expired order refused; the payment is refunded',
    );
    await provider.refund({ providerref: notice.providerref, amount: notice.amount });
  }
  return { status: 200, result };
}

/**
 * POST /pay/<provider>/callback: where the configured payment provider reports a payment (no other
 * provider's callback is taken, and with PAYMENT_PROVIDER=none none is).
 *
 * With the sandbox provider only (a development and test tool), its cashier: GET
 * /pay/sandbox/cashier?ref&amount&subject&return&exp&sig, a page of its own (cashier.html of the
 * build), and POST /pay/sandbox/pay, where that page says the buyer paid or failed. The link is
 * signed when the order is placed, so its amount cannot be changed; the sandbox then sends the shop
 * a signed callback, taken by the same code as one arriving over HTTP, and answers where to return.
 */
export async function registerPaymentRoutes(app: FastifyInstance, deps: Deps) {
  await app.register(async (scope) => {
    // The raw text, as signed (the app's own JSON parser, if any, is replaced in this scope only).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { provider: string } }>('/pay/:provider/callback', async (req, reply) => {
      const provider = activeProvider(deps.db, deps.config);
      if (!provider || provider.name !== req.params.provider) return reply.code(404).send({ ok: false });
      const signature = String(req.headers[SANDBOX_SIGNATURE_HEADER] ?? '');
      const { status, result } = await takeCallback(deps, provider, String(req.body ?? ''), signature, req.log);
      return reply.code(status).send(status === 200 ? { ok: true, result } : { ok: false });
    });
    if (deps.config.paymentProvider === 'sandbox') registerSandboxCashier(scope, deps);
  });
}

const LINK_FIELDS = ['ref', 'amount', 'subject', 'return', 'exp', 'sig'] as const;

function registerSandboxCashier(scope: FastifyInstance, deps: Deps) {
  const page = deps.config.webDist ? path.join(deps.config.webDist, 'cashier.html') : undefined;
  if (page && fs.existsSync(page))
    scope.get('/pay/sandbox/cashier', (_req, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(page)),
    );

  scope.post('/pay/sandbox/pay', async (req, reply) => {
    const refuse = (reason: string) => reply.code(403).send({ ok: false, reason });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(String(req.body ?? '')) as Record<string, unknown>;
    } catch {
      return refuse('malformed');
    }
    if (!body || typeof body !== 'object' || LINK_FIELDS.some((f) => typeof body[f] !== 'string')) return refuse('malformed');
    const link = Object.fromEntries(LINK_FIELDS.map((f) => [f, body[f] as string])) as unknown as CashierLink;
    const outcome = body.outcome;
    const sandbox = new SandboxProvider(deps.db);
    if ((outcome !== 'paid' && outcome !== 'failed') || !(await sandbox.linkHolds(link))) return refuse('forged');
    // A same-origin path only (it was signed by this server, but never send a buyer elsewhere).
    if (!/^\/[^/\\]/.test(link.return)) return refuse('forged');
    if (Number(link.exp) <= deps.now().getTime()) return refuse('expired');
    const { body: raw, signature } = await sandbox.callback({ providerref: link.ref, amount: Number(link.amount), outcome });
    const { status, result } = await takeCallback(deps, sandbox, raw, signature, req.log);
    return reply.code(status).send({ ok: status === 200, result, return: link.return });
  });
}
