import { describe, expect, it } from 'vitest';
import {
  dayTrendTooLong,
  monthRange,
  monthTrendTooLong,
  rangeDays,
  rangeMonths,
  rateOf,
  staleStage,
  cardsFor,
  statsFilterOf,
} from './stats-filter';
import { reportListLink, reportPageOf, type ReportLinkTarget } from '../links';

describe('the statistics filter', () => {
  it('keeps the known fields, drops blanks, and lets the page fix a field', () => {
    expect(statsFilterOf({ musercode: 'I0001', appid: '', level: '3', startdate: '2026-01-01', enddate: '2026-01-31' })).toEqual({
      musercode: 'I0001',
      startdate: '2026-01-01',
      enddate: '2026-01-31',
    });
    expect(statsFilterOf({ appid: '000000002' }, { appid: '000000004' })).toEqual({ appid: '000000004' });
  });

  it('counts days and months of a range with both ends included', () => {
    expect(rangeDays({ startdate: '2026-03-01', enddate: '2026-03-01' })).toBe(1);
    expect(rangeDays({ startdate: '2024-02-28', enddate: '2024-03-01' })).toBe(3);
    expect(rangeDays({ startdate: '2026-03-01' })).toBeNull();
    expect(rangeMonths({ startdate: '2025-12-31', enddate: '2026-01-01' })).toBe(2);
  });

  it('knows the contract bounds of the trends: 366 days, 36 months', () => {
    expect(dayTrendTooLong({ startdate: '2025-01-01', enddate: '2026-01-01' })).toBe(false); // 366 days
    expect(dayTrendTooLong({ startdate: '2025-01-01', enddate: '2026-01-02' })).toBe(true);
    expect(monthTrendTooLong({ startdate: '2023-01-01', enddate: '2025-12-31' })).toBe(false);
    expect(monthTrendTooLong({ startdate: '2023-01-01', enddate: '2026-01-01' })).toBe(true);
    expect(dayTrendTooLong({})).toBe(false);
  });

  it('narrows a month to the filter range', () => {
    expect(monthRange('2024-02', {})).toEqual({ startdate: '2024-02-01', enddate: '2024-02-29' });
    expect(monthRange('2026-03', { startdate: '2026-03-10', enddate: '2026-05-01' })).toEqual({
      startdate: '2026-03-10',
      enddate: '2026-03-31',
    });
  });

  it('computes the abnormal rate in percent with one decimal', () => {
    expect(rateOf(1, 3)).toBe(33.3);
    expect(rateOf(0, 0)).toBe(0);
  });
});

