import { useState, type FormEvent } from 'react';
import { t } from '../i18n';
import { CallableText } from '../components/CallableText';
import { Screen } from '../components/Screen';
import { isMobileNumber, MobileField, NameField } from '../components/TextField';
import { useFieldProblems, type Found } from '../components/fieldProblems';

/** Name and phone of a person requesting a consultation (the form's questions follow). */
export interface ConsultContact {
  realname: string;
  phone: string;
}

/** The choice on the QR entry page: request a consultation instead of (or besides) an assessment. */
export function ConsultOffer({ onConsult }: { onConsult: () => void }) {
  return (
    <section className="r-note" aria-labelledby="consult-offer" data-testid="r-consult-offer">
      <h2 id="consult-offer" style={{ margin: '0 0 0.25rem', fontSize: '1.15rem' }}>
        {t('consult.offerHeading')}
      </h2>
      <p style={{ margin: 0 }}>{t('consult.offerIntro')}</p>
      <button type="button" className="r-btn secondary" onClick={onConsult} data-testid="r-consult">
        {t('consult.offer')}
      </button>
    </section>
  );
}

/** Who is asking: name and an 11-digit mobile number, each with its own message when missing. */
export function ConsultContactScreen({
  brand,
  initial,
  onNext,
}: {
  brand: string;
  initial: ConsultContact | null;
  onNext: (c: ConsultContact) => void;
}) {
  const [realname, setName] = useState(initial?.realname ?? '');
  const [phone, setPhone] = useState(initial?.phone ?? '');
  const { report, field } = useFieldProblems<'realname' | 'phone'>('consult-');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Found<'realname' | 'phone'> = {};
    if (!realname.trim()) found.realname = 'register.nameEmpty';
    if (!isMobileNumber(phone)) found.phone = 'register.phoneBad';
    if (report(found)) onNext({ realname: realname.trim(), phone: phone.replace(/\s/g, '') });
  };

  return (
    <Screen heading={t('consult.heading')} brand={brand}>
      <p className="r-intro">{t('consult.intro')}</p>
      <form onSubmit={submit} noValidate>
        <NameField {...field('realname')} value={realname} onValue={setName} data-testid="r-consult-realname" />
        <MobileField {...field('phone')} value={phone} onValue={setPhone} data-testid="r-consult-phone" />
        <button type="submit" className="r-btn" data-testid="r-consult-next">
          {t('consult.submit')}
        </button>
      </form>
    </Screen>
  );
}

/** The end of a consultation request: thanks, the institution's helpline (a tap calls it) and the crisis line. */
export function ConsultThanksScreen({ brand, hotline }: { brand: string; hotline: string }) {
  return (
    <Screen heading={t('consult.doneHeading')} brand={brand}>
      <p className="r-note" data-testid="r-consult-thanks">
        {t('consult.thanks')}
      </p>
      {hotline && (
        <p>
          {t('consult.hotline')}{' '}
          <a href={`tel:${hotline.replace(/[^\d+]/g, '')}`} style={{ fontWeight: 700, fontSize: '1.2rem' }} data-testid="r-consult-hotline">
            {hotline}
          </a>
        </p>
      )}
      <p>
        <CallableText text={t('consult.crisis')} />
      </p>
      <p className="r-center">{t('result.close')}</p>
    </Screen>
  );
}
