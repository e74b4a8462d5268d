import { useState } from 'react';
import { currentLang, t, useLang } from '../respondent/i18n';
import { ErrorBox, Screen } from '../respondent/components/Screen';

/** The payment the shop signed into the cashier link (every field is covered by `sig`). */
type Link = { ref: string; amount: string; subject: string; return: string; exp: string; sig: string };

const FIELDS = ['ref', 'amount', 'subject', 'return', 'exp', 'sig'] as const;
const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
/** A path of this server only: the cashier never sends the buyer to another site. */
const sameOrigin = (url: string) => /^\/[^/\\]/.test(url);

function linkOf(search: string): Link | null {
  const q = new URLSearchParams(search);
  const link = Object.fromEntries(FIELDS.map((f) => [f, q.get(f) ?? ''])) as Link;
  return FIELDS.every((f) => link[f]) && sameOrigin(link.return) ? link : null;
}

/**
 * The buyer pays or fails here. The answer says what the shop did with the callback; the cashier then
 * sends the buyer back to the shop, which shows the order as the server has it. A refusal (a link
 * changed or expired, an order no longer paying) is shown here, with the way back.
 */
export function CashierPage() {
  useLang();
  const [link] = useState(() => linkOf(location.search));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(link ? null : t('cashier.refused'));

  const pay = async (outcome: 'paid' | 'failed') => {
    if (!link) return;
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/pay/sandbox/pay', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': currentLang() },
        body: JSON.stringify({ ...link, outcome }),
      });
      const body = (await res.json().catch(() => ({}))) as { ok?: boolean; result?: string; reason?: string };
      if (res.ok && body.result === 'applied') return location.assign(link.return);
      setError(
        body.result === 'expired' || body.reason === 'expired'
          ? t('cashier.expired')
          : res.ok
            ? t('cashier.notPaying')
            : t('cashier.refused'),
      );
    } catch {
      setError(t('networkError'));
    }
    setBusy(false);
  };

  return (
    <Screen heading={t('cashier.heading')} brand={t('cashier.heading')}>
      <p className="r-note" data-testid="cashier-note">
        {t('cashier.sandboxNote')}
      </p>
      {link && (
        <>
          <p data-testid="cashier-subject">
            {t('cashier.subject')}: {link.subject}
          </p>
          <p className="r-goods-price" data-testid="cashier-amount">
            {t('cashier.toPay', { amount: yuan(Number(link.amount)) })}
          </p>
        </>
      )}
      <ErrorBox message={error} />
      {link && (
        <div className="r-actions">
          <button type="button" className="r-btn" disabled={busy} onClick={() => void pay('paid')} data-testid="cashier-pay">
            {t('cashier.pay')}
          </button>
          <button type="button" className="r-btn secondary" disabled={busy} onClick={() => void pay('failed')} data-testid="cashier-fail">
            {t('cashier.payFail')}
          </button>
        </div>
      )}
      {link && (
        <p className="r-center">
          <a className="r-link" href={link.return} data-testid="cashier-back">
            {t('cashier.back')}
          </a>
        </p>
      )}
    </Screen>
  );
}
