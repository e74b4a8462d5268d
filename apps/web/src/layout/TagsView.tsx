import { useEffect, useRef } from 'react';
import { Dropdown } from 'antd';
import { CloseOutlined, PushpinFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pick, type Language } from '../i18n';
import type { TagsViewApi } from './use-tags-view';

/** SPEC §9: the tab context menu is 105px wide. */
export const TAG_MENU_WIDTH = 105;

export default function TagsView({ api, activePath }: { api: TagsViewApi; activePath: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const strip = useRef<HTMLDivElement>(null);

  useEffect(() => {
    strip.current?.querySelector('.tags-item.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activePath]);

  return (
    <nav className="tags-view" ref={strip} aria-label="tags" data-testid="tags-view">
      {api.tags.map((tag) => {
        const active = tag.path === activePath;
        const title = pick(tag.page.title, i18n.language as Language);
        return (
          <Dropdown
            key={tag.path}
            trigger={['contextMenu']}
            menu={{
              style: { width: TAG_MENU_WIDTH, minWidth: TAG_MENU_WIDTH },
              items: [
                { key: 'refresh', label: t('shell.tags.refresh') },
                { key: 'close', label: t('shell.tags.close'), disabled: tag.affix },
                { key: 'closeOthers', label: t('shell.tags.closeOthers') },
                { key: 'closeAll', label: t('shell.tags.closeAll') },
                { type: 'divider' },
                { key: 'affix', label: tag.affix ? t('shell.tags.unaffix') : t('shell.tags.affix') },
              ],
              onClick: ({ key }) => {
                if (key === 'refresh') api.refresh(tag.path);
                if (key === 'close') api.close(tag.path);
                if (key === 'closeOthers') api.closeOthers(tag.path);
                if (key === 'closeAll') api.closeAll();
                if (key === 'affix') api.toggleAffix(tag.path);
              },
            }}
          >
            <span
              className={`tags-item${active ? ' active' : ''}${tag.affix ? ' affix' : ''}`}
              role="link"
              tabIndex={0}
              data-path={tag.path}
              onClick={() => navigate(tag.path)}
              onKeyDown={(e) => e.key === 'Enter' && navigate(tag.path)}
              onAuxClick={(e) => e.button === 1 && api.close(tag.path)}
            >
              {tag.affix && <PushpinFilled className="tags-pin" aria-label={t('shell.tags.affix')} />}
              {title}
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
          </Dropdown>
        );
      })}
    </nav>
  );
}
