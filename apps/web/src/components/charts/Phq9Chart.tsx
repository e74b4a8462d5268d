/**
 * A person's PHQ-9 over time: the total with its level (0 none .. 4 severe, points in the level's
 * colour) and, below, the item-9 answer (thoughts of death or self-harm, 0-3) of each time, red
 * when above 0. Reached only from lazily loaded pages (ECharts never reaches the sign-in page).
 */
import SizedChart from './SizedChart';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { levelColour } from '../levels';
import { formatTime } from '../../lib/format';

echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface Phq9Point {
  createdat: string;
  score: number;
  level: number | null;
  colour: string | null;
  item9: number | null;
}

export interface Phq9ChartProps {
  points: Phq9Point[];
  /** The level's name (0..4) in the page's language. */
  levelName: (level: number) => string;
  titles: { total: string; item9: string };
  height?: number;
}

export default function Phq9Chart({ points, levelName, titles, height = 300 }: Phq9ChartProps) {
  const sorted = [...points].sort((a, b) => a.createdat.localeCompare(b.createdat));
  const labels = sorted.map((p) => formatTime(p.createdat).slice(0, 10));
  const option = {
    animation: false,
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const p = sorted[items[0]?.dataIndex ?? 0];
        if (!p) return '';
        const level = p.level === null ? '' : ` · ${levelName(p.level)}`;
        return `${formatTime(p.createdat)}<br/>${titles.total}: <b>${p.score}</b>${level}<br/>${titles.item9}: <b>${p.item9 ?? '—'}</b>`;
      },
    },
    grid: [
      { left: 40, right: 16, top: 16, height: '52%' },
      { left: 40, right: 16, bottom: 28, height: '22%' },
    ],
    xAxis: [
      { type: 'category', data: labels, gridIndex: 0, axisLabel: { show: false } },
      { type: 'category', data: labels, gridIndex: 1, axisLabel: { hideOverlap: true } },
    ],
    yAxis: [
      { type: 'value', min: 0, max: 27, interval: 9, gridIndex: 0 },
      { type: 'value', min: 0, max: 3, interval: 1, gridIndex: 1 },
    ],
    series: [
      {
        name: titles.total,
        type: 'line',
        xAxisIndex: 0,
        yAxisIndex: 0,
        symbolSize: 9,
        lineStyle: { color: '#8c8c8c', width: 2 },
        data: sorted.map((p) => ({ value: p.score, itemStyle: { color: p.colour || levelColour(p.level) } })),
      },
      {
        name: titles.item9,
        type: 'bar',
        xAxisIndex: 1,
        yAxisIndex: 1,
        barMaxWidth: 18,
        data: sorted.map((p) => ({ value: p.item9 ?? 0, itemStyle: { color: (p.item9 ?? 0) > 0 ? '#cf1322' : '#bfbfbf' } })),
      },
    ],
  };
  return (
    <div data-testid="phq9-chart" data-points={sorted.length}>
      <SizedChart echarts={echarts} option={option} style={{ height }} notMerge lazyUpdate />
    </div>
  );
}
