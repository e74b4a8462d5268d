/**
 * The statistics dashboard (statistics1 /statistics/statistics and the elderly-care variant
 * statisticsN): the filter bar (kept in the URL), the figures, and the chart cards. Each card
 * loads on its own; a bar, point or slice opens the matching report list.
 */
import { Col, Row } from 'antd';
import { PopulationApp, type StatsFilter } from '@xinli/contract';
import {
  DayTrendCard,
  GenderCard,
  GradeRatioCard,
  GradeTrendCard,
  ClassRatioCard,
  MoodCard,
  SceneTrendCard,
} from './StatCards';
import { Figure, FigureRow, StatsFilterBar, useAccountPopulations, useK, useReportJump, useStatsFilter, STAT } from './stats-ui';
import { useAction } from '../../components/query';
import { cardsFor, percent, rateOf } from './stats-filter';
import './stats.css';

export type Variant = 'general' | 'elderly';

/** Institutions assessed, reports, persons registered and assessed, abnormal reports and their rate. */
export function Figures({ filter, variant, refetchInterval }: { filter: StatsFilter; variant: Variant; refetchInterval?: number }) {
  const k = useK();
  const o = { ...STAT, refetchInterval };
  const schools = useAction('as.m.assess.getAssessSchoolCount', filter, o);
  const reports = useAction('as.m.assess.getAssessCount', filter, o);
  const people = useAction('as.m.assess.getAssessPeopleCount', filter, o);
  const assessed = useAction('as.m.assess.getAssessPeopleCompleteCount', filter, o);
  const abnormal = useAction('as.m.assess.getAssessAbnormalCount', filter, o);
  const n = (v: number | undefined) => (v ?? 0).toLocaleString();
  const both = {
    isLoading: reports.isLoading || abnormal.isLoading,
    error: reports.error ?? abnormal.error,
    refetch: () => Promise.all([reports.refetch(), abnormal.refetch()]),
  };
  const elderly = variant === 'elderly';
  return (
    <FigureRow>
      <Figure
        testId="stats-kpi-institutions"
        title={k('institutions')}
        state={schools}
        value={n(schools.data?.assessed)}
        suffix={`/ ${n(schools.data?.total)}`}
        note={
          schools.data
            ? k('institutionsNote', { rate: schools.data.total ? percent(schools.data.assessed / schools.data.total) : 0 })
            : undefined
        }
      />
      <Figure testId="stats-kpi-reports" title={k('reports')} state={reports} value={n(reports.data?.count)} />
      <Figure
        testId="stats-kpi-registered"
        title={k(elderly ? 'registeredN' : 'registered')}
        state={people}
        value={n(people.data?.count)}
        help={k('registeredHelp')}
      />
      <Figure
        testId="stats-kpi-assessed"
        title={k(elderly ? 'assessedN' : 'assessed')}
        state={assessed}
        value={n(assessed.data?.count)}
        note={
          assessed.data && people.data?.count
            ? k('assessedNote', { rate: percent(Math.min(1, assessed.data.count / people.data.count)) })
            : undefined
        }
      />
      <Figure
        testId="stats-kpi-abnormal"
        title={k('abnormalReports')}
        state={both}
        value={n(abnormal.data?.count)}
        tone="warn"
        help={k('abnormalHelp')}
        note={abnormal.data && reports.data ? k('rateNote', { rate: rateOf(abnormal.data.count, reports.data.count) }) : undefined}
      />
    </FigureRow>
  );
}

export default function Dashboard({ variant }: { variant: Variant }) {
  const k = useK();
  const elderly = variant === 'elderly';
  const api = useStatsFilter(elderly ? { appid: PopulationApp.olderAdults } : {});
  const { filter } = api;
  const { jump, chooser } = useReportJump();
  const card = { filter, onJump: jump };
  // Only the cards that fit the populations in view: no grades for a hospital, no men and women for maternity alone.
  const { classes, gender } = cardsFor(filter, useAccountPopulations());
  return (
    <div className="stats-page" data-testid="stats-page" data-variant={variant}>
      <StatsFilterBar api={api} />
      <Figures filter={filter} variant={variant} />
      <Row gutter={[12, 12]}>
        <Col xs={24}>
          <DayTrendCard {...card} />
        </Col>
        <Col xs={24} xl={classes ? 12 : 24}>
          <SceneTrendCard {...card} title={elderly ? k('monthTrend') : undefined} />
        </Col>
        {classes && (
          <Col xs={24} xl={12}>
            <GradeTrendCard {...card} />
          </Col>
        )}
        <Col xs={24} lg={12} xl={gender ? 8 : 12}>
          <MoodCard kind="depressed" {...card} />
        </Col>
        <Col xs={24} lg={12} xl={gender ? 8 : 12}>
          <MoodCard kind="anxious" {...card} />
        </Col>
        {gender && (
          <Col xs={24} xl={8}>
            <GenderCard {...card} />
          </Col>
        )}
        {classes && (
          <>
            <Col xs={24} xl={12}>
              <GradeRatioCard {...card} />
            </Col>
            <Col xs={24} xl={12}>
              <ClassRatioCard {...card} />
            </Col>
          </>
        )}
      </Row>
      {chooser}
    </div>
  );
}
