/**
 * Horizontal bars, one row per category (an indicator, a class), one series per level or per
 * period: stacked for a distribution (persons per level in the five report colours), side by side
 * for a comparison. ECharts from `echarts/core` with only the parts used; reached only from lazily
 * loaded pages.
 */
import SizedChart from './SizedChart';
import * as echarts from 'echarts/core';
import { BarChart as Bars } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([Bars, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface BarSeries {
  name: string;
  data: number[];
  colour: string;
}

export interface BarChartProps {
  categories: string[];
  series: BarSeries[];
  /** Stack the series (a distribution) instead of placing them side by side. */
  stacked?: boolean;
  /** Appended to values in labels and the tooltip (e.g. '%'). */
  unit?: string;
  testId?: string;
}

export default function BarChart({ categories, series, stacked = false, unit = '', testId }: BarChartProps) {
  const rowHeight = stacked ? 30 : 22 * series.length + 14;
  const option = {
    animation: false,
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${v}${unit}` },
    grid: { left: 8, right: 32, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: categories, axisLabel: { width: 180, overflow: 'truncate' } },
    series: series.map((s) => ({
      type: 'bar',
      name: s.name,
      data: s.data,
      stack: stacked ? 'all' : undefined,
      barMaxWidth: 18,
      itemStyle: { color: s.colour },
      label: { show: !stacked, position: 'right', formatter: ({ value }: { value: number }) => `${value}${unit}` },
    })),
  };
  return (
    <div data-testid={testId} data-rows={categories.length}>
      <SizedChart
        echarts={echarts}
        option={option}
        style={{ height: Math.max(140, categories.length * rowHeight + 56) }}
        notMerge
        lazyUpdate
      />
    </div>
  );
}
