/**
 * Plan authorisation statistics (SPEC §2 /Datastatistics/Datastatisticst, 00053): the
 * authorisations by status and the assessments authorised, used and remaining, per institution;
 * the assessments in the date range (reports, persons, abnormal; codes issued, started, finished
 * and the completion rate); and the intervention records (follow-ups and case counts).
 * Institution, plan and status narrow the authorisations; institution and dates the rest.
 */
import { useMemo, useState } from 'react';
import { Alert, Col, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { caseOutcome, ContactWayName, enumLabel, type FollowUpRow } from '@xinli/contract';
import { useRegionAuthority } from '../../components/access';
import ChartCard from '../../components/charts/ChartCard';
import EChart from '../../components/charts/EChart';
import { DetailTable, f, FilterFields, SearchForm } from '../../components/list';
import { useAction } from '../../components/query';
import { formatTime } from '../../lib/format';
import { Figure, FigureRow, STAT, useUrlFilterForm } from '../../features/stats/stats-ui';
import { percent, statsFilterOf } from '../../features/stats/stats-filter';
import { usedRemainingOption } from '../../features/stats/chart-options';
import { RESOURCE, usePlanFilters, useP } from './plan-ui';
import '../../features/stats/stats.css';
import { useT } from '../../i18n/useT';
import { useLevelLabel } from '../../components/levels';

/** A figure's value: the count with digit grouping, 0 until it is known. */
const n = (v: number | undefined) => (v ?? 0).toLocaleString();

type Institution = { musercode: string; insname: string; count: number; used: number; remaining: number };

function Authorisations({
  input,
}: {
  input: { musercode?: string; plancode?: string; status?: 'pending' | 'active' | 'expired' | 'expiring' };
}) {
  const p = useP();
  const q = useAction('as.m.hospital.statistic.getPlanAuthorizeCount', input, STAT);
  const d = q.data;
  const rows: Institution[] = d?.institutions ?? [];
  const height = Math.max(200, Math.min(rows.length, 15) * 34 + 70);
  const shown = rows.slice(0, 15);
  // The chart and the table of the institutions load, fail and are empty together.
  const perInstitution = { state: q, empty: !rows.length, emptyText: p('noAuthorisations'), height };
  return (
    <>
      <Typography.Title level={5} className="stats-section">
        {p('authorisations')}
      </Typography.Title>
      <FigureRow>
        <Figure
          testId="plan-kpi-authorizations"
          title={p('authorizations')}
          state={q}
          value={n(d?.authorizations)}
          note={d && p('byStatus', { active: d.active, pending: d.pending, expired: d.expired })}
        />
        <Figure
          testId="plan-kpi-expiring"
          title={p('expiringCount')}
          state={q}
          value={n(d?.expiring)}
          tone={d?.expiring ? 'warn' : undefined}
          note={p('expiringNote')}
        />
        <Figure testId="plan-kpi-count" title={p('count')} state={q} value={n(d?.count)} />
        <Figure
          testId="plan-kpi-used"
          title={p('usedcount')}
          state={q}
          value={n(d?.used)}
          note={d && p('usageNote', { rate: d.count ? percent(d.used / d.count) : 0 })}
        />
        <Figure testId="plan-kpi-remaining" title={p('remaining')} state={q} value={n(d?.remaining)} />
      </FigureRow>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <ChartCard title={p('perInstitution')} testId="plan-institutions" {...perInstitution}>
            <EChart
              testId="plan-institutions-chart"
              points={shown.length}
              height={height}
              option={usedRemainingOption(
                shown.map((r) => ({ ...r, name: r.insname || r.musercode })),
                { used: p('usedcount'), remaining: p('remaining') },
              )}
            />
          </ChartCard>
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard title={p('perInstitutionTable')} testId="plan-institutions-table" {...perInstitution}>
            <DetailTable<Institution>
              rowKey="musercode"
              size="small"
              pageSize={8}
              dataSource={rows}
              scroll={{ x: 440 }}
              columns={[
                { title: p('insname'), dataIndex: 'insname', width: 180, ellipsis: true },
                { title: p('count'), dataIndex: 'count', width: 80, align: 'right' },
                { title: p('usedcount'), dataIndex: 'used', width: 80, align: 'right' },
                { title: p('remaining'), dataIndex: 'remaining', width: 80, align: 'right' },
                {
                  title: p('usage'),
                  key: 'usage',
                  width: 80,
                  align: 'right',
                  render: (_: unknown, r) => `${r.count ? percent(r.used / r.count) : 0}%`,
                },
              ]}
            />
          </ChartCard>
        </Col>
      </Row>
    </>
  );
}

function Assessments({ input }: { input: { musercode?: string; startdate?: string; enddate?: string } }) {
  const p = useP();
  const totals = useAction('as.m.hospital.statistic.getTotalAssessCount', input, STAT);
  const done = useAction('as.m.hospital.statistic.getCompleteAssessCount', input, STAT);
  const tt = totals.data;
  const d = done.data;
  return (
    <>
      <Typography.Title level={5} className="stats-section">
        {p('assessments')}
      </Typography.Title>
      <FigureRow>
        <Figure testId="data-kpi-reports" title={p('reports')} state={totals} value={n(tt?.reports)} />
        <Figure testId="data-kpi-persons" title={p('persons')} state={totals} value={n(tt?.persons)} />
        <Figure
          testId="data-kpi-abnormal"
          title={p('abnormal')}
          state={totals}
          value={n(tt?.abnormal)}
          tone="warn"
          note={tt && p('rateNote', { rate: tt.reports ? percent(tt.abnormal / tt.reports) : 0 })}
        />
        <Figure
          testId="data-kpi-given"
          title={p('given')}
          state={done}
          value={n(d?.total)}
          note={d && p('givenNote', { issued: d.issued, started: d.started })}
        />
        <Figure
          testId="data-kpi-finished"
          title={p('finished')}
          state={done}
          value={n(d?.finished)}
          note={d && p('completion', { rate: percent(d.ratio) })}
        />
      </FigureRow>
    </>
  );
}

function Interventions({ input }: { input: { musercode?: string; startdate?: string; enddate?: string } }) {
  const p = useP();
  const outcomeWord = useT('earlyWarning.case');
  const { i18n } = useTranslation();
  const levelLabel = useLevelLabel();
  const [page, setPage] = useState(1);
  const q = useAction('as.m.hospital.statistic.getInterfereRecord', { ...input, page, pageSize: 10 }, STAT);
  const c = q.data?.cases;
  // The contract's outcomes, in its order: each has its words (a missing one fails the type check).
  const outcomes = caseOutcome.options.map((o) => [o, c?.outcomes[o] ?? 0] as const).filter(([, v]) => v > 0);
  return (
    <ChartCard
      title={p('interventions')}
      state={q}
      testId="data-interventions"
      height={160}
      extra={
        c && (
          <Space size={[4, 4]} wrap data-testid="data-cases">
            <Tag>{p('cases', { n: c.total })}</Tag>
            <Tag color="processing">{p('casesOpen', { n: c.open })}</Tag>
            <Tag color="success">{p('casesClosed', { n: c.closed })}</Tag>
            <Tag color="error">{p('casesCritical', { n: c.critical })}</Tag>
            {outcomes.map(([k, v]) => (
              <Tag key={k}>
                {outcomeWord(`outcomes.${k}`)} {v}
              </Tag>
            ))}
          </Space>
        )
      }
    >
      <DetailTable<FollowUpRow>
        rowKey="followid"
        size="small"
        dataSource={q.data?.rows}
        empty={p('noFollowUps')}
        data-testid="data-followups"
        scroll={{ x: 860 }}
        paged={{ page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: p('followdate'), dataIndex: 'followdate', width: 110 },
          { title: p('realname'), dataIndex: 'realname', width: 100 },
          {
            title: p('way'),
            dataIndex: 'way',
            width: 100,
            render: (v: string) => enumLabel(ContactWayName, v, i18n.language === 'en-US' ? 'en-US' : 'zh-CN'),
          },
          { title: p('byname'), dataIndex: 'byname', width: 100 },
          { title: p('risk'), dataIndex: 'risk', width: 90, render: (v: number) => levelLabel(v) },
          { title: p('content'), dataIndex: 'content', width: 260, ellipsis: true },
          {
            title: p('nextdate'),
            dataIndex: 'nextdate',
            width: 110,
            render: (v: string, r) => (r.overdue ? <Typography.Text type="danger">{v}</Typography.Text> : v || '—'),
          },
          { title: p('createdat'), dataIndex: 'createdat', width: 140, render: (v: string) => formatTime(v) },
        ]}
      />
    </ChartCard>
  );
}

