import { useEffect } from 'react';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The 404 page: unknown pages and pages the user may not open (SPEC §2). */
export default function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    document.title = `404 - ${t('shell.appTitle')}`;
  }, [t]);
  return (
    <div className="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('shell.notFound.text')}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('shell.notFound.back')}
          </Button>
        }
      />
    </div>
  );
}
