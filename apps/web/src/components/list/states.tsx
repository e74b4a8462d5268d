import type { ReactNode } from 'react';
import { Button, Empty, Result, Spin, Typography } from 'antd';
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

/**
 * A failed read said in one line, for a small place (a picker's dropdown, the notification panel),
 * with a retry that does not take the focus, which would close a dropdown before the click lands.
 */
export function RetryLine({
  message,
  onRetry,
  testId,
  retryTestId,
}: {
  message?: string;
  onRetry: () => void;
  testId?: string;
  retryTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="danger" data-testid={testId}>
      {message ?? t('common.loadFailed')}{' '}
      <Button type="link" size="small" onMouseDown={(e) => e.preventDefault()} onClick={onRetry} data-testid={retryTestId}>
        {t('common.retry')}
      </Button>
    </Typography.Text>
  );
}

/**
 * One read's states in one place (a drawer's record, a card's series): its answer once here,
 * kept on screen when a refresh in the background fails; before that its error with a retry, or
 * the loading state. A read that failed never leaves a spinner turning.
 *
 *   <Loaded query={useAction('as.m.content.getArticle', { articleid })}>{(article) => <ArticleBody article={article} />}</Loaded>
 */
export function Loaded<T>({ query, children }: { query: Read<T>; children: (data: T) => ReactNode }) {
  return query.data !== undefined ? children(query.data) : <Waiting query={query} />;
}

/**
 * A read with no answer yet: its error with a retry, else the loading state. For a page that
 * returns early, `if (!q.data) return <Waiting query={q} />`, so an answer on screen always wins.
 */
export function Waiting({ query }: { query: Pick<Read<unknown>, 'error' | 'refetch'> }) {
  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <LoadingState />;
}

/** What `Loaded` and `Waiting` take of a read (a react-query result has it). */
interface Read<T> {
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}
