import { useEffect, useState } from 'react';
import { Drawer, FloatButton, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, VerticalAlignTopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { clearErrorMessages } from '../api';
import { useSession } from '../auth/session';
import { findPage } from '../auth/routes';
import { useDevice } from './use-device';
import { reducedMotion } from '../theme';
import { useSettings, useSidebarOpen } from './prefs';
import { useTagsView } from './use-tags-view';
import SideMenu from './SideMenu';
import TopMenu from './TopMenu';
import Navbar from './Navbar';
import Breadcrumbs from './Breadcrumbs';
import TagsView from './TagsView';
import SettingsDrawer from './SettingsDrawer';
import { AppSelectionDialog } from './apps';
import ActingBanner from './ActingBanner';
import './layout.css';

/** SPEC §9: sidebar 210px wide; collapsed it shows icons only. */
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
/** SPEC §9: the scroll-to-top animation lasts 800 ms (none when the user asked for less motion). */
export const BACK_TOP_MS = 800;

/** The main layout (SPEC §2): header with logo, institution name and navbar; sidebar; breadcrumb; tabs; page. */
export default function MainLayout() {
  const { t } = useTranslation();
  const { session } = useSession();
  const location = useLocation();
  const device = useDevice();
  const mobile = device === 'mobile';
  const [settings, updateSettings] = useSettings();
  const [sidebarOpen, toggleSidebar] = useSidebarOpen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const routes = session!.routes;
  const user = session!.user;
  const page = findPage(routes, location.pathname);
  const tags = useTagsView(routes, page);
  const collapsed = !sidebarOpen;
  // A page's error messages belong to it: leaving the page closes them (issue 28: five messages
  // of the report analysis were still on screen on the next page).
  useEffect(() => clearErrorMessages(), [location.pathname]);

  const logo = (
    <div className="app-logo">
      <img src="/logo.svg" alt="" width={30} height={30} />
      <span className="app-logo-text">{t('shell.appShort')}</span>
    </div>
  );
  const sideMenu = (inDrawer: boolean) => (
    <SideMenu menus={routes.menus} page={page} pathname={location.pathname} collapsed={!inDrawer && collapsed} onNavigate={inDrawer ? () => setDrawerOpen(false) : undefined} />
  );

  return (
    <div className={`app-layout ${device}${settings.fixedHeader ? ' fixed-header' : ''}`} data-testid="main-layout" data-device={device}>
      <header className="app-header">
        {logo}
        <div className="app-insname" title={user.insname} data-testid="insname">
          {user.insname}
        </div>
        <div className="app-header-menu">{settings.topMenu && !mobile && <TopMenu menus={routes.menus} page={page} />}</div>
        <Navbar user={user} compact={mobile} onOpenSettings={() => setSettingsOpen(true)} />
      </header>
      <div className="app-body">
        {!mobile && (
          <aside className={`app-sidebar${collapsed ? ' collapsed' : ''}`} style={{ width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH }} data-testid="sidebar" data-collapsed={collapsed}>
            {settings.sidebarLogo && logo}
            {sideMenu(false)}
          </aside>
        )}
        {mobile && (
          <Drawer
            open={drawerOpen}
            placement="left"
            size={SIDEBAR_WIDTH}
            closable={false}
            onClose={() => setDrawerOpen(false)}
            className="app-drawer"
            styles={{ body: { padding: 0 } }}
            data-testid="sidebar-drawer"
          >
            {logo}
            {sideMenu(true)}
          </Drawer>
        )}
        <main className="app-main">
          <ActingBanner />
          <div className="app-subbar">
            <div className="app-crumbs">
              <Tooltip title={mobile || collapsed ? t('shell.navbar.expand') : t('shell.navbar.collapse')}>
                <button
                  type="button"
                  className="hamburger"
                  onClick={mobile ? () => setDrawerOpen(true) : toggleSidebar}
                  aria-label={mobile || collapsed ? t('shell.navbar.expand') : t('shell.navbar.collapse')}
                  data-testid="hamburger"
                >
                  {mobile || collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                </button>
              </Tooltip>
              <Breadcrumbs page={page} />
            </div>
            {settings.tagsView && <TagsView api={tags} activePath={location.pathname} />}
          </div>
          <div className="app-content" key={`${location.pathname}#${tags.refreshKey}`}>
            <Outlet />
          </div>
        </main>
      </div>
      <FloatButton.BackTop duration={reducedMotion ? 0 : BACK_TOP_MS} visibilityHeight={300} icon={<VerticalAlignTopOutlined />} tooltip={t('shell.backTop')} />
      <SettingsDrawer open={settingsOpen} settings={settings} onChange={updateSettings} onClose={() => setSettingsOpen(false)} />
      <AppSelectionDialog user={user} />
    </div>
  );
}
