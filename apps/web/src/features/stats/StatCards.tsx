/**
 * The chart cards of the statistics pages and the big screen. Each card calls its own action
 * under the filter and shows its own loading, empty and error state; a bar, point or slice that
 * stands for reports opens the matching report list (`onJump`).
 */
import type { ReactNode } from 'react';
import { Typography } from 'antd';
import { enumLabel, Gender, PopulationApp, type ClassRatioRow, type StatsFilter } from '@xinli/contract';
import ChartCard, { type CardState } from '../../components/charts/ChartCard';
import EChart, { type EChartProps } from '../../components/charts/EChart';
import { DetailTable } from '../../components/list';
import { useAction } from '../../components/query';
import { useLevelLabel } from '../../components/levels';
import { useLang } from '../../lib/options';
import { abnormalBarOption, dayTrendOption, gradeTrendOption, levelPieOption, sceneTrend } from './chart-options';
import type { ReportLinkTarget } from '../links';
import { dayTrendTooLong, monthTrendTooLong, rateOf } from './stats-filter';
import { STAT, useK } from './stats-ui';

export type Jump = (target: Omit<ReportLinkTarget, 'appid'> & { appid?: string }, what: string) => void;

export interface CardProps {
  filter: StatsFilter;
  /** Opens the report list behind a bar or point; absent on the big screen. */
  onJump?: Jump;
  dark?: boolean;
  height?: number;
  /** Refresh interval (the big screen). */
  refetchInterval?: number;
}

function ClickHint({ show, text }: { show: boolean; text?: string }) {
  const k = useK();
  return show ? (
    <Typography.Text type="secondary" className="stats-hint">
      {text ?? k('clickHint')}
    </Typography.Text>
  ) : null;
}

/**
 * The frame of a trend card: over a range too long to draw it asked nothing (so nothing loads or
 * fails) and says so; otherwise it is empty when no row counts a report. Clickable when it jumps.
 */
function TrendCard({
  tooLong,
  q,
  rows,
  text,
  testId,
  dark,
  height,
  title,
  extra,
  ...chart
}: Pick<EChartProps, 'option' | 'onClick' | 'onColumn'> & {
  tooLong: boolean;
  q: CardState;
  rows: { count: number }[];
  text: { tooLong: string; none: string };
  testId: string;
  dark?: boolean;
  height: number;
  title: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <ChartCard
      title={title}
      extra={extra}
      state={tooLong ? { isLoading: false, error: null, refetch: () => undefined } : q}
      empty={tooLong || !rows.some((r) => r.count > 0)}
      emptyText={tooLong ? text.tooLong : text.none}
      testId={testId}
      dark={dark}
      height={height}
    >
      <EChart testId={`${testId}-chart`} points={rows.length} height={height} {...chart} />
      <ClickHint show={!!chart.onColumn} />
    </ChartCard>
  );
}

type Group = Pick<ReportLinkTarget, 'gender' | 'grade' | 'teamid'>;

/**
 * The clicks of a reports / abnormal bar chart: a bar opens its group's reports (the abnormal
 * bar, the abnormal ones), a click elsewhere in the column the group's reports.
 */
function useBarJump(filter: StatsFilter, onJump: Jump | undefined, groupAt: (i: number) => { group: Group; name: string } | undefined) {
  const k = useK();
  const open = (i: number, abnormal: boolean) => {
    const g = groupAt(i);
    if (g && onJump) onJump({ filter, ...g.group, abnormal }, k(abnormal ? 'abnormalWhat' : 'barWhat', { name: g.name }));
  };
  return {
    onClick: onJump && (({ seriesIndex, dataIndex }: { seriesIndex: number; dataIndex: number }) => open(dataIndex, seriesIndex === 1)),
    onColumn: onJump && ((i: number) => open(i, false)),
  };
}

/** Reports and abnormal reports per day (the range, or the 30 days ending today). */
export function DayTrendCard({ filter, onJump, dark, height = 280, refetchInterval, title }: CardProps & { title?: ReactNode }) {
  const k = useK();
  const tooLong = dayTrendTooLong(filter);
  const q = useAction('as.m.assess.getAssessDayCountTrend', filter, { ...STAT, enabled: !tooLong, refetchInterval });
  const rows = q.data?.rows ?? [];
  const range = rows.length ? `${rows[0]!.date} ~ ${rows.at(-1)!.date}` : '';
  const openDay = (i: number, abnormal = false) => {
    const date = rows[i]?.date;
    if (date && onJump) onJump({ filter, date, abnormal }, k(abnormal ? 'abnormalWhat' : 'barWhat', { name: date }));
  };
  return (
    <TrendCard
      title={title ?? k('dayTrend')}
      extra={
        !tooLong && range ? (
          <Typography.Text type="secondary" className="stats-hint">
            {range}
          </Typography.Text>
        ) : undefined
      }
      {...{ tooLong, q, rows, dark, height }}
      text={{ tooLong: k('tooLongDay'), none: k('noReports') }}
      testId="stats-day"
      option={dayTrendOption(rows, { count: k('count'), abnormal: k('abnormal') }, { dark })}
      onClick={onJump && (({ seriesIndex, dataIndex }) => openDay(dataIndex, seriesIndex === 1))}
      onColumn={onJump && ((i) => openDay(i))}
    />
  );
}

