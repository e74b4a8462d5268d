import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInChallenge, UserRecord } from '@xinli/contract';
import { ErrorCode } from '@xinli/contract';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import AlertOutlined from '@ant-design/icons-svg/es/asn/AlertOutlined';
import FolderOpenOutlined from '@ant-design/icons-svg/es/asn/FolderOpenOutlined';
import { ApiError, call } from '../../api/client';
import { hashPassword } from '../../auth/password';
import { clearSignedOut } from '../../auth/sign-in';
import { LOGOUT_NAME_KEY, REMEMBER_KEY } from '../../auth/storage';
import { Icon } from './icons';
import LanguageMenu from './LanguageMenu';
import SecondStep from './SecondStep';
import './login.css';

interface Props {
  /** Takes the user record answered by as.m.user.login (the console's session, or main.tsx before the console loads). */
  onSignedIn: (record: UserRecord) => void;
  /** Called when the form is first used: main.tsx starts fetching the console meanwhile. */
  onUse?: () => void;
}

type Field = 'username' | 'password';

/**
 * The sign-in page (SPEC §2, §5): trimmed username, uppercase-MD5 password, remembered username.
 * Plain HTML and CSS in the console's colours, without antd: it is the first page most visitors
 * load, and main.tsx shows it before the console's code arrives (bench/web).
 */
export default function Login({ onSignedIn, onUse }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [initial] = useState(() => {
    const remembered = localStorage.getItem(REMEMBER_KEY);
    return { username: remembered ?? sessionStorage.getItem(LOGOUT_NAME_KEY) ?? '', remember: remembered !== null };
  });
  const [username, setUsername] = useState(initial.username);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(initial.remember);
  const [showPassword, setShowPassword] = useState(false);
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Set when the password was right and a second factor is to come (issue 30 §1). */
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);

  useEffect(() => {
    document.title = t('shell.appTitle');
  }, [t]);
  useEffect(clearSignedOut, []);

  const check = (field: Field, value: string) =>
    field === 'username'
      ? value.trim()
        ? undefined
        : t('shell.login.usernameRequired')
      : value
        ? undefined
        : t('shell.login.passwordRequired');

  // Like a form field of the console: checked as it changes, and a change hides the last refusal.
  const change = (field: Field, value: string) => {
    (field === 'username' ? setUsername : setPassword)(value);
    setInvalid((v) => ({ ...v, [field]: check(field, value) }));
    setError(null);
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const found = { username: check('username', username), password: check('password', password) };
    setInvalid(found);
    if (found.username || found.password) {
      document.getElementById(`${id}-${found.username ? 'username' : 'password'}`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const name = username.trim();
    try {
      const record = await call('as.m.user.login', { username: name, pwd: hashPassword(password) }, { silent: true });
      if (remember) localStorage.setItem(REMEMBER_KEY, name);
      else localStorage.removeItem(REMEMBER_KEY);
      if ('challenge' in record) {
        setChallenge(record);
        setPassword('');
        setBusy(false);
        return;
      }
      // The /login route sends the now signed-in user on to ?redirect= (App.tsx).
      onSignedIn(record);
    } catch (err) {
      setError(messageOf(err, t));
      setBusy(false);
    }
  };

  const fieldProps = (field: Field) => ({
    id: `${id}-${field}`,
    'aria-invalid': !!invalid[field],
    'aria-describedby': invalid[field] ? `${id}-${field}-help` : undefined,
    'data-testid': `login-${field}`,
  });
  const help = (field: Field) =>
    invalid[field] && (
      <div id={`${id}-${field}-help`} className="login-help">
        {invalid[field]}
      </div>
    );

  return (
    <div className="login-page">
      <div className="login-lang">
        <LanguageMenu />
      </div>
      <section className="login-brand" aria-hidden="true">
        <div className="login-brand-inner">
          <img src="/logo.svg" alt="" width={56} height={56} />
          <h2>{t('shell.appShort')}</h2>
          <p>{t('shell.login.subtitle')}</p>
          <ul>
            <li>
              <Icon icon={SafetyCertificateOutlined} /> {t('shell.login.feature1')}
            </li>
            <li>
              <Icon icon={AlertOutlined} /> {t('shell.login.feature2')}
            </li>
            <li>
              <Icon icon={FolderOpenOutlined} /> {t('shell.login.feature3')}
            </li>
          </ul>
        </div>
      </section>
      <main className="login-main">
        <div className="login-card">
          {challenge ? (
            <SecondStep challenge={challenge} onSignedIn={onSignedIn} onBack={() => setChallenge(null)} />
          ) : (
            <>
              <h1 className="login-title">{t('shell.appTitle')}</h1>
              <p className="login-welcome">{t('shell.login.welcome')}</p>
              {error && (
                <div role="alert" className="login-error" data-testid="login-error">
                  <Icon icon={CloseCircleFilled} /> <span>{error}</span>
                </div>
              )}
              <form noValidate onFocus={onUse} onSubmit={(e) => void submit(e)}>
                <div className={`login-field${invalid.username ? ' has-error' : ''}`}>
                  <label htmlFor={`${id}-username`}>{t('shell.login.username')}</label>
                  <div className="login-input">
                    <Icon icon={UserOutlined} />
                    <input
                      {...fieldProps('username')}
                      name="username"
                      type="text"
                      autoComplete="username"
                      placeholder={t('shell.login.username')}
                      maxLength={64}
                      value={username}
                      onChange={(e) => change('username', e.target.value)}
                    />
                  </div>
                  {help('username')}
                </div>
                <div className={`login-field${invalid.password ? ' has-error' : ''}`}>
                  <label htmlFor={`${id}-password`}>{t('shell.login.password')}</label>
                  <div className="login-input">
                    <Icon icon={LockOutlined} />
                    <input
                      {...fieldProps('password')}
                      name="password"
                      type={showPassword ? 'text' : 'password'}
                      autoComplete="current-password"
                      placeholder={t('shell.login.password')}
                      value={password}
                      onChange={(e) => change('password', e.target.value)}
                    />
                    <button
                      type="button"
                      className="login-eye"
                      aria-label={t(showPassword ? 'shell.login.hidePassword' : 'shell.login.showPassword')}
                      aria-pressed={showPassword}
                      onClick={() => setShowPassword((s) => !s)}
                    >
                      <Icon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
                    </button>
                  </div>
                  {help('password')}
                </div>
                <label className="login-remember">
                  <input
                    type="checkbox"
                    checked={remember}
                    onChange={(e) => {
                      setRemember(e.target.checked);
                      setError(null);
                    }}
                    data-testid="login-remember"
                  />
                  {t('shell.login.remember')}
                </label>
                <button type="submit" className="login-submit" disabled={busy} aria-busy={busy} data-testid="login-submit">
                  {busy && <Icon icon={LoadingOutlined} className="login-spin" />}
                  {busy ? t('shell.login.submitting') : t('shell.login.submit')}
                </button>
              </form>
            </>
          )}
          <p className="login-footer">{t('shell.login.footer')}</p>
        </div>
      </main>
    </div>
  );
}

function messageOf(err: unknown, t: (k: string) => string): string {
  if (err instanceof ApiError) {
    if (err.code === ErrorCode.wrongCredentials) return t('shell.login.wrongCredentials');
    // The server's locked message says how long; fall back to ours.
    if (err.code === ErrorCode.locked) return err.message || t('shell.login.locked');
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
