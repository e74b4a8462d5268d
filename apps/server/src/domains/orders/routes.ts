import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { applyNotice } from './machine.js';
import { providerOf, SANDBOX_SIGNATURE_HEADER } from './payment.js';

/**
 * POST /pay/<provider>/callback: where a payment provider reports a payment. The raw body is
 * verified against its signature before anything is read; a forged one answers 403 and changes
 * nothing, a replay or a callback for an order no longer paying answers 200 and changes nothing.
 */
export async function registerPaymentRoutes(app: FastifyInstance, deps: { db: Db; now: () => Date }) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { provider: string } }>('/pay/:provider/callback', async (req, reply) => {
      const provider = providerOf(deps.db, req.params.provider);
      if (!provider) return reply.code(404).send({ ok: false });
      const signature = String(req.headers[SANDBOX_SIGNATURE_HEADER] ?? '');
      const notice = await provider.verify(String(req.body ?? ''), signature);
      if (!notice) {
        req.log.warn({ provider: provider.name }, 'payment callback with a bad signature refused');
        return reply.code(403).send({ ok: false });
      }
      const result = await applyNotice(deps.db, provider.name, notice, deps.now());
      return reply.send({ ok: true, result });
    });
  });
}
