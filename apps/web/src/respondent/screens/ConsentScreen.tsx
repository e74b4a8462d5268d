import { useRef, useState } from 'react';
import { local, t } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';
import { SignatureBox, type SignatureHandle } from '../components/SignatureBox';
import type { ReactNode } from 'react';

/**
 * The consent: the institution's text (or ours when it has none), "I agree", and a signature.
 * The signature PNG goes to the server, which keeps it with the person's archive.
 */
export function ConsentScreen(props: {
  text: { zh: string; en: string };
  brand: string;
  progress: ReactNode;
  error: string | null;
  busy: boolean;
  onSign: (png: string) => void;
  onRetry?: () => void;
}) {
  const [agreed, setAgreed] = useState(false);
  const [empty, setEmpty] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const pad = useRef<SignatureHandle>(null);
  const text = local(props.text) || t('consent.defaultText');

  const submit = () => {
    if (!agreed) return setProblem(t('consent.agreeEmpty'));
    if (pad.current?.isEmpty() ?? true) return setProblem(t('consent.signEmpty'));
    setProblem(null);
    props.onSign(pad.current!.toPng());
  };

  return (
    <Screen heading={t('consent.heading')} brand={props.brand} progress={props.progress}>
      <p className="r-intro">{t('consent.intro')}</p>
      <div className="r-text" data-testid="r-consent-text">
        {text}
      </div>
      <label className="r-check">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(e) => {
            setAgreed(e.target.checked);
            setProblem(null);
          }}
          data-testid="r-agree"
        />
        <span>{t('consent.agree')}</span>
      </label>
      <p className="r-label">{t('consent.signLabel')}</p>
      <SignatureBox
        ref={pad}
        onChange={(isEmpty) => {
          setEmpty(isEmpty);
          // A stale "please sign first" must not stay under a signature.
          if (!isEmpty) setProblem(null);
        }}
      />
      <button type="button" className="r-btn secondary" onClick={() => pad.current?.clear()} disabled={empty} data-testid="r-sign-clear">
        {t('consent.clear')}
      </button>
      <ErrorBox message={problem ?? props.error} onRetry={problem ? undefined : props.onRetry} />
      <button type="button" className="r-btn" disabled={props.busy} onClick={submit} data-testid="r-sign">
        {props.busy ? t('saving') : t('consent.submit')}
      </button>
    </Screen>
  );
}
