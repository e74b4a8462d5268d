import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  PieChartOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuRoute, PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';
import MenuLabel from './MenuLabel';

/** One icon per top menu (route name). */
export const menuIcons: Record<string, ReactNode> = {
  Datastatistics: <BarChartOutlined />,
  statistics1: <PieChartOutlined />,
  statisticsN: <PieChartOutlined />,
  empower: <UserOutlined />,
  task: <TeamOutlined />,
  earlyWarning: <AlertOutlined />,
  archives: <FolderOpenOutlined />,
  evaluating: <ProfileOutlined />,
  registration: <SolutionOutlined />,
  Service: <ShopOutlined />,
  authority: <SafetyCertificateOutlined />,
  organization: <ApartmentOutlined />,
  operations: <AppstoreOutlined />,
  periodManagement: <FileTextOutlined />,
  echartsWeb: <AreaChartOutlined />,
};

type Item = Required<MenuProps>['items'][number];

/**
 * Sidebar items: visible menus; a menu with one visible page shows that page directly unless
 * it is alwaysShow (VEA behaviour, SPEC §3 menu route fields). Keys are full paths.
 */
export function sideMenuItems(menus: MenuRoute[], lang: Language): Item[] {
  return menus
    .filter((m) => !m.hidden)
    .map((m) => {
      const visible = m.children.filter((c) => !c.hidden);
      const icon = menuIcons[m.name];
      const label = (title: MenuRoute['title']) => <MenuLabel text={pick(title, lang)} />;
      if (m.children.length === 0) return { key: m.path, icon, label: label(m.title) };
      if (visible.length === 1 && !m.alwaysShow) return { key: visible[0].path, icon, label: label(visible[0].title) };
      return { key: m.path, icon, label: label(m.title), children: visible.map((c) => ({ key: c.path, label: label(c.title) })) };
    });
}

/** The menu key to highlight for a page: its activeMenu for detail pages. */
export const selectedKeyOf = (page: PageRoute | undefined, pathname: string) => page?.activeMenu ?? pathname;
