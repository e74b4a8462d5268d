import { Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { pick, type Language } from '../i18n';
import { useCurrentPage } from './current-page';

/** Shown for a route whose page is not in pages/registry.ts yet: honest, not a blank screen. */
export default function NotBuilt() {
  const { t, i18n } = useTranslation();
  const page = useCurrentPage();
  const title = pick(page.title, i18n.language as Language);
  return (
    <div className="page-card">
      <Result
        icon={<ToolOutlined style={{ color: '#43a777' }} />}
        title={title}
        subTitle={t('shell.notBuilt.text')}
        data-testid="not-built"
      />
    </div>
  );
}
