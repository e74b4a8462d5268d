/**
 * One ECharts chart from an option the page builds (lines, bars, pies): the statistics pages and
 * the big screen. ECharts from `echarts/core` with only the parts used; this module is reached
 * only from lazily loaded pages, so the sign-in page never loads it. A click on a bar, point or
 * slice calls `onClick` with its series and data index (the page turns it into a link).
 */
import { useRef } from 'react';
import SizedChart from './SizedChart';
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
  /**
   * A click anywhere in the plot of a category axis chart (not on a bar or point): the category's
   * index. Thin lines and small bars are hard to hit; the whole column answers.
   */
  onColumn?: (dataIndex: number) => void;
  testId?: string;
  /** How many data points it shows (for tests and the empty check of the page). */
  points?: number;
}

type Instance = ReturnType<typeof echarts.init>;

export default function EChart({ option, height = 280, onClick, onColumn, testId, points }: EChartProps) {
  // Series clicks come first (ECharts' own handler was bound first); the column click then skips.
  const hit = useRef(false);
  const latest = useRef({ onClick, onColumn });
  latest.current = { onClick, onColumn };
  const events =
    onClick || onColumn
      ? {
          click: (p: { seriesIndex?: number; dataIndex?: number; name?: string }) => {
            hit.current = true;
            latest.current.onClick?.({ seriesIndex: p.seriesIndex ?? 0, dataIndex: p.dataIndex ?? 0, name: p.name ?? '' });
          },
        }
      : undefined;
  const ready = (chart: Instance) => {
    chart.getZr().on('click', (e: { offsetX: number; offsetY: number }) => {
      if (hit.current) {
        hit.current = false;
        return;
      }
      const column = latest.current.onColumn;
      const at = [e.offsetX, e.offsetY];
      if (!column || !chart.containPixel('grid', at)) return;
      const [x] = chart.convertFromPixel({ gridIndex: 0 }, at) as number[];
      if (typeof x === 'number' && x >= 0) column(Math.round(x));
    });
  };
  return (
    <div
      data-testid={testId}
      data-points={points}
      data-clickable={onClick || onColumn ? 'true' : undefined}
      style={onColumn ? { cursor: 'pointer' } : undefined}
    >
      <SizedChart
        echarts={echarts}
        option={{ animation: false, ...option }}
        style={{ height, width: '100%' }}
        onEvents={events}
        onChartReady={ready}
        notMerge
        lazyUpdate
      />
    </div>
  );
}
