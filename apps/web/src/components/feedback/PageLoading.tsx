import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown while a lazy page or the layout loads. */
export default function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <Spin description={t('common.loading')} />
    </div>
  );
}
