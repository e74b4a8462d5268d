import { useId, useState, type FormEvent } from 'react';
import { t } from '../i18n';
import { ErrorBox, Screen } from '../components/Screen';

/** The start page: type the assessment code from the slip or text message. */
export function StartScreen({
  error,
  busy,
  onStart,
  onRetry,
  initialCode = '',
}: {
  error: string | null;
  busy: boolean;
  onStart: (code: string) => void;
  onRetry?: () => void;
  initialCode?: string;
}) {
  const [code, setCode] = useState(initialCode);
  const [empty, setEmpty] = useState(false);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = code.replace(/[\s-]/g, '');
    setEmpty(!typed);
    if (typed) onStart(typed.toUpperCase());
  };
  const message = empty ? t('start.empty') : error;
  // A failure worth trying again (network, a busy server) is no fault of the code typed.
  const retry = empty ? undefined : onRetry;
  return (
    <Screen heading={t('start.heading')}>
      <p className="r-intro">{t('start.intro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="r-field">
          <label className="r-label" htmlFor={id}>
            {t('start.codeLabel')}
          </label>
          <span className="r-hint" id={`${id}-hint`}>
            {t('start.codeHint')}
          </span>
          <input
            id={id}
            className="r-input code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            aria-invalid={!!message && !retry}
            data-testid="r-code"
          />
        </div>
        <ErrorBox message={message} onRetry={retry} />
        <button type="submit" className="r-btn" disabled={busy} data-testid="r-start">
          {busy ? t('loading') : t('start.submit')}
        </button>
      </form>
    </Screen>
  );
}