/**
 * An education bureau's interventions: follow-ups are each school's (by name), so the district
 * sees the case and follow-up totals of its schools, small counts withheld (issue 28).
 */
function DistrictInterventions({ input }: { input: { musercode?: string; startdate?: string; enddate?: string } }) {
  const p = useP();
  const { t } = useTranslation();
  const d = useT('earlyWarning.district');
  const q = useAction('as.m.warning.getCaseSummary', input, STAT);
  const s = q.data;
  const c = (v: number | null | undefined) => (v === null ? d('small', { min: s?.mincell ?? 5 }) : (v ?? 0).toLocaleString());
  const closed = s?.bystate.find((x) => x.state === 'closed')?.count;
  const critical = s?.bylevel.find((x) => x.level === 'critical')?.count;
  return (
    <ChartCard title={p('interventions')} state={q} testId="data-interventions" height={120}>
      <Space orientation="vertical" size={8}>
        <Space size={[4, 4]} wrap data-testid="data-cases">
          <Tag>{`${d('total')} ${c(s?.total)}`}</Tag>
          <Tag color="error">{`${d('critical')} ${c(critical)}`}</Tag>
          <Tag color="success">{`${t('earlyWarning.case.states.closed')} ${c(closed)}`}</Tag>
          <Tag color="processing">{`${d('followups')} ${c(s?.followups)}`}</Tag>
        </Space>
        <Typography.Text type="secondary" data-testid="data-district-scope">
          {d('followScope')}
        </Typography.Text>
      </Space>
    </ChartCard>
  );
}

