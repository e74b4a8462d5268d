/**
 * Report analysis (SPEC §2 usersReportS /statistics/usersReportS, 00012): levels compared across
 * stages and forms under the statistics filter.
 *
 * - Per stage (the stages with reports under the filter): persons assessed, reports, abnormal
 *   reports and rate, and the depression and anxiety level shares side by side, from the same
 *   statistics actions as the dashboard with the stage set.
 * - Per form: each indicator's reports per level (getQuotaFilterConditions: institution, app and
 *   stage apply, dates do not); a bar segment opens exactly those reports in the report list.
 */
import { useState } from 'react';
import { Alert, Col, Row, Select, Space, Typography } from 'antd';
import { useQueries } from '@tanstack/react-query';
import type { StatsFilter } from '@xinli/contract';
import { useAccess, useRegionAuthority } from '../../components/access';
import ChartCard from '../../components/charts/ChartCard';
import EChart from '../../components/charts/EChart';
import { DetailTable } from '../../components/list';
import { actionQuery, useAction } from '../../components/query';
import { useLevelLabel } from '../../components/levels';
import { useLang } from '../../lib/options';
import { abnormalBarOption, levelShareOption, quotaLevelOption } from '../../features/stats/chart-options';
import { percent, rateOf } from '../../features/stats/stats-filter';
import { StatsFilterBar, useReportJump, useStatsFilter } from '../../features/stats/stats-ui';
import { useTranslation } from 'react-i18next';
import '../../features/stats/stats.css';
import { useT } from '../../i18n/useT';

const STAGES = 'as.m.exam.getCUserStagesAssessCount';
const FORMS = 'as.m.exam.getQuotaFilterConditions';
/** At most this many stages are compared (the first ones by their first report). */
const MAX_STAGES = 12;

function useA() {
  return useT('statistics.analysis');
}

interface StageFigures {
  stagecode: string;
  name: string;
  persons: number;
  count: number;
  abnormal: number;
  depressed: { total: number; rows: { level: number; count: number; ratio: number }[] };
  anxious: { total: number; rows: { level: number; count: number; ratio: number }[] };
}

/** The stages with reports under the filter, and each one's figures from the statistics actions. */
function useStageFigures(filter: StatsFilter) {
  const { can } = useAccess();
  const lang = useLang();
  const scope = {
    ...(filter.musercode ? { musercode: filter.musercode } : {}),
    ...(filter.appid ? { appid: filter.appid } : {}),
    ...(filter.startdate && filter.enddate ? { startdate: filter.startdate, enddate: filter.enddate } : {}),
  };
  const stages = useAction(STAGES, scope);
  // Reports outside any stage (group tasks) cannot be narrowed to by the statistics filter (an empty
  // stage means every stage): they are counted, not compared.
  const staged = (stages.data ?? []).filter((s) => s.stagecode && (!filter.stagecode || s.stagecode === filter.stagecode));
  const unstaged = filter.stagecode ? 0 : (stages.data ?? []).filter((s) => !s.stagecode).reduce((n, s) => n + s.reports, 0);
  const list = staged.slice(0, MAX_STAGES);
  const per = (
    name:
      | 'as.m.assess.getAssessCount'
      | 'as.m.assess.getAssessAbnormalCount'
      | 'as.m.assess.getAssessPeopleCompleteCount'
      | 'as.m.assess.getDepressedQuotaCountRatio'
      | 'as.m.assess.getAnxiousQuotaCountRatio',
  ) =>
    list.map((s) => {
      const input = { ...filter, stagecode: s.stagecode };
      return { ...actionQuery(name, input, lang), enabled: can(name), staleTime: 30_000 };
    });
  const results = useQueries({
    queries: [
      ...per('as.m.assess.getAssessCount'),
      ...per('as.m.assess.getAssessAbnormalCount'),
      ...per('as.m.assess.getAssessPeopleCompleteCount'),
      ...per('as.m.assess.getDepressedQuotaCountRatio'),
      ...per('as.m.assess.getAnxiousQuotaCountRatio'),
    ],
  });
  const n = list.length;
  const at = (block: number, i: number) => results[block * n + i]?.data as unknown;
  const rows: StageFigures[] = list.map((s, i) => ({
    stagecode: s.stagecode,
    name: s.stagename || s.stagecode,
    count: (at(0, i) as { count: number } | undefined)?.count ?? 0,
    abnormal: (at(1, i) as { count: number } | undefined)?.count ?? 0,
    persons: (at(2, i) as { count: number } | undefined)?.count ?? 0,
    depressed: (at(3, i) as StageFigures['depressed'] | undefined) ?? { total: 0, rows: [] },
    anxious: (at(4, i) as StageFigures['anxious'] | undefined) ?? { total: 0, rows: [] },
  }));
  const failed = results.find((r) => r.error)?.error ?? stages.error;
  return {
    rows,
    more: staged.length > MAX_STAGES,
    unstaged,
    state: {
      isLoading: stages.isLoading || results.some((r) => r.isLoading),
      error: failed ?? null,
      refetch: () => Promise.all([stages.refetch(), ...results.filter((r) => r.error).map((r) => r.refetch())]),
    },
  };
}

/** The two moods compared per stage, side by side. */
const MOODS = ['depressed', 'anxious'] as const;

/** Share of results at levels 3-4 (moderately severe and severe) in percent. */
const severeShare = (m: StageFigures['depressed']) =>
  m.total ? percent(m.rows.filter((r) => r.level >= 3).reduce((s, r) => s + r.count, 0) / m.total) : 0;

