import { describe, expect, it } from 'vitest';
import { abnormalBarOption, levelShareOption, pivotByMonth, quotaLevelOption, sceneTrend, usedRemainingOption } from './chart-options';

describe('chart options', () => {
  it('pivots month rows into one series per key, zero where a month has none', () => {
    const rows = [
      { month: '2026-02', grade: '初一', count: 3 },
      { month: '2026-01', grade: '初二', count: 2 },
      { month: '2026-02', grade: '初二', count: 1 },
    ];
    const p = pivotByMonth(
      rows,
      (r) => r.grade,
      (r) => r.count,
    );
    expect(p.months).toEqual(['2026-01', '2026-02']);
    expect(p.series).toEqual([
      { key: '初一', data: [0, 3] },
      { key: '初二', data: [2, 1] },
    ]);
  });

  it('keeps the app and month of every bar of the population trend for the click', () => {
    const s = sceneTrend([
      { month: '2026-01', appid: '000000002', appname: '学生', count: 4, abnormal: 1 },
      { month: '2026-02', appid: '000000001', appname: '孕产妇', count: 2, abnormal: 0 },
    ] as never);
    expect(s.appids).toEqual(['000000002', '000000001']);
    expect(s.months).toEqual(['2026-01', '2026-02']);
    expect((s.option.series as { name: string; data: number[] }[]).map((x) => [x.name, x.data])).toEqual([
      ['学生', [4, 0]],
      ['孕产妇', [0, 2]],
    ]);
  });

  it('stacks level shares to 100 per group (percent, one decimal)', () => {
    const o = levelShareOption(
      [
        {
          name: 'S1',
          total: 3,
          rows: [
            { level: 0, count: 2 },
            { level: 4, count: 1 },
          ],
        },
        { name: 'S2', total: 0, rows: [] },
      ],
      (l) => `L${l}`,
    );
    const series = o.series as { name: string; data: number[] }[];
    expect(series.map((s) => s.data[0])).toEqual([66.7, 0, 0, 0, 33.3]);
    expect(series.every((s) => s.data[1] === 0)).toBe(true);
    expect((o.yAxis as { data: string[] }).data).toEqual(['S1 (3)', 'S2 (0)']);
  });

  it('labels the abnormal bar with its rate', () => {
    const o = abnormalBarOption([{ name: '男', count: 4, abnormal: 1 }], { count: 'c', abnormal: 'a', rate: 'r' });
    const label = (o.series[1] as { label: { formatter: (p: { dataIndex: number }) => string } }).label;
    expect(label.formatter({ dataIndex: 0 })).toBe('25%');
  });

  it("sums each indicator's reports per level, one stacked series a level", () => {
    const o = quotaLevelOption(
      [
        {
          name: 'Q1',
          levels: [
            { level: 0, reports: 2 },
            { level: 2, reports: 1 },
            { level: 2, reports: 3 },
          ],
        },
        { name: 'Q2', levels: [{ level: 4, reports: 5 }] },
      ],
      (l) => `L${l}`,
    );
    expect(o.series.map((s) => [s.name, s.stack, s.data])).toEqual([
      ['L0', 'levels', [2, 0]],
      ['L1', 'levels', [0, 0]],
      ['L2', 'levels', [4, 0]],
      ['L3', 'levels', [0, 0]],
      ['L4', 'levels', [0, 5]],
    ]);
    expect(o.yAxis.data).toEqual(['Q1', 'Q2']);
  });

  it('stacks the used and remaining assessments of each institution', () => {
    const o = usedRemainingOption([{ name: 'I1', used: 3, remaining: 7 }], { used: 'u', remaining: 'r' });
    expect(o.series.map((s) => [s.name, s.stack, s.data])).toEqual([
      ['u', 'n', [3]],
      ['r', 'n', [7]],
    ]);
    expect(o.yAxis.data).toEqual(['I1']);
  });
});
