import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { languages, setLanguage, type Language } from '../i18n';

/** Language switch of the navbar and the sign-in page; the choice is kept in a cookie. */
export default function LanguageSwitch({ showLabel = false }: { showLabel?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = languages.find((l) => l.value === i18n.language) ?? languages[0];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current.value],
        items: languages.map((l) => ({ key: l.value, label: l.label })),
        onClick: ({ key }) => void setLanguage(key as Language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('shell.navbar.language')} data-testid="language-switch">
        {showLabel ? current.label : null}
      </Button>
    </Dropdown>
  );
}
