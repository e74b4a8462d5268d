import { useEffect, useMemo, useState } from 'react';
import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuRoute, PageRoute } from '../auth/routes';
import type { Language } from '../i18n';
import { selectedKeyOf, sideMenuItems } from './menu-items';

interface Props {
  menus: MenuRoute[];
  page: PageRoute | undefined;
  pathname: string;
  collapsed: boolean;
  onNavigate?: () => void;
}

/** The sidebar menu, built from the generated routes. */
export default function SideMenu({ menus, page, pathname, collapsed, onNavigate }: Props) {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const items = useMemo(() => sideMenuItems(menus, i18n.language as Language), [menus, i18n.language]);
  const selected = selectedKeyOf(page, pathname);
  const parentKey = page?.parent?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(parentKey ? [parentKey] : []);
  useEffect(() => {
    if (parentKey) setOpenKeys((keys) => (keys.includes(parentKey) ? keys : [...keys, parentKey]));
  }, [parentKey]);
  return (
    <Menu
      mode="inline"
      className="app-sidemenu"
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={[selected]}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={(keys) => setOpenKeys(keys as string[])}
      onClick={({ key }) => {
        navigate(key);
        onNavigate?.();
      }}
      data-testid="side-menu"
    />
  );
}
