import { useEffect, useState } from 'react';
import { App as AntApp, Avatar, Button, Dropdown, Tooltip } from 'antd';
import { DesktopOutlined, DownOutlined, FullscreenExitOutlined, FullscreenOutlined, HomeOutlined, KeyOutlined, LogoutOutlined, SafetyCertificateOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StoredUser } from '../auth/storage';
import { displayName, useSession } from '../auth/session';
import LanguageSwitch from './LanguageSwitch';
import ChangePassword from './ChangePassword';
import SecondFactorDialog from './SecondFactorDialog';
import NotificationBell from './NotificationBell';
import { AppSwitcher } from './apps';
import { useT } from '../i18n/useT';

function useFullscreen() {
  const [on, setOn] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  return on;
}

/** Navbar of the header (SPEC §2, §4, §6): app switch, extra links, fullscreen, language, settings, account. */
export default function Navbar({ user, compact, onOpenSettings }: { user: StoredUser; compact: boolean; onOpenSettings: () => void }) {
  const { t } = useTranslation();
  const nav = useT('shell.navbar');
  const { message } = AntApp.useApp();
  const { signOut } = useSession();
  const fullscreen = useFullscreen();
  const [pwdOpen, setPwdOpen] = useState(false);
  const [factorOpen, setFactorOpen] = useState(false);
  const name = displayName(user);
  const links = user.navbarlinks.filter((l): l is typeof l & { key: 'website' | 'bigscreen' } => l.key === 'website' || l.key === 'bigscreen');

  const toggleFullscreen = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(t('shell.fullscreenUnsupported'));
      return;
    }
    void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen());
  };

  return (
    <div className="navbar" data-testid="navbar">
      <AppSwitcher user={user} />
      {links.map((l) => (
        <Tooltip key={l.key} title={nav(l.key)}>
          <Button
            type="text"
            icon={l.key === 'website' ? <HomeOutlined /> : <DesktopOutlined />}
            href={l.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={nav(l.key)}
            data-testid={`navlink-${l.key}`}
          />
        </Tooltip>
      ))}
      {!compact && (
        <Tooltip title={fullscreen ? t('shell.navbar.exitFullscreen') : t('shell.navbar.fullscreen')}>
          <Button type="text" icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleFullscreen} aria-label={t('shell.navbar.fullscreen')} data-testid="fullscreen" />
        </Tooltip>
      )}
      <NotificationBell />
      <LanguageSwitch />
      <Tooltip title={t('shell.navbar.settings')}>
        <Button type="text" icon={<SettingOutlined />} onClick={onOpenSettings} aria-label={t('shell.navbar.settings')} data-testid="open-settings" />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'password', icon: <KeyOutlined />, label: t('shell.navbar.changePassword') },
            // A login-as session is not the account's holder: its second factor is not theirs to manage.
            ...(user.actingas ? [] : [{ key: 'secondFactor', icon: <SafetyCertificateOutlined />, label: <span data-testid="menu-second-factor">{t('shell.secondFactor.menu')}</span> }]),
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: t('shell.navbar.logout'), danger: true },
          ],
          onClick: ({ key }) => (key === 'password' ? setPwdOpen(true) : key === 'secondFactor' ? setFactorOpen(true) : void signOut()),
        }}
      >
        <Button type="text" className="navbar-user" data-testid="user-menu">
          <Avatar size={28} style={{ background: '#43a777' }}>
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          {!compact && <span className="navbar-user-name">{name}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <ChangePassword open={pwdOpen} musercode={user.musercode} onClose={() => setPwdOpen(false)} />
      <SecondFactorDialog open={factorOpen} user={user} onClose={() => setFactorOpen(false)} />
    </div>
  );
}
