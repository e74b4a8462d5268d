/**
 * ECharts options of the statistics charts, built from the actions' answers and the page's words
 * (already translated). Pure: the console, the report analysis and the big screen share them, and
 * the unit tests read them. `dark` is the big screen's wall style.
 */
import { LevelColours } from '@xinli/contract';
import { percent, rateOf } from './stats-filter';

export const COUNT_COLOUR = '#43a777';
export const ABNORMAL_COLOUR = LevelColours[3];
/** What is left of an authorisation: grey beside the used count. */
const REMAINING_COLOUR = '#bfbfbf';
export const GENDER_COLOURS: Record<string, string> = { '01': '#3a7bd5', '02': '#e86aa6' };
/** Series colours of populations and grades (theme first, then distinct hues). */
export const PALETTE = ['#43a777', '#3a7bd5', '#f5a623', '#9b59b6', '#e8590c', '#17a2b8', '#8c6d3f', '#d63384', '#6c757d', '#20c997'];

export interface Look {
  dark?: boolean;
}

const text = (o: Look) => (o.dark ? '#c9d8f2' : '#595959');
const line = (o: Look) => (o.dark ? 'rgba(201,216,242,0.18)' : '#f0f0f0');

function axes(o: Look) {
  return {
    axisLabel: { color: text(o), hideOverlap: true },
    axisLine: { lineStyle: { color: o.dark ? 'rgba(201,216,242,0.4)' : '#d9d9d9' } },
    splitLine: { lineStyle: { color: line(o) } },
  };
}
const legend = (o: Look) => ({ top: 0, type: 'scroll', textStyle: { color: text(o) } });
const grid = { left: 8, right: 24, top: 36, bottom: 8, containLabel: true };

/** Reports and abnormal reports per day: two lines; a point opens that day's reports. */
export function dayTrendOption(
  rows: { date: string; count: number; abnormal: number }[],
  w: { count: string; abnormal: string },
  o: Look = {},
) {
  return {
    color: [COUNT_COLOUR, ABNORMAL_COLOUR],
    legend: legend(o),
    tooltip: { trigger: 'axis' },
    grid,
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: rows.map((r) => r.date),
      ...axes(o),
      axisLabel: { color: text(o), hideOverlap: true, formatter: (v: string) => v.slice(5) },
    },
    yAxis: { type: 'value', minInterval: 1, ...axes(o) },
    series: [
      { type: 'line', name: w.count, data: rows.map((r) => r.count), symbolSize: 6, areaStyle: { opacity: 0.12 }, triggerLineEvent: true },
      { type: 'line', name: w.abnormal, data: rows.map((r) => r.abnormal), symbolSize: 6, triggerLineEvent: true },
    ],
  };
}

/** Months in order and one value per month of each key (grades, apps), zero where absent. */
export function pivotByMonth<R extends { month: string }>(rows: R[], keyOf: (r: R) => string, value: (r: R) => number) {
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const keys = [...new Set(rows.map(keyOf))];
  const series = keys.map((key) => ({
    key,
    data: months.map((m) => rows.filter((r) => r.month === m && keyOf(r) === key).reduce((n, r) => n + value(r), 0)),
  }));
  return { months, series };
}

/** Reports per month and population (stacked bars); a bar opens that population's reports of the month. */
export function sceneTrend(rows: { month: string; appid: string; appname: string; count: number }[], o: Look = {}) {
  const names = new Map(rows.map((r) => [r.appid, r.appname || r.appid]));
  const { months, series } = pivotByMonth(
    rows,
    (r) => r.appid,
    (r) => r.count,
  );
  /** The app of each series and the month of each bar, for the click. */
  const appids = series.map((s) => s.key);
  const option = {
    color: PALETTE,
    legend: legend(o),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid,
    xAxis: { type: 'category', data: months, ...axes(o) },
    yAxis: { type: 'value', minInterval: 1, ...axes(o) },
    series: series.map((s) => ({ type: 'bar', name: names.get(s.key), stack: 'apps', barMaxWidth: 36, data: s.data })),
  };
  return { option, appids, months };
}

/** Reports per month and grade: one line per grade. */
export function gradeTrendOption(grades: string[], rows: { month: string; grade: string; count: number }[], o: Look = {}) {
  const { months, series } = pivotByMonth(
    rows,
    (r) => r.grade,
    (r) => r.count,
  );
  const order = (g: string) => (grades.indexOf(g) < 0 ? grades.length : grades.indexOf(g));
  series.sort((a, b) => order(a.key) - order(b.key));
  return {
    color: PALETTE,
    legend: legend(o),
    tooltip: { trigger: 'axis' },
    grid,
    xAxis: { type: 'category', data: months, ...axes(o) },
    yAxis: { type: 'value', minInterval: 1, ...axes(o) },
    series: series.map((s) => ({ type: 'line', name: s.key, data: s.data, symbolSize: 6 })),
  };
}

/**
 * Results per level 0-4 as a doughnut in the report colours; a slice opens the reports at that
 * level or above. The legend (wrapping, below) names the levels, the slices carry their counts,
 * so nothing is cut off in a narrow card or in English.
 */
