import type { ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface ListToolbarProps {
  /** Buttons on the left: add, delete, export, import… */
  actions?: ReactNode;
  searchVisible?: boolean;
  onToggleSearch?: () => void;
  onRefresh?: () => void;
}

/** The RuoYi toolbar row: actions left; show/hide search and refresh right. */
export default function ListToolbar({ actions, searchVisible, onToggleSearch, onRefresh }: ListToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="list-toolbar">
      <Space wrap>{actions}</Space>
      <Space>
        {onToggleSearch && (
          <Tooltip title={searchVisible ? t('common.hideSearch') : t('common.showSearch')}>
            <Button
              shape="circle"
              icon={<SearchOutlined />}
              onClick={onToggleSearch}
              aria-label={searchVisible ? t('common.hideSearch') : t('common.showSearch')}
            />
          </Tooltip>
        )}
        {onRefresh && (
          <Tooltip title={t('common.refresh')}>
            <Button shape="circle" icon={<ReloadOutlined />} onClick={onRefresh} aria-label={t('common.refresh')} />
          </Tooltip>
        )}
      </Space>
    </div>
  );
}
