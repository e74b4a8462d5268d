import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkAreaComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { LevelColours } from '@xinli/contract';

/**
 * Charts of the printable report as inline SVG, drawn on the server by ECharts' server-side
 * renderer: the document needs no script and no network, in the browser's print preview and in
 * Chromium's PDF alike. Text in the SVG (indicator names come from form definitions) is escaped
 * by the renderer.
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, MarkAreaComponent, SVGRenderer]);

const FONT = '"Noto Sans CJK SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", sans-serif';
/** One palette for all series, readable in black-and-white print too (lines also differ by symbol). */
const PALETTE = ['#1f5fa8', '#c2410c', '#15803d', '#7c3aed', '#be185d', '#0f766e', '#a16207', '#475569'];
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow', 'emptyCircle'];

function svg(width: number, height: number, option: echarts.EChartsCoreOption): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

export interface LineSeries {
  name: string;
  values: (number | null)[];
}

/** Scores over time: one line per indicator, dates on the x axis. */
export function trendChart(dates: string[], series: LineSeries[], width = 680, height = 220): string {
  return svg(width, height, {
    color: PALETTE,
    legend: { top: 0, type: 'plain', textStyle: { fontSize: 11 } },
    grid: { left: 44, right: 16, top: series.length > 4 ? 56 : 32, bottom: 28 },
    xAxis: { type: 'category', data: dates, axisLabel: { fontSize: 10 } },
    yAxis: { type: 'value', axisLabel: { fontSize: 10 } },
    series: series.map((s, i) => ({
      type: 'line',
      name: s.name,
      data: s.values,
      symbol: SYMBOLS[i % SYMBOLS.length],
      symbolSize: 7,
      connectNulls: true,
      label: { show: series.length <= 2, fontSize: 10 },
    })),
  });
}

/**
 * A history of levels 0..max (PHQ-9 depression level or item 9): the bands of the five-level
 * colour scale behind one line, so a rise reads at a glance on paper. `labels` names the levels
 * on the axis (the PHQ-9 level names); numbers otherwise.
 */
export function levelChart(
  dates: string[],
  values: (number | null)[],
  max: number,
  labels: string[] | null,
  width = 680,
  height = 150,
): string {
  const bands = Array.from({ length: max + 1 }, (_, level) => [
    { yAxis: Math.max(0, level - 0.5), itemStyle: { color: LevelColours[Math.round((level * 4) / max)], opacity: 0.18 } },
    { yAxis: Math.min(max, level + 0.5) },
  ]);
  return svg(width, height, {
    grid: { left: labels ? 110 : 40, right: 16, top: 12, bottom: 24 },
    xAxis: { type: 'category', data: dates, axisLabel: { fontSize: 10 } },
    yAxis: {
      type: 'value',
      min: 0,
      max,
      interval: 1,
      splitLine: { show: false },
      axisLabel: { fontSize: 10, formatter: (v: number) => (labels ? (labels[v] ?? '') : String(v)) },
    },
    series: [
      {
        type: 'line',
        data: values,
        connectNulls: true,
        symbolSize: 8,
        color: '#1f2937',
        label: { show: true, fontSize: 10 },
        markArea: { silent: true, data: bands },
      },
    ],
  });
}

/** The indicators of one report as bars in their level colours. */
export function indicatorChart(bars: { name: string; score: number; colour: string }[], width = 680): string {
  const height = Math.max(120, 28 * bars.length + 40);
  return svg(width, height, {
    grid: { left: 150, right: 40, top: 8, bottom: 20 },
    xAxis: { type: 'value', axisLabel: { fontSize: 10 } },
    yAxis: {
      type: 'category',
      inverse: true,
      data: bars.map((b) => b.name),
      axisLabel: { fontSize: 11, width: 140, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 16,
        data: bars.map((b) => ({ value: b.score, itemStyle: { color: b.colour } })),
        label: { show: true, position: 'right', fontSize: 10 },
      },
    ],
  });
}

/**
 * Persons per level 0–4 as horizontal stacked bars in the level colours, one bar per category
 * (an indicator, a class): the group report's distribution and comparison charts.
 */
export function levelStackChart(categories: string[], levels: number[][], levelNames: string[], width = 680): string {
  const height = Math.max(120, 26 * categories.length + 56);
  return svg(width, height, {
    legend: { top: 0, textStyle: { fontSize: 10 } },
    grid: { left: 160, right: 24, top: 28, bottom: 20 },
    xAxis: { type: 'value', minInterval: 1, axisLabel: { fontSize: 10 } },
    yAxis: { type: 'category', inverse: true, data: categories, axisLabel: { fontSize: 10, width: 150, overflow: 'truncate' } },
    series: levelNames.map((name, level) => ({
      type: 'bar',
      name,
      stack: 'levels',
      barMaxWidth: 16,
      itemStyle: { color: LevelColours[level] },
      data: levels.map((l) => l[level] ?? 0),
    })),
  });
}