/** Reports per month and population; a bar opens that population's reports of the month. */
export function SceneTrendCard({
  filter,
  onJump,
  dark,
  height = 280,
  refetchInterval,
  title,
  testId = 'stats-scene',
}: CardProps & { title?: ReactNode; testId?: string }) {
  const k = useK();
  const tooLong = monthTrendTooLong(filter);
  const q = useAction('as.m.assess.getSceneCountTrend', filter, { ...STAT, enabled: !tooLong, refetchInterval });
  const rows = q.data?.rows ?? [];
  const scene = sceneTrend(rows, { dark });
  return (
    <TrendCard
      title={title ?? k('sceneTrend')}
      {...{ tooLong, q, rows, testId, dark, height }}
      text={{ tooLong: k('tooLongMonth'), none: k('noReports') }}
      option={scene.option}
      onClick={
        onJump &&
        (({ seriesIndex, dataIndex }) => {
          const appid = scene.appids[seriesIndex];
          const month = scene.months[dataIndex];
          if (appid && month) onJump({ filter, appid, month }, month);
        })
      }
      onColumn={
        onJump &&
        ((i) => {
          const month = scene.months[i];
          // One population drawn: its reports; several: the dialog asks which.
          if (month) onJump({ filter, month, appid: scene.appids.length === 1 ? scene.appids[0] : undefined }, month);
        })
      }
    />
  );
}

/** Reports per month and grade (class tasks only). */
export function GradeTrendCard({ filter, dark, height = 280, refetchInterval }: CardProps) {
  const k = useK();
  const tooLong = monthTrendTooLong(filter);
  const q = useAction('as.m.assess.getAssessGradeCountTrend', filter, { ...STAT, enabled: !tooLong, refetchInterval });
  const rows = q.data?.rows ?? [];
  return (
    <TrendCard
      title={k('gradeTrend')}
      {...{ tooLong, q, rows, dark, height }}
      text={{ tooLong: k('tooLongMonth'), none: k('noClasses') }}
      testId="stats-grade-trend"
      option={gradeTrendOption(q.data?.grades ?? [], rows, { dark })}
    />
  );
}

/** Depression or anxiety results per level; a slice opens the reports at that level or above. */
export function MoodCard({ kind, filter, onJump, dark, height = 260, refetchInterval }: CardProps & { kind: 'depressed' | 'anxious' }) {
  const k = useK();
  const level = useLevelLabel();
  const action = kind === 'depressed' ? 'as.m.assess.getDepressedQuotaCountRatio' : 'as.m.assess.getAnxiousQuotaCountRatio';
  const q = useAction(action, filter, { ...STAT, refetchInterval });
  const rows = q.data?.rows ?? [];
  return (
    <ChartCard
      title={k(kind)}
      extra={
        q.data ? (
          <Typography.Text type="secondary" className="stats-hint">
            {k('results', { n: q.data.total })}
          </Typography.Text>
        ) : undefined
      }
      state={q}
      empty={!q.data?.total}
      emptyText={k(kind === 'depressed' ? 'noDepressed' : 'noAnxious')}
      testId={`stats-${kind}`}
      dark={dark}
      height={height}
    >
      <EChart
        testId={`stats-${kind}-chart`}
        points={rows.length}
        height={height}
        option={levelPieOption(rows, level, { dark })}
        onClick={
          onJump &&
          (({ dataIndex }) => {
            const l = rows[dataIndex]?.level ?? 0;
            if (l >= 1) onJump({ filter, mood: { kind, minlevel: l } }, k('moodWhat', { kind: k(kind), level: level(l) }));
          })
        }
      />
      <ClickHint show={!!onJump} text={k('moodHint')} />
    </ChartCard>
  );
}

/**
 * The card of reports, abnormal reports and the abnormal rate per group (gender, grade) as bars;
 * `groupAt` names the group of a bar for its click (none: the bar opens nothing).
 */
