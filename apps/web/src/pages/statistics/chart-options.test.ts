import { describe, expect, it } from 'vitest';
import { abnormalBarOption, levelShareOption, pivotByMonth, sceneTrend } from './chart-options';

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
});
