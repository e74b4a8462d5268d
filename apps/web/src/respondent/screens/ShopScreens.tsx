import { useEffect, useState, type FormEvent } from 'react';
import type { ActionOutput } from '@xinli/contract';
import { asRespondentError, call } from '../api';
import { t } from '../i18n';
import { ErrorBox, Loading, Screen } from '../components/Screen';
import { PageLink, entryHref } from '../components/PageLink';
import { isMobileNumber, TextField } from '../components/TextField';
import { useFieldProblems, type Found } from '../components/fieldProblems';
import { GenderField, type Gender } from '../components/RadioField';
import { payingOrder, rememberOrder, rememberPaying } from '../orders';
import { useLoad } from '../useLoad';

type Shop = ActionOutput<'as.c.shop.getGoods'>;
type Item = Shop['rows'][number];
type Order = ActionOutput<'as.c.shop.getOrder'>;

const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

type Step =
  { kind: 'list' } | { kind: 'buy'; item: Item; error: string | null; busy: boolean } | { kind: 'done'; order: Order; busy: boolean };

/** The order the provider's cashier sent the buyer back for (`?order=<orderid>`), if this phone is paying it. */
function returnedOrder(entrytoken: string): string | null {
  const orderid = new URLSearchParams(location.search).get('order');
  return orderid ? payingOrder(entrytoken) : null;
}

/**
 * The institution's goods (`/r/<entry>/shop`): pick one, give a name and mobile number, and go to
 * the payment provider's cashier (a page of the provider's; with the sandbox provider no money is
 * taken). The provider sends the buyer back here with `?order=`, and the order's status is shown as
 * the server has it: only the provider's signed callback pays an order, so the page only asks. With
 * no provider configured, the goods are listed but cannot be ordered, and the page says so.
 */