function StageSection({ filter }: { filter: StatsFilter }) {
  const a = useA();
  const level = useLevelLabel();
  const { rows, state, more, unstaged } = useStageFigures(filter);
  const empty = !rows.some((r) => r.count > 0);
  const words = { count: a('count'), abnormal: a('abnormal'), rate: a('rate') };
  const height = Math.max(200, rows.length * 44 + 60);
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24}>
        <ChartCard
          title={a('stageTable')}
          state={state}
          empty={empty}
          emptyText={a('noStages')}
          testId="analysis-stages"
          height={120}
          extra={
            (more || unstaged > 0) && (
              <Typography.Text type="secondary" className="stats-hint" data-testid="analysis-unstaged">
                {[more && a('moreStages', { n: MAX_STAGES }), unstaged > 0 && a('unstaged', { n: unstaged })].filter(Boolean).join(' · ')}
              </Typography.Text>
            )
          }
        >
          <DetailTable<StageFigures>
            rowKey="stagecode"
            size="small"
            dataSource={rows}
            data-testid="analysis-stage-table"
            scroll={{ x: 760 }}
            columns={[
              { title: a('stage'), dataIndex: 'name', width: 160 },
              { title: a('persons'), dataIndex: 'persons', width: 90, align: 'right' },
              { title: a('count'), dataIndex: 'count', width: 90, align: 'right' },
              { title: a('abnormal'), dataIndex: 'abnormal', width: 90, align: 'right' },
              { title: a('rate'), key: 'rate', width: 90, align: 'right', render: (_: unknown, r) => `${rateOf(r.abnormal, r.count)}%` },
              {
                title: a('depressedSevere'),
                key: 'dep',
                width: 130,
                align: 'right',
                render: (_: unknown, r) => `${severeShare(r.depressed)}%`,
              },
              {
                title: a('anxiousSevere'),
                key: 'anx',
                width: 130,
                align: 'right',
                render: (_: unknown, r) => `${severeShare(r.anxious)}%`,
              },
            ]}
          />
        </ChartCard>
      </Col>
      {MOODS.map((kind) => (
        <Col xs={24} xl={12} key={kind}>
          <ChartCard
            title={a(`${kind}ByStage`)}
            state={state}
            empty={!rows.some((r) => r[kind].total)}
            emptyText={a('noMood')}
            testId={`analysis-${kind}`}
            height={height}
          >
            <EChart
              testId={`analysis-${kind}-chart`}
              points={rows.length}
              height={height}
              option={levelShareOption(
                rows.map((r) => ({ name: r.name, ...r[kind] })),
                level,
              )}
            />
          </ChartCard>
        </Col>
      ))}
      <Col xs={24}>
        <ChartCard title={a('countByStage')} state={state} empty={empty} emptyText={a('noStages')} testId="analysis-counts" height={height}>
          <EChart
            testId="analysis-counts-chart"
            points={rows.length}
            height={height}
            option={abnormalBarOption(rows, words, { horizontal: true })}
          />
        </ChartCard>
      </Col>
    </Row>
  );
}

/** Each indicator of one form: reports per level; a segment opens exactly those reports. */
function FormSection({ filter }: { filter: StatsFilter }) {
  const a = useA();
  const level = useLevelLabel();
  const { jump, chooser } = useReportJump();
  const scope = {
    ...(filter.musercode ? { musercode: filter.musercode } : {}),
    ...(filter.appid ? { appid: filter.appid } : {}),
    ...(filter.stagecode ? { stagecode: filter.stagecode } : {}),
  };
  const q = useAction(FORMS, scope);
  const forms = (q.data ?? []).filter((f) => f.quotas.some((x) => x.levels.length));
  const [chosen, setChosen] = useState<string>();
  const form = forms.find((f) => f.formcode === chosen) ?? forms[0];
  const quotas = (form?.quotas ?? []).filter((x) => x.levels.length);
  const height = Math.max(200, quotas.length * 34 + 70);
  return (
    <ChartCard
      title={a('byForm')}
      state={q}
      empty={!forms.length}
      emptyText={a('noForms')}
      testId="analysis-forms"
      height={height}
      extra={
        forms.length > 0 && (
          <Select
            size="small"
            value={form?.formcode}
            onChange={setChosen}
            style={{ width: 260, maxWidth: '50vw' }}
            options={forms.map((f) => ({ value: f.formcode, label: `${f.formname} (${f.reports})` }))}
            aria-label={a('form')}
            data-testid="analysis-form"
          />
        )
      }
    >
      <EChart
        testId="analysis-forms-chart"
        points={quotas.length}
        height={height}
        option={quotaLevelOption(quotas, level)}
        onClick={({ seriesIndex, dataIndex }) => {
          const x = quotas[dataIndex];
          if (form && x)
            jump(
              { filter, quota: { formcode: form.formcode, quotacode: x.quotacode, level: seriesIndex } },
              `${form.formname} · ${x.name} · ${level(seriesIndex)}`,
            );
        }}
      />
      <Space orientation="vertical" size={0}>
        <Typography.Text type="secondary" className="stats-hint">
          {a('formHint')}
        </Typography.Text>
      </Space>
      {chooser}
    </ChartCard>
  );
}

export default function UsersReportS() {
  const { t } = useTranslation();
  const api = useStatsFilter();
  const district = useRegionAuthority();
  return (
    <div className="stats-page" data-testid="analysis-page">
      {district && <Alert type="info" showIcon title={t('earlyWarning.district.reportScope')} data-testid="analysis-district-scope" />}
      <StatsFilterBar api={api} />
      <StageSection filter={api.filter} />
      <FormSection filter={api.filter} />
    </div>
  );
}
