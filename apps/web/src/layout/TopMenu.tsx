import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuRoute, PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';
import { menuIcons } from './menu-items';
import MenuLabel from './MenuLabel';

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

/** The rendered width of an element, following its resizes (the navbar beside it can grow). */
function useWidthOf(ref: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.getBoundingClientRect().width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * How many of the first `count` items fit in `available` px beside the "more" entry: the SPEC
 * count is the most the bar shows; fewer when the labels are long (English) or the header is
 * narrow, so that "more" is never clipped.
 */
export function fittingItems(itemWidths: number[], moreWidth: number, available: number, count: number): number {
  let used = moreWidth;
  let fit = 0;
  for (const w of itemWidths.slice(0, count)) {
    if (used + w > available) break;
    used += w;
    fit++;
  }
  return Math.max(0, fit);
}

/** Top-level menus in the header; choosing one opens its first page. */
export default function TopMenu({ menus, page }: { menus: MenuRoute[]; page: PageRoute | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const navigate = useNavigate();
  const bodyWidth = useBodyWidth();
  const specCount = visibleTopItems(bodyWidth);
  const shown = menus.filter((m) => !m.hidden);
  const box = useRef<HTMLDivElement>(null);
  // Measured count (null: not measured yet for this width, language and menu set).
  const [fit, setFit] = useState<number | null>(null);
  const boxWidth = useWidthOf(box);
  const key = `${bodyWidth}|${boxWidth}|${lang}|${shown.map((m) => m.path).join(',')}`;
  const [measuredFor, setMeasuredFor] = useState(key);
  if (measuredFor !== key) {
    setMeasuredFor(key);
    setFit(null);
  }
  const count = fit ?? specCount;
  // The bar itself has no icons (the sidebar has them): long English labels need the room.
  const item = (m: MenuRoute, inBar: boolean) => {
    const label = pick(m.title, lang);
    return { key: m.path, icon: inBar ? undefined : menuIcons[m.name], label: inBar ? <MenuLabel text={label} placement="bottom" /> : label };
  };
  const more = shown.length > count;
  const items = [
    ...shown.slice(0, count).map((m) => item(m, true)),
    ...(more ? [{ key: '__more', label: <span data-testid="top-menu-more">{t('shell.more')}</span>, children: shown.slice(count).map((m) => item(m, false)) }] : []),
  ];

  useLayoutEffect(() => {
    if (fit !== null || !box.current) return;
    const lis = [...box.current.querySelectorAll<HTMLElement>('.app-topmenu > li')];
    const widths = lis.map((li) => li.getBoundingClientRect().width).filter((w) => w > 0);
    const available = box.current.getBoundingClientRect().width;
    const total = widths.reduce((a, b) => a + b, 0);
    if (total <= available) return setFit(count);
    // Measure "more" as rendered when present, else allow for its usual width.
    const moreWidth = more ? widths[widths.length - 1]! : 64;
    setFit(fittingItems(more ? widths.slice(0, -1) : widths, moreWidth, available, count));
  }, [fit, count, more]);

  const active = page?.parent?.path ?? page?.path;
  return (
    <div ref={box} className="app-topmenu-box">
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
    </div>
  );
}