export default function Datastatisticst() {
  const { t } = useTranslation();
  const planDefs = usePlanFilters();
  const district = useRegionAuthority();
  const defs = useMemo(() => [...planDefs, f.dateRange('dateRange', ['startdate', 'enddate'])], [planDefs]);
  const api = useUrlFilterForm(defs);
  const v = api.values as Record<string, string | undefined>;
  const scope = statsFilterOf(v);
  const auth = {
    ...(v.musercode ? { musercode: v.musercode } : {}),
    ...(v.plancode ? { plancode: v.plancode } : {}),
    ...(v.status ? { status: v.status as 'active' } : {}),
  };
  const ranged = {
    ...(scope.musercode ? { musercode: scope.musercode } : {}),
    ...(scope.startdate && scope.enddate ? { startdate: scope.startdate, enddate: scope.enddate } : {}),
  };
  return (
    <div className="stats-page" data-testid="plan-stats">
      <div className="list-page stats-filter-plain">
        <SearchForm form={api.form} onSearch={api.search} onReset={api.reset}>
          <FilterFields defs={defs} resource={RESOURCE} />
        </SearchForm>
      </div>
      {district && <Alert type="info" showIcon title={t('earlyWarning.district.planScope')} data-testid="data-district-plans" />}
      <Authorisations input={auth} />
      <Assessments input={ranged} />
      {district ? <DistrictInterventions input={ranged} /> : <Interventions key={JSON.stringify(ranged)} input={ranged} />}
    </div>
  );
}
