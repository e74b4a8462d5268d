/**
 * One ECharts chart from an option the page builds (lines, bars, pies): the statistics pages and
 * the big screen. ECharts from `echarts/core` with only the parts used; this module is reached
 * only from lazily loaded pages, so the sign-in page never loads it. A click on a bar, point or
 * slice calls `onClick` with its series and data index (the page turns it into a link).
 */
import ReactEChartsCore from 'echarts-for-react/esm/core';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface ChartClick {
  seriesIndex: number;
  dataIndex: number;
  /** The category (x or y axis) or slice name. */
  name: string;
}

export interface EChartProps {
  option: Record<string, unknown>;
  height?: number | string;
  onClick?: (c: ChartClick) => void;
  testId?: string;
  /** How many data points it shows (for tests and the empty check of the page). */
  points?: number;
}

export default function EChart({ option, height = 280, onClick, testId, points }: EChartProps) {
  const events = onClick
    ? { click: (p: { seriesIndex?: number; dataIndex?: number; name?: string }) => onClick({ seriesIndex: p.seriesIndex ?? 0, dataIndex: p.dataIndex ?? 0, name: p.name ?? '' }) }
    : undefined;
  return (
    <div data-testid={testId} data-points={points} data-clickable={onClick ? 'true' : undefined}>
      <ReactEChartsCore echarts={echarts} option={{ animation: false, ...option }} style={{ height, width: '100%' }} onEvents={events} notMerge lazyUpdate />
    </div>
  );
}
