/**
 * The frame of one chart (or figure) on a statistics page: a titled card that shows its own
 * loading, error (with retry) and empty states, so one failing action never blanks the page.
 *
 *   <ChartCard title={k('dayTrend')} state={q} empty={!rows.length} testId="stats-day">
 *     <EChart option={dayTrendOption(rows, words)} />
 *   </ChartCard>
 */
import type { ReactNode } from 'react';
import { Button, Card, Empty, Spin, Typography } from 'antd';
import { ReloadOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './charts.css';

/** What the card needs of a query (TanStack Query's result fits). */
export interface CardState {
  isLoading: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface ChartCardProps {
  title: ReactNode;
  state: CardState;
  /** No data to draw (after loading). */
  empty?: boolean;
  emptyText?: ReactNode;
  extra?: ReactNode;
  /** The body's height, so the grid does not jump while loading. */
  height?: number;
  testId?: string;
  /** The big screen's dark wall style. */
  dark?: boolean;
  children?: ReactNode;
}

export default function ChartCard({ title, state, empty, emptyText, extra, height = 280, testId, dark, children }: ChartCardProps) {
  const { t } = useTranslation();
  let body: ReactNode;
  let status = 'ready';
  if (state.error) {
    status = 'error';
    const detail = state.error instanceof Error ? state.error.message : undefined;
    body = (
      <div className="chart-card-state" role="alert">
        <WarningOutlined className="chart-card-warn" />
        <Typography.Text strong>{t('common.loadFailed')}</Typography.Text>
        {detail && (
          <Typography.Text type="secondary" className="chart-card-detail">
            {detail}
          </Typography.Text>
        )}
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void state.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (state.isLoading) {
    status = 'loading';
    body = (
      <div className="chart-card-state" role="status">
        <Spin description={t('common.loading')} />
      </div>
    );
  } else if (empty) {
    status = 'empty';
    body = (
      <div className="chart-card-state">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText ?? t('common.empty')} />
      </div>
    );
  } else body = children;
  return (
    <Card
      size="small"
      title={title}
      extra={extra}
      className={`chart-card${dark ? ' chart-card-dark' : ''}`}
      data-testid={testId}
      data-state={status}
      styles={{ body: { minHeight: height } }}
    >
      {body}
    </Card>
  );
}