export function levelPieOption(rows: { level: number; count: number; ratio: number }[], levelName: (l: number) => string, o: Look = {}) {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, type: 'plain', itemWidth: 14, itemGap: 8, textStyle: { color: text(o) } },
    series: [
      {
        type: 'pie',
        radius: ['36%', '62%'],
        center: ['50%', '44%'],
        avoidLabelOverlap: true,
        label: { color: text(o), formatter: ({ value }: { value: number }) => (value ? String(value) : '') },
        labelLine: { length: 6, length2: 6 },
        data: rows.map((r) => ({
          name: levelName(r.level),
          value: r.count,
          level: r.level,
          itemStyle: { color: LevelColours[r.level] },
          // An empty level has no slice: no label line pointing at nothing either.
          labelLine: { show: r.count > 0 },
        })),
      },
    ],
  };
}

/** Levels side by side per group (stages): each row's share per level in percent, stacked to 100. */
export function levelShareOption(
  groups: { name: string; total: number; rows: { level: number; count: number }[] }[],
  levelName: (l: number) => string,
  o: Look = {},
) {
  return {
    legend: legend(o),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${v}%` },
    grid,
    xAxis: { type: 'value', max: 100, ...axes(o), axisLabel: { color: text(o), formatter: '{value}%' } },
    yAxis: {
      type: 'category',
      inverse: true,
      data: groups.map((g) => `${g.name} (${g.total})`),
      ...axes(o),
      axisLabel: { color: text(o), width: 160, overflow: 'truncate' },
    },
    series: levelSeries(levelName, 'share', (l) =>
      groups.map((g) => {
        const c = g.rows.find((r) => r.level === l)?.count ?? 0;
        return g.total ? percent(c / g.total) : 0;
      }),
    ),
  };
}

/** One bar series per level 0-4 in the report colours, stacked; `valuesAt(l)` gives level l's bars. */
function levelSeries(levelName: (l: number) => string, stack: string, valuesAt: (l: number) => number[]) {
  return [0, 1, 2, 3, 4].map((l) => ({
    type: 'bar',
    name: levelName(l),
    stack,
    barMaxWidth: 22,
    itemStyle: { color: LevelColours[l] },
    data: valuesAt(l),
  }));
}

/** The frame of horizontal bars in the console's plain look (no dark): one row a category, the first on top. */
function plainRows(names: string[], labelWidth: number) {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid,
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: names, axisLabel: { width: labelWidth, overflow: 'truncate' } },
  };
}

/** Reports per level of each indicator of one form: a row an indicator, its levels stacked (a segment's series index is its level). */
export function quotaLevelOption(
  quotas: { name: string; levels: { level: number; reports: number }[] }[],
  levelName: (l: number) => string,
) {
  const names = quotas.map((x) => x.name);
  return {
    legend: { top: 0, type: 'scroll' },
    ...plainRows(names, 200),
    series: levelSeries(levelName, 'levels', (l) =>
      quotas.map((x) => x.levels.filter((v) => v.level === l).reduce((s, v) => s + v.reports, 0)),
    ),
  };
}

/** Assessments used and remaining of the plan authorisations, a row an institution. */
export function usedRemainingOption(rows: { name: string; used: number; remaining: number }[], w: { used: string; remaining: string }) {
  const bar = (key: 'used' | 'remaining', color: string) => ({
    type: 'bar',
    name: w[key],
    stack: 'n',
    barMaxWidth: 20,
    itemStyle: { color },
    data: rows.map((r) => r[key]),
  });
  const names = rows.map((r) => r.name);
  return { legend: { top: 0 }, ...plainRows(names, 160), series: [bar('used', COUNT_COLOUR), bar('remaining', REMAINING_COLOUR)] };
}

/** Reports and abnormal reports per category (gender, grade, stage) with the abnormal rate on the bar. */
export function abnormalBarOption(
  rows: { name: string; count: number; abnormal: number }[],
  w: { count: string; abnormal: string; rate: string },
  o: Look & { horizontal?: boolean } = {},
) {
  const cat = { type: 'category', data: rows.map((r) => r.name), ...axes(o) };
  const val = { type: 'value', minInterval: 1, ...axes(o) };
  return {
    color: [COUNT_COLOUR, ABNORMAL_COLOUR],
    legend: legend(o),
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (items: { dataIndex: number }[]) => {
        const r = rows[items[0]?.dataIndex ?? 0];
        return r
          ? `${r.name}<br/>${w.count}: <b>${r.count}</b><br/>${w.abnormal}: <b>${r.abnormal}</b><br/>${w.rate}: <b>${rateOf(r.abnormal, r.count)}%</b>`
          : '';
      },
    },
    grid,
    xAxis: o.horizontal ? val : cat,
    yAxis: o.horizontal ? { ...cat, inverse: true } : val,
    series: [
      { type: 'bar', name: w.count, barMaxWidth: 32, data: rows.map((r) => r.count) },
      {
        type: 'bar',
        name: w.abnormal,
        barMaxWidth: 32,
        data: rows.map((r) => r.abnormal),
        label: {
          show: true,
          position: o.horizontal ? 'right' : 'top',
          color: text(o),
          formatter: ({ dataIndex }: { dataIndex: number }) => `${rateOf(rows[dataIndex]!.abnormal, rows[dataIndex]!.count)}%`,
        },
      },
    ],
  };
}
