/**
 * The report lists of the populations (SPEC §2 usersReport, usersReport2..4, usersReportCustom,
 * usersReport01): reports in the caller's scope, newest first, under the report filter.
 *
 * - Stage tabs with the persons, reports and warnings of each stage (getCUserStagesAssessCount).
 * - Filters: name, the forms actually used and an indicator at chosen levels that follow them
 *   (getQuotaFilterConditions), highest level, warning, shown/hidden, counted by the statistics,
 *   abnormal, gender, grade and class, dates, institution, region: all a statistics chart sets.
 * - The latest report time under the filter (getReportMaxTime).
 * - Exports of the current filter (item answers, one row per report, counts) and a zip of the
 *   filtered reports as PDFs; the download overlay shows their progress. Above 20 reports the zip
 *   is made in the background and its progress shown in the PDF exports drawer (PdfZipExport).
 * - Row actions: open the report page, show/hide to the respondent, reset the person's attempts.
 * - A second view: people whose anxiety or depression indicators reach a chosen level.
 *
 * `flat` is the 1.0 shape (usersReport01): one list, the stage as a filter, no second view.
 */
import { useMemo } from 'react';
import { App as AntApp, Badge, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Gender, PopulationApp, type ActionInput, type ReportRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { f, ListView, useListPage, useSetListParam, type FilterDef } from '../../components/list';
import { LevelTag, LEVELS, MentalStateTag, useLevelLabel } from '../../components/levels';
import { useStages } from '../../components/pickers';
import { ExportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { archiveLink, reportLink } from '../../features/links';
import MoodReportList from './MoodReportList';
import PdfZipExport from './PdfZipExport';
import QuotaPicker, { useQuotaForms } from './QuotaPicker';
import { decodeQuota, encodeQuota, filterOf, quotasInput, type QuotaPick } from '../../features/reports/report-filter';

const LIST = 'as.m.exam.getCUserReportPageList';
type Filter = ActionInput<'as.m.exam.getCUserStagesAssessCount'>;

/**
 * The classes to filter by (students and every population only): the caller's class teams, and
 * the class a chart's link names even before (or without) that list, so the link's filter holds.
 */
function useClasses(appid: string | undefined, linked: string | null) {
  const shown = !appid || appid === PopulationApp.students;
  const q = useAction('as.m.assess.getAssessTeamPageList', CLASSES, { enabled: shown, staleTime: 60_000 });
  const options = (q.data?.rows ?? []).map((r) => ({ value: r.teamid, label: r.teamname }));
  if (linked && !options.some((o) => o.value === linked)) options.push({ value: linked, label: linked });
  return { shown, options };
}
const CLASSES = { kind: 'class', pageSize: 200 } as const;

/** Stage tabs: "all" and each stage with its report count and a red badge of its warnings. */
function StageTabs({ filter, stagecode, onChange, extra }: { filter: Filter; stagecode: string; onChange: (s: string) => void; extra?: React.ReactNode }) {
  const { t } = useTranslation();
  const q = useAction('as.m.exam.getCUserStagesAssessCount', filter);
  const stages = q.data ?? [];
  const total = stages.reduce((n, s) => n + s.reports, 0);
  const label = (name: string, reports: number, warnings: number) => (
    <Space size={6}>
      <span>{name}</span>
      <Badge count={reports} showZero overflowCount={99999} color="#8c8c8c" />
      {warnings > 0 && <Badge count={warnings} overflowCount={9999} title={t('empower.report.warnings')} />}
    </Space>
  );
  return (
    <Tabs
      size="small"
      activeKey={stagecode || 'all'}
      onChange={(k) => onChange(k === 'all' ? '' : k)}
      data-testid="report-stage-tabs"
      tabBarExtraContent={extra}
      items={[
        { key: 'all', label: label(t('empower.report.allStages'), total, stages.reduce((n, s) => n + s.warnings, 0)) },
        ...stages.map((s) => ({ key: s.stagecode, label: label(s.stagename || '—', s.reports, s.warnings) })),
      ]}
    />
  );
}

function LatestTime({ filter }: { filter: Filter }) {
  const { t } = useTranslation();
  const q = useAction('as.m.exam.getReportMaxTime', filter);
  if (!q.data) return null;
  return (
    <Typography.Text type="secondary" data-testid="report-max-time">
      {t('common.labelled', { label: t('empower.report.latest'), value: q.data.maxtime ? formatTime(q.data.maxtime) : t('empower.report.none') })}
    </Typography.Text>
  );
}

function AllReports({ appid, flat }: { appid?: string; flat?: boolean }) {
  const { t } = useTranslation();
  const levelLabel = useLevelLabel();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const [params] = useSearchParams();
  const stagecode = flat ? '' : (params.get('stagecode') ?? '');
  const quota = decodeQuota(params.get('quota'));
  const stages = useStages(appid);
  const classes = useClasses(appid, params.get('teamid'));
  const scope = { appid: appid ?? '', stagecode };
  const quotaForms = useQuotaForms(scope);
  const levels = LEVELS.map((l) => ({ value: l, label: levelLabel(l) }));
  const yesNo = [
    { value: 1, label: t('common.yes') },
    { value: 0, label: t('common.no') },
  ];
  const shownHidden = [
    { value: 0, label: t('empower.report.shown') },
    { value: 1, label: t('empower.report.hiddenTag') },
  ];
  const filters: FilterDef[] = useMemo(
    () => [
      f.text('realname', { maxLength: 50 }),
      ...(appid ? [] : [f.app()]),
      ...(flat ? [f.select('stagecode', stages.options, { width: 180 })] : []),
      f.select('formcode', quotaForms.forms.map((x) => ({ value: x.formcode, label: `${x.formname} (${x.reports})` })), { width: 220 }),
      f.select('level', levels, { width: 130 }),
      f.select('warning', yesNo, { width: 110 }),
      f.select('hidden', shownHidden, { width: 140 }),
      // What a statistics chart counts (a click on a bar opens the list with these set).
      f.select('counted', yesNo, { width: 110 }),
      f.select('abnormal', yesNo, { width: 110 }),
      f.enumOf('gender', Gender, { width: 110 }),
      ...(classes.shown ? [f.text('grade', { maxLength: 20 }), f.select('teamid', classes.options, { width: 200 })] : []),
      f.dateRange('dateRange', ['startdate', 'enddate']),
      f.institution(),
      f.region(),
    ],
    // The option lists are new arrays on every render: their content decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [appid, flat, JSON.stringify(stages.options), JSON.stringify(quotaForms.forms), JSON.stringify(classes.options), t],
  );
  const input = { ...(appid ? { appid } : {}), ...(stagecode ? { stagecode } : {}), ...(quotasInput(quota) ? { quotas: quotasInput(quota) } : {}) };
  const list = useListPage(LIST, { resource: 'empower.report', filters, input, invalidates: ['as.m.exam.getCUserStagesAssessCount', 'as.m.exam.getReportMaxTime'] });
  const filter = filterOf(list.input) as Filter;
  const col = list.colFor<ReportRow>();

  const setParam = useSetListParam();
  const { stagecode: _omit, ...withoutStage } = filter;
  void _omit;

  return (
    <ListView<ReportRow>
      list={list}
      rowKey="reportid"
      searchBefore={
        <QuotaPicker {...quotaForms} value={quota} onChange={(q: QuotaPick | null) => setParam('quota', encodeQuota(q))} />
      }
      banner={
        flat ? undefined : (
          <StageTabs filter={withoutStage as Filter} stagecode={stagecode} onChange={(s) => setParam('stagecode', s)} extra={<LatestTime filter={filter} />} />
        )
      }
      actions={
        <>
          <ExportButton action="as.m.exam.exportCUserDetailData" input={filter} filename={t('empower.report.fileDetail')} data-testid="export-detail">
            {t('empower.report.exportDetail')}
          </ExportButton>
          <ExportButton action="as.m.exam.exportCUserExamData" input={filter} filename={t('empower.report.fileExam')} data-testid="export-exam">
            {t('empower.report.exportExam')}
          </ExportButton>
          <ExportButton action="as.m.exam.exportCUserStatData" input={filter} filename={t('empower.report.fileStat')} data-testid="export-stat">
            {t('empower.report.exportStat')}
          </ExportButton>
          <PdfZipExport filter={filter} total={list.total} />
          {flat && <LatestTime filter={filter} />}
        </>
      }
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
        col.text('formname', { width: 200 }),
        col.text('stagename', { width: 130, render: (v: string) => v || '—' }),
        col.text('level', {
          width: 100,
          render: (_: unknown, r) => (r.level === null ? '—' : <LevelTag level={r.level} colour={r.colour} />),
        }),
        col.text('mentalstate', { width: 110, render: (v: number) => <MentalStateTag state={v} /> }),
        col.text('warning', {
          width: 80,
          render: (v: number) => (v ? <Tag color="error">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
        }),
        col.text('hidden', {
          width: 110,
          render: (v: number) => (v ? <Tag color="default">{t('empower.report.hiddenTag')}</Tag> : <Tag color="success">{t('empower.report.shown')}</Tag>),
        }),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'view', label: t('empower.report.view'), onClick: () => navigate(reportLink(r.reportid)), testId: `report-view-${r.reportid}` },
            {
              key: 'toggle',
              label: r.hidden ? t('empower.report.show') : t('empower.report.hide'),
              action: 'as.m.cuser.showOrHiddenReport',
              testId: `report-toggle-${r.reportid}`,
              onClick: () =>
                void list.confirm({
                  action: 'as.m.cuser.showOrHiddenReport',
                  input: { reportid: r.reportid, hidden: r.hidden ? 0 : 1 },
                  content: t(r.hidden ? 'empower.report.showConfirm' : 'empower.report.hideConfirm', { name: r.realname }),
                  success: t(r.hidden ? 'empower.report.showDone' : 'empower.report.hideDone'),
                }),
            },
            {
              key: 'reset',
              label: t('empower.report.reset'),
              action: 'as.m.exam.clearCUserAssessCount',
              more: true,
              danger: true,
              testId: `report-reset-${r.reportid}`,
              onClick: () =>
                void list.confirm({
                  action: 'as.m.exam.clearCUserAssessCount',
                  input: { cusercode: r.cusercode },
                  title: t('empower.report.resetTitle', { name: r.realname }),
                  content: t('empower.report.resetConfirm', { name: r.realname }),
                  danger: true,
                  success: false,
                  then: (res) => void message.success(t('empower.report.resetDone', { count: res.codes })),
                }),
            },
          ],
          { width: 150 },
        ),
      ]}
    />
  );
}

/** A population's reports: all reports, or (unless flat) the anxiety/depression view. */
export default function ReportList({ appid, flat }: { appid?: string; flat?: boolean }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [params, setParams] = useSearchParams();
  const moodAllowed = !flat && can('as.m.exam.getAnxiousDepressedReportPageList');
  const view = moodAllowed && params.get('view') === 'mood' ? 'mood' : 'all';
  return (
    <div data-testid="report-list">
      {moodAllowed && (
        <Tabs
          activeKey={view}
          // A view has its own filters: switching starts from none.
          onChange={(k) => setParams(k === 'mood' ? { view: 'mood' } : {}, { replace: true })}
          items={[
            { key: 'all', label: t('empower.report.viewAll') },
            { key: 'mood', label: <span data-testid="report-view-mood">{t('empower.report.viewMood')}</span> },
          ]}
          style={{ marginBottom: 8 }}
        />
      )}
      {view === 'mood' ? <MoodReportList appid={appid} /> : <AllReports appid={appid} flat={flat} />}
    </div>
  );
}
