/**
 * One indicator's scores over time: a line whose points take their band's colour, with the
 * band level in the tooltip. ECharts is imported from `echarts/core` with only the parts used,
 * and this module is reached only from lazily loaded pages, so the sign-in page never loads it.
 */
import SizedChart from './SizedChart';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { levelColour } from '../levels';
import { formatTime } from '../../lib/format';

echarts.use([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface TrendPoint {
  /** When the report was made (YYYY-MM-DD or an ISO time). */
  time: string;
  score: number;
  level: number | null;
  colour?: string | null;
  /** The band's name in the page's language. */
  band?: string;
}

export interface TrendChartProps {
  title: string;
  points: TrendPoint[];
  height?: number;
  testId?: string;
}

export default function TrendChart({ title, points, height = 220, testId }: TrendChartProps) {
  const sorted = [...points].sort((a, b) => a.time.localeCompare(b.time));
  // Days name the points; when one day has several reports the time tells them apart.
  const full = sorted.map((p) => formatTime(p.time));
  const days = full.map((f) => f.slice(0, 10));
  const labels = new Set(days).size === days.length ? days : full;
  const option = {
    animation: false,
    grid: { left: 40, right: 16, top: 16, bottom: 28 },
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const p = sorted[items[0]?.dataIndex ?? 0];
        return p ? `${full[items[0]?.dataIndex ?? 0]}<br/>${title}: <b>${p.score}</b>${p.band ? ` · ${p.band}` : ''}` : '';
      },
    },
    xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        type: 'line',
        data: sorted.map((p) => ({ value: p.score, itemStyle: { color: p.colour || levelColour(p.level) } })),
        symbolSize: 9,
        lineStyle: { color: '#8c8c8c', width: 2 },
      },
    ],
  };
  return (
    <div data-testid={testId ?? 'trend-chart'} data-points={sorted.length}>
      <SizedChart echarts={echarts} option={option} style={{ height }} notMerge lazyUpdate />
    </div>
  );
}
