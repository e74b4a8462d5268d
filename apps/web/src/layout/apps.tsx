/**
 * Population apps of the account (SPEC §4, §6, §7): the app-selection dialog shown after sign-in
 * and the app switcher of the navbar.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { App as AntApp, Button, Dropdown, Modal } from 'antd';
import { AppstoreOutlined, CheckCircleFilled, DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PopulationApp, populationApps, type AppEntry } from '@xinli/contract';
import { useAction } from '../components/query';
import { APP_SELECTED_KEY, CURRENT_APP_KEY, currentApp, store, storeApps, writeJson, type StoredUser } from '../auth/storage';
import { useSession } from '../auth/session';
import { pick } from '../i18n';

/** Set before the reload of an app switch, so the reloaded console can say it worked. */
const SWITCHED_KEY = 'appSwitched';

/** The account's apps, custom report excluded (SPEC §6); also stores the per-group lists. */
export function useAccountApps(user: StoredUser) {
  const mine = useAction('as.m.app.muser.getMUserAppList', { musercode: user.musercode }, { staleTime: Infinity });
  const all = useAction('as.m.app.getAppList', { appid: '' }, { staleTime: Infinity });
  // Known once both have answered, as the stored lists are written from both.
  const data = useMemo(
    () => (mine.data && all.data ? mine.data.filter((a) => a.appid !== PopulationApp.customReport) : undefined),
    [mine.data, all.data],
  );
  useEffect(() => {
    if (data && all.data) storeApps(all.data, data);
  }, [data, all.data]);
  return { data, isLoading: mine.isLoading || all.isLoading };
}

/**
 * An app's name in the language shown now: the chosen app is stored with the name of the language
 * it was chosen in, and the account's list is fetched once, so both are named from the contract.
 */
export function appName(app: AppEntry): string {
  const known = populationApps.find((p) => p.appid === app.appid);
  return known ? pick(known) : app.appname;
}

/** The chosen app is read from local storage; writers bump a version so readers re-render. */
let appVersion = 0;
const appListeners = new Set<() => void>();
const subscribeApp = (l: () => void) => {
  appListeners.add(l);
  return () => appListeners.delete(l);
};

function chooseApp(app: AppEntry) {
  writeJson(CURRENT_APP_KEY, app);
  appVersion += 1;
  appListeners.forEach((l) => l());
}

export function useCurrentApp(): AppEntry | null {
  useSyncExternalStore(subscribeApp, () => appVersion);
  return currentApp();
}

function AppCard({ app, selected, onSelect }: { app: AppEntry; selected: boolean; onSelect: () => void }) {
  return (
    <button type="button" className={`app-card${selected ? ' selected' : ''}`} onClick={onSelect} aria-pressed={selected} data-appid={app.appid}>
      {app.iconurl ? <img src={app.iconurl} alt="" width={40} height={40} /> : <AppstoreOutlined className="app-card-icon" />}
      <span className="app-card-name">{appName(app)}</span>
      {selected && <CheckCircleFilled className="app-card-check" />}
    </button>
  );
}

/**
 * SPEC §4: while the flag is not 'true' and the account is not exempt, a dialog lists its apps;
 * start using sets the flag and closes it. An account without apps is told so and signed out.
 */
export function AppSelectionDialog({ user }: { user: StoredUser }) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const { signOut } = useSession();
  const needed = !user.appdialogexempt && store().getItem(APP_SELECTED_KEY) !== 'true';
  const [open, setOpen] = useState(needed);
  const apps = useAccountApps(user);
  const [chosen, setChosen] = useState<string | null>(currentApp()?.appid ?? null);
  const list = apps.data ?? [];

  useEffect(() => {
    if (!open || !apps.data || apps.data.length > 0) return;
    setOpen(false);
    modal.warning({ title: t('shell.systemPrompt'), content: t('shell.noAppsLogout'), okText: t('shell.confirm'), onOk: () => signOut() });
  }, [open, apps.data, modal, signOut, t]);

  if (!open || (apps.data && apps.data.length === 0)) return null;
  const selected = chosen ?? list[0]?.appid ?? null;
  const start = () => {
    const app = list.find((a) => a.appid === selected);
    if (!app) return;
    chooseApp(app);
    store().setItem(APP_SELECTED_KEY, 'true');
    setOpen(false);
  };
  return (
    <Modal
      open
      title={t('shell.apps.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      width={560}
      footer={
        <Button type="primary" size="large" disabled={!selected} onClick={start} data-testid="app-start">
          {t('shell.apps.start')}
        </Button>
      }
      data-testid="app-dialog"
    >
      <p className="app-dialog-intro">{t('shell.apps.intro')}</p>
      {apps.isLoading ? (
        <p>{t('shell.apps.loading')}</p>
      ) : (
        <div className="app-grid">
          {list.map((a) => (
            <AppCard key={a.appid} app={a} selected={a.appid === selected} onSelect={() => setChosen(a.appid)} />
          ))}
        </div>
      )}
    </Modal>
  );
}

/** SPEC §4: switching asks first; confirm stores the app and reloads, cancel says so. */
export function AppSwitcher({ user }: { user: StoredUser }) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const apps = useAccountApps(user).data ?? [];
  const current = useCurrentApp();

  useEffect(() => {
    if (sessionStorage.getItem(SWITCHED_KEY) === null) return;
    sessionStorage.removeItem(SWITCHED_KEY);
    void message.success(t('shell.switchSucceeded'));
  }, [message, t]);

  if (apps.length === 0 || (apps.length === 1 && !current)) return null;
  const ask = (app: AppEntry) =>
    modal.confirm({
      title: t('shell.systemPrompt'),
      content: t('shell.switchAppConfirm'),
      okText: t('shell.confirm'),
      cancelText: t('shell.cancel'),
      onOk: () => {
        chooseApp(app);
        store().setItem(APP_SELECTED_KEY, 'true');
        sessionStorage.setItem(SWITCHED_KEY, app.appid);
        window.location.reload();
      },
      onCancel: () => void message.info(t('shell.switchCancelled')),
    });
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: current ? [current.appid] : [],
        items: apps.map((a) => ({ key: a.appid, label: appName(a) })),
        onClick: ({ key }) => {
          const app = apps.find((a) => a.appid === key);
          if (app && app.appid !== current?.appid) ask(app);
        },
      }}
    >
      <Button type="text" className="navbar-app" data-testid="app-switcher" title={t('shell.navbar.switchApp')}>
        <AppstoreOutlined />
        <span className="navbar-app-name">{current ? appName(current) : t('shell.navbar.noApp')}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