export function ShopScreen({ entrytoken }: { entrytoken: string }) {
  const { data: shop, error: failed } = useLoad<Shop>(() => call('as.c.shop.getGoods', { entrytoken }), entrytoken);
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const [returning, setReturning] = useState(() => returnedOrder(entrytoken));
  const brand = shop ? shop.title || shop.insname : '';

  // Back from the cashier: show the order paid (or not) there.
  useEffect(() => {
    if (!returning) return;
    let live = true;
    call('as.c.shop.getOrder', { ordertoken: returning }).then(
      (order) => {
        if (!live) return;
        const asked = new URLSearchParams(location.search).get('order');
        if (order.orderid === asked) setStep({ kind: 'done', order, busy: false });
        setReturning(null);
      },
      () => live && setReturning(null),
    );
    return () => {
      live = false;
    };
  }, [returning]);

  if (failed)
    return (
      <Screen heading={t('shop.heading')}>
        <ErrorBox message={failed.message} />
      </Screen>
    );
  if (!shop || returning)
    return (
      <Screen heading={t('shop.heading')}>
        <Loading />
      </Screen>
    );
  switch (step.kind) {
    case 'list':
      return (
        <Screen heading={t('shop.heading')} brand={brand}>
          {!shop.ordering && (
            <p className="r-note" data-testid="r-no-payment">
              {t('shop.noPayment')}
            </p>
          )}
          {shop.rows.length === 0 && <p>{t('shop.none')}</p>}
          <ul className="r-articles" data-testid="r-goods">
            {shop.rows.map((g) => (
              <li key={g.goodsid} className="r-goods-card">
                {g.coverurl && <img src={g.coverurl} alt="" />}
                <div className="r-article-text">
                  <h2 className="r-goods-name">{g.goodsname}</h2>
                  {g.description && <p className="r-article-summary">{g.description}</p>}
                  {g.grantkind !== 'none' && g.grantname && (
                    <p className="r-article-summary">
                      {t(g.grantkind === 'course' ? 'shop.grantsCourse' : 'shop.grantsPlan', { name: g.grantname })}
                    </p>
                  )}
                  <p className="r-goods-price">
                    {yuan(g.price)} <span className="r-article-date">{t('shop.stock', { n: g.stock })}</span>
                  </p>
                  {shop.ordering && (
                    <button
                      type="button"
                      className="r-btn"
                      disabled={g.stock < 1}
                      onClick={() => setStep({ kind: 'buy', item: g, error: null, busy: false })}
                      data-testid={`r-buy-${g.goodsid}`}
                    >
                      {g.stock < 1 ? t('shop.soldOut') : t('shop.buy')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </Screen>
      );
    case 'buy':
      return <BuyForm key={step.item.goodsid} entrytoken={entrytoken} brand={brand} step={step} onStep={setStep} />;
    case 'done': {
      const { order } = step;
      // Still paying: the provider's callback has not arrived yet; the buyer may ask again.
      const refresh = async () => {
        setStep({ ...step, busy: true });
        const ordertoken = payingOrder(entrytoken);
        const again = ordertoken ? await call('as.c.shop.getOrder', { ordertoken }).catch(() => order) : order;
        setStep({ kind: 'done', order: again.orderid === order.orderid ? again : order, busy: false });
      };
      const heading = order.status === 3 ? t('shop.paidHeading') : order.status === 2 ? t('shop.payingHeading') : t('shop.notPaidHeading');
      return (
        <Screen heading={heading} brand={brand}>
          <p data-testid="r-order-status">{t(`shop.status.${order.status}`)}</p>
          <p>
            {t('shop.orderNo')}: {order.orderid}
          </p>
          <p>
            {order.goodsname} × {order.quantity} · {yuan(order.amount)}
          </p>
          {order.status === 2 && (
            <p className="r-center">
              <button
                type="button"
                className="r-btn secondary"
                disabled={step.busy}
                onClick={() => void refresh()}
                data-testid="r-order-refresh"
              >
                {t('shop.refresh')}
              </button>
            </p>
          )}
          <Granted entrytoken={entrytoken} order={order} />
          <PageLink href={entryHref(entrytoken, 'shop')}>{t('shop.back')}</PageLink>
        </Screen>
      );
    }
  }
}

/** What the order gave: the course to open, the assessment code to start, or why nothing was given. */
function Granted({ entrytoken, order }: { entrytoken: string; order: Order }) {
  const g = order.grant;
  if (!g) return null;
  if (g.status === 'failed')
    return (
      <p className="r-note" data-testid="r-grant">
        {t('shop.grantFailed', { reason: g.reason })}
      </p>
    );
  if (g.status === 'revoked')
    return (
      <p className="r-note" data-testid="r-grant">
        {t('shop.grantRevoked')}
      </p>
    );
  if (g.kind === 'course')
    return (
      <div data-testid="r-grant">
        <p>{t('shop.courseReady', { name: g.name })}</p>
        <p className="r-center">
          <a className="r-btn" href={`${entryHref(entrytoken, 'media')}#course-${g.courseid}`} data-testid="r-open-course">
            {t('shop.openCourse')}
          </a>
        </p>
      </div>
    );
  return (
    <div data-testid="r-grant">
      <p>
        {t('shop.planReady')} <strong className="r-code">{g.assesscode}</strong>
      </p>
      <p className="r-center">
        <a className="r-btn" href={g.url} data-testid="r-start-plan">
          {t('shop.startPlan')}
        </a>
      </p>
    </div>
  );
}

function BuyForm({
  entrytoken,
  brand,
  step,
  onStep,
}: {
  entrytoken: string;
  brand: string;
  step: Step & { kind: 'buy' };
  onStep: (s: Step) => void;
}) {
  const [buyername, setName] = useState('');
  const [buyerphone, setPhone] = useState('');
  const [buyergender, setGender] = useState<Gender | ''>('');
  const { report, field } = useFieldProblems<'buyername' | 'buyerphone' | 'buyergender'>('buy-');
  // An assessment makes the buyer a person of the institution: scoring needs the gender.
  const asksGender = step.item.grantkind === 'plan';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Found<'buyername' | 'buyerphone' | 'buyergender'> = {};
    if (!buyername.trim()) found.buyername = 'shop.nameRequired';
    if (!isMobileNumber(buyerphone)) found.buyerphone = 'shop.phoneInvalid';
    if (asksGender && !buyergender) found.buyergender = 'shop.genderRequired';
    if (!report(found)) return;
    onStep({ ...step, busy: true, error: null });
    try {
      const placed = await call('as.c.shop.createOrder', {
        entrytoken,
        goodsid: step.item.goodsid,
        quantity: 1,
        buyername: buyername.trim(),
        buyerphone: buyerphone.replace(/\s/g, ''),
        ...(asksGender && buyergender ? { buyergender } : {}),
      });
      rememberOrder(entrytoken, placed.ordertoken);
      rememberPaying(entrytoken, placed.ordertoken);
      // To the provider's cashier; it sends the buyer back here (?order=) once paid or not.
      location.assign(placed.payment.cashierurl);
    } catch (err) {
      onStep({ ...step, busy: false, error: asRespondentError(err).message });
    }
  };
  return (
    <Screen heading={step.item.goodsname} brand={brand}>
      <p className="r-goods-price">{yuan(step.item.price)}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          {...field('buyername')}
          label={t('shop.name')}
          value={buyername}
          onValue={setName}
          autoComplete="name"
          data-testid="r-buyer-name"
        />
        <TextField
          {...field('buyerphone')}
          label={t('shop.phone')}
          value={buyerphone}
          onValue={setPhone}
          inputMode="tel"
          autoComplete="tel"
          data-testid="r-buyer-phone"
        />
        {asksGender && (
          <GenderField
            {...field('buyergender')}
            legend={t('shop.gender')}
            value={buyergender}
            onChoose={setGender}
            testIdPrefix="r-buyer-gender-"
          />
        )}
        <ErrorBox message={step.error} />
        <button type="submit" className="r-btn" disabled={step.busy} data-testid="r-order">
          {t('shop.order')}
        </button>
      </form>
    </Screen>
  );
}
