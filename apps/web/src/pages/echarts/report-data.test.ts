import { describe, expect, it } from 'vitest';
import type { PersonReport } from '@xinli/contract';
import { isPhq9, reportLink, trendOf } from './report-data';

const report = (reportid: string, formcode: string, createdat: string, total: number, factor?: number): PersonReport => ({
  reportid,
  formcode,
  formname: formcode,
  version: 1,
  stagecode: '',
  createdat,
  mentalstate: 1,
  warning: false,
  indicators: [
    { code: 'T', name: '总分', score: total, level: total > 9 ? 2 : 0, colour: '#000' },
    ...(factor === undefined ? [] : [{ code: 'F1', name: '因子', score: factor, level: null, colour: '' }]),
  ],
});

describe('report page helpers', () => {
  it('links a report by its id in the query string', () => {
    expect(reportLink('R 1/2')).toBe('/echarts/web?reportid=R%201%2F2');
  });

  it('trends the same form up to this report, oldest first, one series per indicator', () => {
    const reports = [
      report('r3', 'PHQ9', '2026-03-01T00:00:00.000Z', 12, 4),
      report('r1', 'PHQ9', '2026-01-01T00:00:00.000Z', 3, 1),
      report('g1', 'GAD7', '2026-02-01T00:00:00.000Z', 8),
      report('r2', 'PHQ9', '2026-02-01T00:00:00.000Z', 7),
    ];
    const series = trendOf(reports, 'PHQ9', '2026-02-01T00:00:00.000Z');
    expect(series.map((s) => s.code)).toEqual(['T', 'F1']);
    // The later report (r3) and the other form (GAD7) are left out.
    expect(series[0]!.points.map((p) => p.score)).toEqual([3, 7]);
    expect(series[0]!.points.map((p) => p.level)).toEqual([0, 0]);
    expect(series[1]!.points.map((p) => p.score)).toEqual([1]);
    expect(trendOf(reports, 'SCL90', '2027-01-01')).toEqual([]);
  });

  it('knows the PHQ-9 by its form code', () => {
    expect(isPhq9('PHQ9')).toBe(true);
    expect(isPhq9('phq-9')).toBe(true);
    expect(isPhq9('PHQ15')).toBe(false);
    expect(isPhq9('GAD7')).toBe(false);
  });
});
