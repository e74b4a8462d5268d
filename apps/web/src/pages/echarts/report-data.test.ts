import { describe, expect, it } from 'vitest';
import type { ReportDetail } from '@xinli/contract';
import { reportLink } from '../../features/links';
import { isPhq9, trendOf } from './report-data';

const ind = (code: string, zh: string) => ({ code, name: { zh, en: code } }) as ReportDetail['indicators'][number];
const point = (createdat: string, total: number, factor?: number) => ({
  reportid: createdat,
  createdat,
  version: 1,
  mentalstate: 1,
  indicators: [
    { quotacode: 'T', score: total, level: total > 9 ? 2 : 0, colour: '#000' },
    ...(factor === undefined ? [] : [{ quotacode: 'F1', score: factor, level: null, colour: null }]),
  ],
});

describe('report page helpers', () => {
  it('links a report by its id in the query string', () => {
    expect(reportLink('R 1/2')).toBe('/echarts/web?reportid=R%201%2F2');
  });

  it('trends each indicator of this report over the person\'s results of the form, oldest first', () => {
    const report = {
      indicators: [ind('T', '总分'), ind('F1', '因子')],
      // Given out of order; the factor is missing in an older version's result.
      trend: [point('2026-02-01T00:00:00.000Z', 7, 2), point('2026-01-01T00:00:00.000Z', 3)],
    };
    const series = trendOf(report, (n) => n.zh);
    expect(series.map((s) => [s.code, s.title])).toEqual([
      ['T', '总分'],
      ['F1', '因子'],
    ]);
    expect(series[0]!.points.map((p) => p.score)).toEqual([3, 7]);
    expect(series[0]!.points.map((p) => p.level)).toEqual([0, 0]);
    expect(series[1]!.points.map((p) => p.score)).toEqual([2]);
    expect(trendOf({ indicators: [], trend: report.trend }, (n) => n.zh)).toEqual([]);
  });

  it('knows the PHQ-9 by its form code', () => {
    expect(isPhq9('PHQ9')).toBe(true);
    expect(isPhq9('phq-9')).toBe(true);
    expect(isPhq9('F123', 'PHQ-9 抑郁筛查（副本）')).toBe(true);
    expect(isPhq9('PHQA')).toBe(true);
    expect(isPhq9('PHQ15')).toBe(false);
    expect(isPhq9('GAD7')).toBe(false);
  });
});
