import { useEffect, useState } from 'react';
import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuRoute, PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';
import { menuIcons } from './menu-items';

/** SPEC §9: the top menu shows body width / 3 / 85 items; the rest go under "more". */
export const visibleTopItems = (bodyWidth: number) => Math.max(1, Math.floor(bodyWidth / 3 / 85));

function useBodyWidth() {
  const [width, setWidth] = useState(() => document.body.getBoundingClientRect().width);
  useEffect(() => {
    const onResize = () => setWidth(document.body.getBoundingClientRect().width);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** Top-level menus in the header; choosing one opens its first page. */
export default function TopMenu({ menus, page }: { menus: MenuRoute[]; page: PageRoute | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const navigate = useNavigate();
  const count = visibleTopItems(useBodyWidth());
  const shown = menus.filter((m) => !m.hidden);
  // The bar itself has no icons (the sidebar has them): long English labels need the room.
  const item = (m: MenuRoute, withIcon: boolean) => {
    const label = pick(m.title, lang);
    return { key: m.path, icon: withIcon ? menuIcons[m.name] : undefined, label: <span title={label}>{label}</span> };
  };
  const items = [
    ...shown.slice(0, count).map((m) => item(m, false)),
    ...(shown.length > count ? [{ key: '__more', label: t('shell.more'), children: shown.slice(count).map((m) => item(m, true)) }] : []),
  ];
  const active = page?.parent?.path ?? page?.path;
  return (
    <Menu
      mode="horizontal"
      className="app-topmenu"
      disabledOverflow
      selectedKeys={active ? [active] : []}
      items={items}
      onClick={({ key }) => {
        const menu = shown.find((m) => m.path === key);
        if (menu) navigate(menu.redirect);
      }}
      data-testid="top-menu"
    />
  );
}
