import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
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

/** What the shop asks a provider to collect: the provider answers where the buyer pays (its cashier). */
export interface PaymentRequest {
  orderid: string;
  amount: number;
  /** What is bought, shown on the cashier. */
  subject: string;
  /** Where the cashier sends the buyer back (a path of this server). */
  returnurl: string;
  /** After this the cashier takes no payment (the order expires then). */
  expiresat: Date;
}

/**
 * A payment provider (DESIGN §5 orders): starts a payment (answering its cashier's address), verifies
 * the callbacks it sends, and refunds. Only a verified callback moves an order to paid (machine.ts
 * applyNotice); nothing the buyer's page sends can. Real providers (WeChat Pay, Alipay) implement
 * the same three; the built-in sandbox is a development and test tool (PAYMENT_PROVIDER=sandbox).
 */
export interface PaymentProvider {
  readonly name: string;
  /** `tx` is the transaction the order is made in: what a provider keeps in this database is read and written there. */
  start(payment: PaymentRequest, tx: DbOrTx): Promise<{ providerref: string; cashierurl: string }>;
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

/** The fields of a sandbox cashier link, every one covered by its signature. */
export interface CashierLink {
  ref: string;
  amount: string;
  subject: string;
  return: string;
  exp: string;
  sig: string;
}

const hex = (s: string) => (/^[0-9a-f]{64}$/.test(s) ? Buffer.from(s, 'hex') : Buffer.alloc(0));
const sameHmac = (a: Buffer, b: Buffer) => a.length === b.length && a.length > 0 && timingSafeEqual(a, b);

/**
 * The built-in sandbox provider, for development and tests only (PAYMENT_PROVIDER=sandbox; the
 * embedded demo's default). Its cashier is a page of its own (`/pay/sandbox/cashier`, sandbox.ts)
 * whose link carries the payment signed by the merchant, as a real provider's page-pay link does,
 * so the buyer cannot change the amount; there the buyer pays or fails, and the sandbox then sends
 * the shop a callback signed with HMAC-SHA256 under the sandbox secret, checked exactly as a real
 * provider's would be.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  constructor(private readonly db: DbOrTx) {}

  async start(p: PaymentRequest, tx: DbOrTx) {
    const providerref = newId('PY');
    const link = {
      ref: providerref,
      amount: String(p.amount),
      subject: p.subject,
      return: p.returnurl,
      exp: String(p.expiresat.getTime()),
    };
    const query = new URLSearchParams({ ...link, sig: await this.signLink(link, tx) });
    return { providerref, cashierurl: `/pay/sandbox/cashier?${query}` };
  }

  async sign(rawBody: string, db: DbOrTx = this.db): Promise<string> {
    return createHmac('sha256', await sandboxSecret(db))
      .update(rawBody)
      .digest('hex');
  }

  private signLink(l: Omit<CashierLink, 'sig'>, db: DbOrTx = this.db): Promise<string> {
    // A prefix no callback body (JSON) starts with: a link's signature never passes for a callback.
    return this.sign(['cashier', l.ref, l.amount, l.subject, l.return, l.exp].join('\n'), db);
  }

  /** Whether a cashier link is one this sandbox signed, unchanged. */
  async linkHolds(l: CashierLink): Promise<boolean> {
    return sameHmac(hex(await this.signLink(l)), hex(l.sig));
  }

  /** What the sandbox's cashier sends when the buyer pays or fails. */
  async callback(notice: Omit<PaymentNotice, 'callbackid'>): Promise<{ body: string; signature: string }> {
    const body = JSON.stringify({ ...notice, callbackid: randomBytes(12).toString('hex') });
    return { body, signature: await this.sign(body) };
  }

  async verify(rawBody: string, signature: string): Promise<PaymentNotice | null> {
    if (!sameHmac(hex(await this.sign(rawBody)), hex(signature))) return null;
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

/**
 * The provider that takes new payments and callbacks, as configured: null with PAYMENT_PROVIDER=none
 * (the shop then takes no order, and no callback route answers).
 */
export function activeProvider(db: DbOrTx, config: Pick<Config, 'paymentProvider'>): PaymentProvider | null {
  return config.paymentProvider === 'sandbox' ? new SandboxProvider(db) : null;
}

/** The provider an existing order was paid with (to refund it), whichever is configured now. */
export function providerOf(db: DbOrTx, name: string): PaymentProvider | null {
  return name === 'sandbox' ? new SandboxProvider(db) : null;
}
