import { Button, Empty, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import './list.css';

/** Loading, empty and error states of list pages (and anything else that loads data). */
export function LoadingState() {
  const { t } = useTranslation();
  return (
    <div className="list-state" role="status">
      <Spin description={t('common.loading')} />
    </div>
  );
}

export function EmptyState({ description }: { description?: string }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description ?? t('common.empty')} />;
}

export function ErrorState({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Result
      status="warning"
      title={t('common.loadFailed')}
      subTitle={detail}
      extra={onRetry ? <Button onClick={onRetry}>{t('common.retry')}</Button> : undefined}
      data-testid="list-error"
    />
  );
}
