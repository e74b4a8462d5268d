import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { LockOutlined, UserOutlined, SafetyCertificateOutlined, AlertOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@xinli/contract';
import { ApiError, call } from '../../api';
import { hashPassword } from '../../auth/password';
import { clearSignedOut, useSession } from '../../auth/session';
import { LOGOUT_NAME_KEY, REMEMBER_KEY } from '../../auth/storage';
import LanguageSwitch from '../../layout/LanguageSwitch';
import './login.css';

interface Values {
  username: string;
  password: string;
  remember: boolean;
}

/** The sign-in page (SPEC §2, §5): trimmed username, uppercase-MD5 password, remembered username. */
export default function Login() {
  const { t } = useTranslation();
  const { signIn } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remembered = localStorage.getItem(REMEMBER_KEY);

  useEffect(() => {
    document.title = t('shell.appTitle');
  }, [t]);
  useEffect(clearSignedOut, []);

  const submit = async (values: Values) => {
    setBusy(true);
    setError(null);
    const username = values.username.trim();
    try {
      const record = await call('as.m.user.login', { username, pwd: hashPassword(values.password) }, { silent: true });
      if (values.remember) localStorage.setItem(REMEMBER_KEY, username);
      else localStorage.removeItem(REMEMBER_KEY);
      // The /login route sends the now signed-in user on to ?redirect= (App.tsx).
      signIn(record);
    } catch (err) {
      setError(messageOf(err, t));
      setBusy(false);
    }
  };

  return (
    <div className="login-page">
      <div className="login-lang">
        <LanguageSwitch showLabel />
      </div>
      <section className="login-brand" aria-hidden="true">
        <div className="login-brand-inner">
          <img src="/logo.svg" alt="" width={56} height={56} />
          <h2>{t('shell.appShort')}</h2>
          <p>{t('shell.login.subtitle')}</p>
          <ul>
            <li>
              <SafetyCertificateOutlined /> {t('shell.login.feature1')}
            </li>
            <li>
              <AlertOutlined /> {t('shell.login.feature2')}
            </li>
            <li>
              <FolderOpenOutlined /> {t('shell.login.feature3')}
            </li>
          </ul>
        </div>
      </section>
      <main className="login-main">
        <div className="login-card">
          <h1 className="login-title">{t('shell.appTitle')}</h1>
          <p className="login-welcome">{t('shell.login.welcome')}</p>
          {error && <Alert type="error" showIcon title={error} className="login-error" data-testid="login-error" />}
          <Form<Values>
            layout="vertical"
            size="large"
            requiredMark={false}
            initialValues={{
              username: remembered ?? sessionStorage.getItem(LOGOUT_NAME_KEY) ?? '',
              password: '',
              remember: remembered !== null,
            }}
            onFinish={submit}
            onValuesChange={() => error && setError(null)}
          >
            <Form.Item
              name="username"
              label={t('shell.login.username')}
              rules={[{ required: true, whitespace: true, message: t('shell.login.usernameRequired') }]}
            >
              <Input
                prefix={<UserOutlined />}
                autoComplete="username"
                placeholder={t('shell.login.username')}
                maxLength={64}
                data-testid="login-username"
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('shell.login.password')}
              rules={[{ required: true, message: t('shell.login.passwordRequired') }]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                autoComplete="current-password"
                placeholder={t('shell.login.password')}
                data-testid="login-password"
              />
            </Form.Item>
            <Form.Item name="remember" valuePropName="checked">
              <Checkbox data-testid="login-remember">{t('shell.login.remember')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
              {busy ? t('shell.login.submitting') : t('shell.login.submit')}
            </Button>
          </Form>
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
