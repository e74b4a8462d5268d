/**
 * Plan authorisation detail (SPEC §2 /Datastatistics/Datastatistics, 00052): the authorisations
 * the caller's scope granted or received, with used, remaining and whether they expire within 30
 * days; filtered by institution, plan and status; exported as .xlsx with the same filter.
 */
import { Alert, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PlanAuthorizeDetailRow } from '@xinli/contract';
import { useRegionAuthority } from '../../components/access';
import { ListView, useListPage } from '../../components/list';
import { ExportButton } from '../../components/transfer';
import { RESOURCE, StatusTags, usePlanFilters, useP } from './plan-ui';

const LIST = 'as.m.hospital.statistic.getPlanAuthorizeDetails';
const EXPORT = 'as.m.hospital.statistic.exportPlanAuthorizeDetails';

export default function Datastatistics() {
  const { t } = useTranslation();
  const p = useP();
  const filters = usePlanFilters();
  const list = useListPage(LIST, { resource: RESOURCE, filters });
  const district = useRegionAuthority();
  const col = list.colFor<PlanAuthorizeDetailRow>();
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { page, pageSize, ...filter } = list.input;
  return (
    <ListView<PlanAuthorizeDetailRow>
      list={list}
      rowKey="authid"
      data-testid="plan-details"
      banner={district && <Alert type="info" showIcon title={t('earlyWarning.district.planScope')} data-testid="data-district-plans" />}
      actions={
        <ExportButton action={EXPORT} input={filter} filename={p('file')} data-testid="plan-export">
          {t('common.transfer.export')}
        </ExportButton>
      }
      columns={[
        col.text('planname', { width: 170 }),
        col.text('insname', { width: 160 }),
        col.text('status', { width: 120, render: (_: unknown, r) => <StatusTags status={r.status} expiring={r.expiring} /> }),
        col.text('count', { width: 80, align: 'right' }),
        col.text('usedcount', { width: 80, align: 'right' }),
        col.text('remaining', { width: 80, align: 'right' }),
        {
          title: p('usage'),
          key: 'usage',
          width: 120,
          render: (_: unknown, r: PlanAuthorizeDetailRow) => (
            <Progress
              percent={r.count ? Math.round((r.usedcount / r.count) * 100) : 0}
              size="small"
              status={r.remaining === 0 ? 'exception' : 'normal'}
            />
          ),
        },
        col.text('startdate', { width: 105 }),
        col.text('enddate', { width: 105 }),
        col.text('appname', { width: 110 }),
      ]}
    />
  );
}
