import { useEffect, useRef, useState } from 'react';
import { CloseOutlined, PushpinFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pick, type Language } from '../i18n';
import type { TagItem, TagsViewApi } from './use-tags-view';

/** SPEC §9: the tab context menu is 105px wide. */
export const TAG_MENU_WIDTH = 105;

interface MenuState {
  tag: TagItem;
  left: number;
  top: number;
}

/**
 * The strip of visited pages. One context menu for the whole strip (as in vue-element-admin),
 * placed at the pointer: it closes on any click elsewhere, Escape, scrolling or resizing.
 */
export default function TagsView({ api, activePath }: { api: TagsViewApi; activePath: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const strip = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<MenuState | null>(null);

  useEffect(() => {
    strip.current?.querySelector('.tags-item.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activePath]);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    window.addEventListener('click', close);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', close, true);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('keydown', onKey);
    };
  }, [menu]);

  const actions = (tag: TagItem) => [
    { key: 'refresh', label: t('shell.tags.refresh'), run: () => api.refresh(tag.path) },
    { key: 'close', label: t('shell.tags.close'), run: () => api.close(tag.path), disabled: tag.affix },
    { key: 'closeOthers', label: t('shell.tags.closeOthers'), run: () => api.closeOthers(tag.path) },
    { key: 'closeAll', label: t('shell.tags.closeAll'), run: () => api.closeAll() },
    { key: 'affix', label: tag.affix ? t('shell.tags.unaffix') : t('shell.tags.affix'), run: () => api.toggleAffix(tag.path), divided: true },
  ];

  return (
    <nav className="tags-view" ref={strip} aria-label="tags" data-testid="tags-view">
      {api.tags.map((tag) => {
        const active = tag.path === activePath;
        return (
          <span
            key={tag.path}
            className={`tags-item${active ? ' active' : ''}${tag.affix ? ' affix' : ''}`}
            role="link"
            tabIndex={0}
            data-path={tag.path}
            onClick={() => navigate(tag.path)}
            onKeyDown={(e) => e.key === 'Enter' && navigate(tag.path)}
            onAuxClick={(e) => e.button === 1 && api.close(tag.path)}
            onContextMenu={(e) => {
              e.preventDefault();
              // Keep the menu inside the window.
              setMenu({ tag, left: Math.min(e.clientX, window.innerWidth - TAG_MENU_WIDTH - 8), top: e.clientY });
            }}
          >
            {tag.affix && <PushpinFilled className="tags-pin" aria-label={t('shell.tags.affix')} />}
            {pick(tag.page.title, i18n.language as Language)}
            {!tag.affix && (
              <CloseOutlined
                className="tags-close"
                aria-label={t('shell.tags.close')}
                onClick={(e) => {
                  e.stopPropagation();
                  api.close(tag.path);
                }}
              />
            )}
          </span>
        );
      })}
      {menu && (
        <ul className="tags-contextmenu" role="menu" style={{ left: menu.left, top: menu.top, width: TAG_MENU_WIDTH }} data-testid="tags-menu">
          {actions(menu.tag).map((a) => (
            <li
              key={a.key}
              role="menuitem"
              aria-disabled={a.disabled || undefined}
              className={`${a.disabled ? 'disabled' : ''}${a.divided ? ' divided' : ''}`}
              onClick={(e) => {
                e.stopPropagation();
                if (a.disabled) return;
                setMenu(null);
                a.run();
              }}
            >
              {a.label}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
