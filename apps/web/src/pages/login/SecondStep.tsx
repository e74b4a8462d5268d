import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode, type Enrolment, type SignInChallenge, type UserRecord } from '@xinli/contract';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import { ApiError, call } from '../../api/client';
import { Icon } from './icons';

interface Props {
  challenge: SignInChallenge;
  onSignedIn: (record: UserRecord) => void;
  /** Back to the username and password (a timed-out challenge, or the user's choice). */
  onBack: () => void;
}

/**
 * The second sign-in step (issue 30 §1): a code of the authenticator, or a recovery code; or, when
 * the administrator requires a second factor not yet set up, enrolment (QR code, first code, the
 * ten recovery codes shown once) and then the console. Plain HTML like the password step.
 */
export default function SecondStep({ challenge, onSignedIn, onBack }: Props) {
  return challenge.secondfactor === 'code' ? (
    <CodeStep challenge={challenge} onSignedIn={onSignedIn} onBack={onBack} />
  ) : (
    <EnrolStep challenge={challenge} onSignedIn={onSignedIn} onBack={onBack} />
  );
}

function useStepError() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const show = (err: unknown) =>
    setError(
      err instanceof ApiError && err.code === ErrorCode.wrongCredentials
        ? t('shell.login.wrongCode')
        : err instanceof Error
          ? err.message
          : String(err),
    );
  const banner = error && (
    <div role="alert" className="login-error" data-testid="login-error">
      <Icon icon={CloseCircleFilled} /> <span>{error}</span>
    </div>
  );
  return { show, clear: () => setError(null), banner };
}

/** One code field: six digits, or a recovery code; the one-time-code autocomplete lets phones fill it. */
function CodeField({
  recovery,
  value,
  onChange,
  invalid,
}: {
  recovery: boolean;
  value: string;
  onChange: (v: string) => void;
  invalid?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`login-field${invalid ? ' has-error' : ''}`}>
      <label htmlFor={id}>{t(recovery ? 'shell.login.recoveryCode' : 'shell.login.code')}</label>
      <div className="login-input">
        <Icon icon={SafetyCertificateOutlined} />
        <input
          id={id}
          autoFocus
          name={recovery ? 'recoverycode' : 'code'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={recovery ? 16 : 6}
          placeholder={recovery ? 'XXXXX-XXXXX' : '000000'}
          aria-invalid={!!invalid}
          aria-describedby={invalid ? `${id}-help` : undefined}
          value={value}
          onChange={(e) => onChange(recovery ? e.target.value : e.target.value.replace(/\D/g, ''))}
          data-testid={recovery ? 'login-recovery' : 'login-code'}
        />
      </div>
      {invalid && (
        <div id={`${id}-help`} className="login-help">
          {invalid}
        </div>
      )}
    </div>
  );
}

function Submit({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  return (
    <button type="submit" className="login-submit" disabled={busy} aria-busy={busy} data-testid="login-verify">
      {busy && <Icon icon={LoadingOutlined} className="login-spin" />}
      {busy ? t('shell.login.verifying') : t('shell.login.verify')}
    </button>
  );
}

function CodeStep({ challenge, onSignedIn, onBack }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const [busy, setBusy] = useState(false);
  const error = useStepError();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const given = value.trim();
    const bad = recovery
      ? given
        ? undefined
        : t('shell.login.recoveryRequired')
      : /^\d{6}$/.test(given)
        ? undefined
        : t('shell.login.codeRequired');
    setInvalid(bad);
    if (bad || busy) return;
    setBusy(true);
    error.clear();
    try {
      const input = recovery ? { challenge: challenge.challenge, recoverycode: given } : { challenge: challenge.challenge, code: given };
      onSignedIn(await call('as.m.user.loginSecondFactor', input, { silent: true }));
    } catch (err) {
      error.show(err);
      setValue('');
      setBusy(false);
    }
  };

  return (
    <>
      <h1 className="login-title">{t('shell.login.codeTitle')}</h1>
      <p className="login-welcome">{t(recovery ? 'shell.login.recoveryHint' : 'shell.login.codeHint')}</p>
      {error.banner}
      <form noValidate onSubmit={(e) => void submit(e)} data-testid="login-second-step">
        <CodeField
          key={String(recovery)}
          recovery={recovery}
          value={value}
          onChange={(v) => (setValue(v), setInvalid(undefined))}
          invalid={invalid}
        />
        <Submit busy={busy} />
      </form>
      <div className="login-links">
        <button
          type="button"
          className="login-link"
          onClick={() => (setRecovery((r) => !r), setValue(''), setInvalid(undefined))}
          data-testid="login-use-recovery"
        >
          {t(recovery ? 'shell.login.useCode' : 'shell.login.useRecovery')}
        </button>
        <button type="button" className="login-link" onClick={onBack} data-testid="login-back">
          {t('shell.login.back')}
        </button>
      </div>
    </>
  );
}