describe('links from a chart to the report list', () => {
  const filter = { musercode: 'I0001', stagecode: 'ST-S1', provincecode: '330000', startdate: '2026-01-01', enddate: '2026-03-31' };

  it('maps populations to their report pages', () => {
    expect(reportPageOf('000000002')).toBe('/empower/usersReport');
    expect(reportPageOf('000000004')).toBe('/empower/usersReport4');
    expect(reportPageOf('000000005')).toBe('/empower/usersReportCustom');
    expect(reportPageOf('999999999')).toBeUndefined();
  });

  it('carries institution, region, stage and dates, and only the reports the statistics count', () => {
    expect(reportListLink({ appid: '000000002', filter })).toBe(
      '/empower/usersReport?musercode=I0001&stagecode=ST-S1&provincecode=330000&counted=1&startdate=2026-01-01&enddate=2026-03-31',
    );
  });

  it('carries the bar’s gender, class or grade, and the abnormal reports of an abnormal bar', () => {
    const params = (t: Partial<ReportLinkTarget>) =>
      Object.fromEntries(new URL(reportListLink({ appid: '000000002', filter: {}, ...t })!, 'http://x').searchParams);
    expect(params({ gender: '02', abnormal: true })).toEqual({ counted: '1', gender: '02', abnormal: '1' });
    expect(params({ teamid: 'TM1', abnormal: false })).toEqual({ counted: '1', teamid: 'TM1' });
    expect(params({ grade: '七年级' })).toEqual({ counted: '1', grade: '七年级' });
  });

  it('opens one day or one month (within the filter range), and a half-open range as it is', () => {
    expect(reportListLink({ appid: '000000002', filter, date: '2026-02-03' })).toContain('startdate=2026-02-03&enddate=2026-02-03');
    expect(reportListLink({ appid: '000000001', filter: { startdate: '2026-03-15' }, month: '2026-03' })).toBe(
      '/empower/usersReport2?counted=1&startdate=2026-03-15&enddate=2026-03-31',
    );
    expect(reportListLink({ appid: '000000001', filter: { startdate: '2026-03-15' } })).toBe('/empower/usersReport2?counted=1&startdate=2026-03-15');
  });

  it('opens the anxiety / depression view at a level or above, without the stage it cannot filter', () => {
    const link = reportListLink({ appid: '000000002', filter, mood: { kind: 'depressed', minlevel: 3 } })!;
    const q = new URL(link, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({
      view: 'mood',
      kind: 'depressed',
      minlevel: '3',
      musercode: 'I0001',
      startdate: '2026-01-01',
      enddate: '2026-03-31',
    });
  });

  it('opens one indicator at one level without dates (the level counts ignore them)', () => {
    const link = reportListLink({ appid: '000000002', filter, quota: { formcode: 'PHQ9', quotacode: 'TOTAL', level: 2 } })!;
    expect(Object.fromEntries(new URL(link, 'http://x').searchParams)).toEqual({
      quota: 'PHQ9~TOTAL~2',
      musercode: 'I0001',
      stagecode: 'ST-S1',
    });
  });

  it('has no link for an app without a report list', () => {
    expect(reportListLink({ appid: '000000009', filter })).toBeUndefined();
  });
});

describe('a stale stage in the filter (issue 28)', () => {
  const choices = [{ value: 'ST-W1' }, { value: 'ST-W2' }];
  it('is the stage the loaded choices do not hold', () => {
    expect(staleStage('ST-S1', choices, false)).toBe('ST-S1');
    expect(staleStage('ST-S1', [], false)).toBe('ST-S1');
  });
  it('is nothing while the choices load, without a stage, or for a stage they hold', () => {
    expect(staleStage('ST-S1', undefined, true)).toBeUndefined();
    expect(staleStage('ST-S1', choices, true)).toBeUndefined();
    expect(staleStage(undefined, choices, false)).toBeUndefined();
    expect(staleStage('ST-W2', choices, false)).toBeUndefined();
  });
});

describe('the cards a set of populations gets (issue 28)', () => {
  const [M, S, W, E] = ['000000001', '000000002', '000000003', '000000004'];
  it('a maternity hospital: neither grade and class cards nor men and women', () => {
    expect(cardsFor({}, [M])).toEqual({ classes: false, gender: false });
  });
  it('a school (or a bureau of schools): grade and class cards, and men and women', () => {
    expect(cardsFor({}, [S])).toEqual({ classes: true, gender: true });
  });
  it('an employer and an elderly-care institution: men and women, no classes', () => {
    expect(cardsFor({}, [W])).toEqual({ classes: false, gender: true });
    expect(cardsFor({ appid: E }, [E])).toEqual({ classes: false, gender: true });
  });
  it('several populations: what any of them needs; the platform (no apps) every card', () => {
    expect(cardsFor({}, [M, S, W, E])).toEqual({ classes: true, gender: true });
    expect(cardsFor({}, [M, E])).toEqual({ classes: false, gender: true });
    expect(cardsFor({}, [])).toEqual({ classes: true, gender: true });
  });
  it('the population chosen in the filter decides', () => {
    expect(cardsFor({ appid: M }, [M, S, W, E])).toEqual({ classes: false, gender: false });
    expect(cardsFor({ appid: S }, [M, S])).toEqual({ classes: true, gender: true });
    expect(cardsFor({ appid: W }, [])).toEqual({ classes: false, gender: true });
  });
  it('nothing that depends on them while the populations are unknown', () => {
    expect(cardsFor({}, undefined)).toEqual({ classes: false, gender: false });
  });
});
