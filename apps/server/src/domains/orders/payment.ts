import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { newId } from '../../kit/index.js';
import { paySetting } from './tables.js';

/** What a provider's callback says happened to one payment. */
export interface PaymentNotice {
  /** The provider's own id of this callback: the same id twice is a replay. */
  callbackid: string;
  providerref: string;
  amount: number;
  outcome: 'paid' | 'failed';
}

/**
 * A payment provider (DESIGN §5 orders): starts a payment, verifies the callbacks it sends, and
 * refunds. Real providers (WeChat Pay, Alipay) implement the same three; the built-in sandbox
 * needs no network.
 */
export interface PaymentProvider {
  readonly name: string;
  start(order: { orderid: string; amount: number }): Promise<{ providerref: string }>;
  /** The notice of a callback whose signature holds; null for a forged or malformed one. */
  verify(rawBody: string, signature: string): Promise<PaymentNotice | null>;
  refund(payment: { providerref: string; amount: number }): Promise<void>;
}

/** The sandbox's signing secret: one random value kept in the database, shared by every process. */
async function sandboxSecret(db: DbOrTx): Promise<Buffer> {
  await db
    .insert(paySetting)
    .values({ name: 'sandboxsecret', value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: paySetting.value }).from(paySetting).where(eq(paySetting.name, 'sandboxsecret'));
  return Buffer.from(row!.value, 'hex');
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * The built-in sandbox provider: payments succeed or fail as the buyer chooses on its cashier;
 * each outcome is a callback body signed with HMAC-SHA256 under the sandbox secret, checked
 * exactly as a real provider's callback would be.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  constructor(private readonly db: DbOrTx) {}

  async start() {
    return { providerref: newId('PY') };
  }

  async sign(rawBody: string): Promise<string> {
    return createHmac('sha256', await sandboxSecret(this.db))
      .update(rawBody)
      .digest('hex');
  }

  /** What the sandbox's cashier sends when the buyer pays or gives up. */
  async callback(notice: Omit<PaymentNotice, 'callbackid'>): Promise<{ body: string; signature: string }> {
    const body = JSON.stringify({ ...notice, callbackid: randomBytes(12).toString('hex') });
    return { body, signature: await this.sign(body) };
  }

  async verify(rawBody: string, signature: string): Promise<PaymentNotice | null> {
    const expected = Buffer.from(await this.sign(rawBody), 'hex');
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const n = JSON.parse(rawBody) as PaymentNotice;
      if (
        typeof n.callbackid !== 'string' ||
        typeof n.providerref !== 'string' ||
        !Number.isInteger(n.amount) ||
        (n.outcome !== 'paid' && n.outcome !== 'failed')
      )
        return null;
      return { callbackid: n.callbackid, providerref: n.providerref, amount: n.amount, outcome: n.outcome };
    } catch {
      return null;
    }
  }

  async refund() {}
}

export function providerOf(db: DbOrTx, name: string): PaymentProvider | null {
  return name === 'sandbox' ? new SandboxProvider(db) : null;
}
