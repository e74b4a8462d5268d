import { Breadcrumb } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';

/** SPEC §2: the breadcrumb starts with the home crumb 'workbench'. */
export default function Breadcrumbs({ page }: { page: PageRoute | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const items = [
    {
      key: 'home',
      title: (
        <Link to="/">
          <HomeOutlined /> {t('shell.workbench')}
        </Link>
      ),
    },
  ];
  if (page?.parent) items.push({ key: page.parent.path, title: <span>{pick(page.parent.title, lang)}</span> });
  if (page) items.push({ key: page.path, title: <span>{pick(page.title, lang)}</span> });
  return <Breadcrumb items={items} className="app-breadcrumb" data-testid="breadcrumb" />;
}
