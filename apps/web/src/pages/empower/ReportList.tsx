import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ReportRow } from '@xinli/contract';
import { call } from '../../api';
import { useAccess } from '../../components/access';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { LevelTag, LEVELS, MentalStateTag } from '../../components/levels';
import { useStages } from '../../components/pickers';
import { archiveLink } from '../../lib/populations';
import { reportLink } from '../echarts/report-data';

const LIST = 'as.m.exam.getCUserReportPageList';

/** The scales as filter options (when the caller may read the library). */
function useFormOptions(appid?: string) {
  const { can } = useAccess();
  const input = { appid: appid ?? '', page: 1, pageSize: 200 };
  const q = useQuery({
    queryKey: ['as.m.assess.forms.getFormPageList', input],
    queryFn: () => call('as.m.assess.forms.getFormPageList', input),
    enabled: can('as.m.assess.forms.getFormPageList'),
    staleTime: 60_000,
  });
  return (q.data?.rows ?? []).filter((r) => r.formtype !== '02').map((r) => ({ value: r.formcode, label: r.formname }));
}

/**
 * The reports list (first cut): reports in the caller's scope, newest first, filtered by app,
 * stage, form, level, date range and name; a row opens the report, the name the archive.
 * A population's report page passes its `appid` (the app filter then is not shown).
 */
export default function ReportList({ appid }: { appid?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const forms = useFormOptions(appid);
  const stages = useStages(appid);
  const levels = LEVELS.map((l) => ({ value: l, label: t(`evaluating.levels.l${l}`) }));
  const filters: FilterDef[] = [
    f.text('realname', { maxLength: 50 }),
    ...(appid ? [] : [f.app()]),
    // A population's page lists the stages of its own app.
    appid ? f.select('stagecode', stages.options, { width: 180 }) : f.stage('stagecode'),
    f.select('formcode', forms, { width: 200 }),
    f.select('level', levels, { width: 130 }),
    f.dateRange('dateRange', ['startdate', 'enddate']),
    f.institution(),
  ];
  const list = useListPage(LIST, { resource: 'empower.report', filters, input: appid ? { appid } : {} });
  const col = list.colFor<ReportRow>();
  return (
    <ListView<ReportRow>
      list={list}
      rowKey="reportid"
      columns={[
        col.text('realname', {
          width: 110,
          render: (v: string, r) => (
            <a onClick={() => navigate(archiveLink(r.appid, r.cusercode))} data-testid={`report-person-${r.reportid}`}>
              {v}
            </a>
          ),
        }),
        ...(appid ? [] : [{ title: t('common.appid'), dataIndex: 'appname', key: 'appname', width: 130 }]),
        col.text('formname', { width: 220 }),
        col.text('stagename', { width: 140, render: (v: string) => v || '—' }),
        col.text('level', {
          width: 100,
          render: (_: unknown, r) => (r.level === null ? '—' : <LevelTag level={r.level} colour={r.colour} />),
        }),
        col.text('mentalstate', { width: 120, render: (v: number) => <MentalStateTag state={v} /> }),
        col.text('warning', {
          width: 80,
          render: (v: number) => (v ? <Tag color="error">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
        }),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'view', label: t('empower.report.view'), onClick: () => navigate(reportLink(r.reportid)), testId: `report-view-${r.reportid}` },
          ],
          {
            width: 80,
          },
        ),
      ]}
    >
    </ListView>
  );
}