function EnrolStep({ challenge, onSignedIn, onBack }: Props) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [done, setDone] = useState<{ user: UserRecord; recoverycodes: string[] } | null>(null);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const [busy, setBusy] = useState(false);
  const error = useStepError();
  const { show } = error;

  useEffect(() => {
    call('as.m.user.enrolSecondFactor', { challenge: challenge.challenge }, { silent: true }).then(setEnrolment, show);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per challenge
  }, [challenge.challenge]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const bad = /^\d{6}$/.test(value) ? undefined : t('shell.login.codeRequired');
    setInvalid(bad);
    if (bad || busy) return;
    setBusy(true);
    error.clear();
    try {
      setDone(await call('as.m.user.confirmSecondFactor', { challenge: challenge.challenge, code: value }, { silent: true }));
    } catch (err) {
      show(err);
      setValue('');
    }
    setBusy(false);
  };

  if (done) {
    return (
      <>
        <h1 className="login-title">{t('shell.login.recoveryTitle')}</h1>
        <p className="login-welcome">{t('shell.login.recoveryShown')}</p>
        <RecoveryCodes codes={done.recoverycodes} />
        <button type="button" className="login-submit" onClick={() => onSignedIn(done.user)} data-testid="login-continue">
          {t('shell.login.continue')}
        </button>
      </>
    );
  }
  return (
    <>
      <h1 className="login-title">{t('shell.login.enrolTitle')}</h1>
      <p className="login-welcome">{t('shell.login.enrolHint')}</p>
      {error.banner}
      {enrolment ? <EnrolmentCode enrolment={enrolment} /> : <div className="login-qr-wait" aria-busy="true" />}
      <form noValidate onSubmit={(e) => void submit(e)} data-testid="login-second-step">
        <CodeField recovery={false} value={value} onChange={(v) => (setValue(v), setInvalid(undefined))} invalid={invalid} />
        <Submit busy={busy || !enrolment} />
      </form>
      <div className="login-links">
        <button type="button" className="login-link" onClick={onBack} data-testid="login-back">
          {t('shell.login.back')}
        </button>
      </div>
    </>
  );
}

/** The QR code of the otpauth:// URI, and its key for typing in by hand. */
export function EnrolmentCode({ enrolment }: { enrolment: Enrolment }) {
  const { t } = useTranslation();
  return (
    <div className="login-qr">
      <img src={enrolment.qr} alt={t('shell.login.qrAlt')} width={160} height={160} data-testid="enrol-qr" data-uri={enrolment.uri} />
      <div>
        <div className="login-qr-label">{t('shell.login.secretLabel')}</div>
        <code className="login-secret" data-testid="enrol-secret">
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </div>
    </div>
  );
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <ol className="login-recovery-codes" data-testid="recovery-codes">
      {codes.map((c) => (
        <li key={c}>
          <code>{c}</code>
        </li>
      ))}
    </ol>
  );
}