function AbnormalBarCard({
  filter,
  onJump,
  dark,
  height = 280,
  state,
  rows,
  groupAt,
  title,
  emptyText,
  testId,
}: CardProps & {
  state: CardState;
  rows: { name: string; count: number; abnormal: number }[];
  groupAt: (i: number) => { group: Group; name: string } | undefined;
  title: string;
  emptyText: string;
  testId: string;
}) {
  const k = useK();
  const clicks = useBarJump(filter, onJump, groupAt);
  return (
    <ChartCard
      title={title}
      state={state}
      empty={!rows.some((r) => r.count > 0)}
      emptyText={emptyText}
      testId={testId}
      dark={dark}
      height={height}
    >
      <EChart
        testId={`${testId}-chart`}
        points={rows.length}
        height={height}
        option={abnormalBarOption(rows, { count: k('count'), abnormal: k('abnormal'), rate: k('rate') }, { dark })}
        {...clicks}
      />
      <ClickHint show={!!onJump} />
    </ChartCard>
  );
}

/** Reports, abnormal reports and the abnormal rate of men and women. */
export function GenderCard(props: CardProps) {
  const k = useK();
  const lang = useLang();
  const q = useAction('as.m.assess.getManAndWomanAbnormalCountRatio', props.filter, { ...STAT, refetchInterval: props.refetchInterval });
  const rows = (q.data?.rows ?? []).map((r) => ({
    gender: r.gender,
    name: enumLabel(Gender, r.gender, lang),
    count: r.count,
    abnormal: r.abnormal,
  }));
  return (
    <AbnormalBarCard
      height={260}
      {...props}
      state={q}
      rows={rows}
      groupAt={(i) => rows[i] && { group: { gender: rows[i].gender }, name: rows[i].name }}
      title={k('gender')}
      emptyText={k('noReports')}
      testId="stats-gender"
    />
  );
}

/** Reports, abnormal reports and the abnormal rate per grade (class tasks only). */
export function GradeRatioCard(props: CardProps) {
  const k = useK();
  const q = useAction('as.m.assess.getGradeReportCountRatio', props.filter, { ...STAT, refetchInterval: props.refetchInterval });
  const rows = (q.data?.rows ?? []).map((r) => ({ grade: r.grade, name: r.grade || '—', count: r.count, abnormal: r.abnormal }));
  return (
    <AbnormalBarCard
      {...props}
      state={q}
      rows={rows}
      // A class without a grade has no grade to filter by: its bar opens nothing.
      groupAt={(i) => (rows[i]?.grade ? { group: { grade: rows[i].grade }, name: rows[i].name } : undefined)}
      title={k('gradeRatio')}
      emptyText={k('noClasses')}
      testId="stats-grade-ratio"
    />
  );
}

/** Per class: reports, abnormal ones and the rate, highest rate first; a count opens its reports. */
export function ClassRatioCard({ filter, onJump, height = 280 }: CardProps) {
  const k = useK();
  const q = useAction('as.m.assess.getClassReportCountRatio', filter, STAT);
  const rows = [...(q.data?.rows ?? [])].sort((a, b) => b.ratio - a.ratio || b.count - a.count);
  const count = (abnormal: boolean) => (v: number, r: ClassRatioRow) =>
    onJump && v ? (
      <a
        onClick={() =>
          onJump({ filter, teamid: r.teamid, abnormal }, k(abnormal ? 'abnormalWhat' : 'barWhat', { name: `${r.grade} ${r.classname}` }))
        }
        data-testid={`stats-class-${abnormal ? 'abnormal' : 'count'}-${r.teamid}`}
      >
        {v}
      </a>
    ) : (
      v
    );
  return (
    <ChartCard title={k('classRatio')} state={q} empty={!rows.length} emptyText={k('noClasses')} testId="stats-class" height={height}>
      <DetailTable<ClassRatioRow>
        rowKey="teamid"
        size="small"
        pageSize={6}
        dataSource={rows}
        data-testid="stats-class-table"
        scroll={{ x: 580 }}
        columns={[
          { title: k('insname'), dataIndex: 'insname', width: 150, ellipsis: true },
          { title: k('grade'), dataIndex: 'grade', width: 80 },
          { title: k('classname'), dataIndex: 'classname', width: 100 },
          { title: k('count'), dataIndex: 'count', width: 70, align: 'right', render: count(false) },
          { title: k('abnormal'), dataIndex: 'abnormal', width: 90, align: 'right', render: count(true) },
          { title: k('rate'), key: 'rate', width: 90, align: 'right', render: (_: unknown, r) => `${rateOf(r.abnormal, r.count)}%` },
        ]}
      />
    </ChartCard>
  );
}

/** Whether the class and grade cards apply: students, or every population. */
export const showsClasses = (filter: StatsFilter) => !filter.appid || filter.appid === PopulationApp.students;
