import { groupSummarySections, type GroupReport, type GroupSummarySections, type Lang, type RiskLevel } from '@xinli/contract';
import { type LlmConfig, askLlmJson, cellTable, jsonRequest, type Cell, riskRank } from '../../reports/index.js';
import { JobFailure } from '../../../kit/jobs/index.js';

/** The rule set's version, recorded as the "model" of the rule-based group summaries. */
export const GROUP_RULES_MODEL = 'group-rules-1';

/**
 * What a writer is given about a group: aggregates only. Counts, rates and means per indicator,
 * class and grade, and the previous task's; no person's name, code, id or answer, and no count of
 * attention below the whole group. The rule-based writer reads it as it is; what leaves the server
 * for the LLM is groupLlmPayload's reduction of it, with cells smaller than AI_MIN_CELL suppressed.
 */
export interface GroupWriterInput {
  lang: Lang;
  participation: { members: number; finished: number; rate: number };
  indicators: { form: string; indicator: string; kind: 'total' | 'factor'; total: number; levels: number[]; mean: number }[];
  /** grade: the class's grade ('' for a team that is not a class): grades are sums of classes, which suppression must know. */
  classes: { name: string; grade?: string; members: number; finished: number; rate: number; levels: number[]; warned: number }[];
  grades: { name: string; members: number; finished: number; rate: number; levels: number[]; warned: number }[];
  previous: {
    participation: { members: number; finished: number; rate: number };
    indicators: { form: string; indicator: string; total: number; levels: number[]; mean: number }[];
  } | null;
  /** Persons with a warning or a severe level, of those who finished. */
  attention: number;
}

const part = (p: GroupReport['participation']) => ({ members: p.members, finished: p.finished, rate: p.rate });
const compare = (r: GroupReport['byteam'][number]) => ({
  name: r.name,
  members: r.members,
  finished: r.finished,
  rate: r.rate,
  levels: r.levels,
  warned: r.warned,
});

/** The writer's input from a group report: it copies only the aggregate fields, by name. */
export function groupWriterInput(r: GroupReport, lang: Lang): GroupWriterInput {
  return {
    lang,
    participation: part(r.participation),
    indicators: r.indicators.map((i) => ({ form: i.formname, indicator: i.name, kind: i.kind, total: i.total, levels: i.levels, mean: i.mean })),
    classes: r.byteam.map((c) => ({ ...compare(c), grade: r.teams.find((t) => t.teamid === c.key)?.grade ?? '' })),
    grades: r.bygrade.map(compare),
    previous: r.previous && {
      participation: part(r.previous.participation),
      indicators: r.previous.indicators.map((i) => ({ form: i.formname, indicator: i.name, total: i.total, levels: i.levels, mean: i.mean })),
    },
    attention: r.attention.length,
  };
}

/** Share (0–100, one decimal) of persons at level 3 or 4. */
const severeShare = (levels: number[], total: number) => (total ? Math.round(((levels[3]! + levels[4]!) * 1000) / total) / 10 : 0);
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The group's risk: by the share of persons at a severe level, and warnings. */
export function groupRisk(input: GroupWriterInput): RiskLevel {
  const finished = input.participation.finished;
  if (!finished) return 'none';
  const warned = input.classes.reduce((s, c) => s + c.warned, 0);
  const worst = Math.max(0, ...input.indicators.map((i) => severeShare(i.levels, i.total)));
  if (worst >= 15 || (warned * 100) / finished >= 10) return 'high';
  if (worst >= 5 || warned > 0) return 'moderate';
  if (input.indicators.some((i) => i.levels[1]! + i.levels[2]! > 0)) return 'low';
  return 'none';
}

const zh = {
  risk: {
    urgent: '紧急：有人员存在自伤风险，需当天处置。',
    high: '高度关注：重度或预警人员比例较高，需要尽快面谈筛查并制定团体干预方案。',
    moderate: '中度关注：有部分人员达到中重度或触发预警，需要逐一跟进。',
    low: '一般关注：多数人员结果正常，少数为轻度，建议开展心理健康教育。',
    none: '整体良好：结果均在正常范围内，按常规周期筛查即可。',
  } satisfies Record<RiskLevel, string>,
  summary: (p: GroupWriterInput['participation']) => `本次测评应测 ${p.members} 人，完成 ${p.finished} 人，完成率 ${fmt(p.rate)}%。`,
  indicator: (i: GroupWriterInput['indicators'][number]) =>
    `${i.form}·${i.indicator}：${i.total} 人作答，平均 ${fmt(i.mean)} 分，中重度（3–4 级）${i.levels[3]! + i.levels[4]!} 人（${fmt(severeShare(i.levels, i.total))}%）。`,
  worstClass: (c: GroupWriterInput['classes'][number]) =>
    `${c.name} 的中重度比例最高（${fmt(severeShare(c.levels, c.finished))}%，预警 ${c.warned} 人）。`,
  lowRate: (names: string) => `完成率低于 80% 的班级：${names}，请督促未完成人员。`,
  trend: (i: { form: string; indicator: string }, from: number, to: number) =>
    `${i.form}·${i.indicator} 与上次测评相比：中重度比例 ${fmt(from)}% → ${fmt(to)}%，${to > from ? '上升' : to < from ? '下降' : '持平'}。`,
  steps: {
    attention: (n: number) => `对需关注的 ${n} 人逐一面谈评估，并在预警个案中记录处置。`,
    class: (name: string) => `${name} 安排心理老师进班开展团体辅导。`,
    remind: '提醒未完成的人员在截止前完成测评。',
    education: '开展心理健康教育课程或讲座。',
    retest: '一至三个月后对同一团体复测，比较变化。',
    routine: '按常规周期继续筛查。',
  },
  sep: '、',
};

const en: typeof zh = {
  risk: {
    urgent: 'Urgent: someone is at risk of self-harm; act today.',
    high: 'High concern: a large share is at a severe level or raised a warning; interview them soon and plan a group intervention.',
    moderate: 'Moderate concern: some persons are at a moderate-to-severe level or raised a warning; follow each of them up.',
    low: 'Some concern: most results are normal and a few are mild; mental-health education is advised.',
    none: 'Good overall: every result is within the normal range; keep the routine screening.',
  },
  summary: (p) => `${p.members} persons were to take part and ${p.finished} finished (${fmt(p.rate)}%).`,
  indicator: (i) =>
    `${i.form}, ${i.indicator}: ${i.total} answered, mean ${fmt(i.mean)}, ${i.levels[3]! + i.levels[4]!} at levels 3–4 (${fmt(severeShare(i.levels, i.total))}%).`,
  worstClass: (c) => `${c.name} has the highest moderate-to-severe share (${fmt(severeShare(c.levels, c.finished))}%, ${c.warned} warned).`,
  lowRate: (names) => `Classes below 80% completion: ${names}; remind those who have not finished.`,
  trend: (i, from, to) =>
    `${i.form}, ${i.indicator} since the last task: levels 3–4 ${fmt(from)}% → ${fmt(to)}%, ${to > from ? 'up' : to < from ? 'down' : 'unchanged'}.`,
  steps: {
    attention: (n) => `Interview each of the ${n} persons needing attention and record the actions in their warning cases.`,
    class: (name) => `Arrange a counsellor's group session in ${name}.`,
    remind: 'Remind those who have not finished to do so before the deadline.',
    education: 'Run mental-health education lessons or talks.',
    retest: 'Re-assess the same group in one to three months and compare.',
    routine: 'Continue routine screening.',
  },
  sep: ', ',
};

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The rule-based group writer: deterministic text from the aggregates, stating what they show. */
export function writeGroupByRules(input: GroupWriterInput): GroupSummarySections {
  const t = input.lang === 'en-US' ? en : zh;
  const risk = groupRisk(input);
  const findings = input.indicators.filter((i) => i.kind === 'total' || severeShare(i.levels, i.total) > 0).map(t.indicator);
  const worst = [...input.classes]
    .filter((c) => c.finished)
    .sort((a, b) => severeShare(b.levels, b.finished) - severeShare(a.levels, a.finished) || b.warned - a.warned)[0];
  if (input.classes.length > 1 && worst && (worst.levels[3]! + worst.levels[4]! > 0 || worst.warned)) findings.push(t.worstClass(worst));
  const low = input.classes.filter((c) => c.members && c.rate < 80);
  if (low.length) findings.push(t.lowRate(low.map((c) => c.name).join(t.sep)));
  for (const i of input.indicators) {
    const before = input.previous?.indicators.find((p) => p.form === i.form && p.indicator === i.indicator);
    if (before && i.kind === 'total') findings.push(t.trend(i, severeShare(before.levels, before.total), severeShare(i.levels, i.total)));
  }
  const steps: string[] = [];
  if (input.attention) steps.push(t.steps.attention(input.attention));
  if (worst && input.classes.length > 1 && riskRank(risk) >= riskRank('moderate')) steps.push(t.steps.class(worst.name));
  if (input.participation.rate < 100) steps.push(t.steps.remind);
  if (riskRank(risk) >= riskRank('low')) steps.push(t.steps.education, t.steps.retest);
  else steps.push(t.steps.routine);
  return {
    summary: clip(`${t.risk[risk]}${t.summary(input.participation)}`, 2000),
    findings: findings.slice(0, 30).map((f) => clip(f, 2000)),
    risk: { level: risk, text: t.risk[risk] },
    steps: steps.slice(0, 20),
  };
}

const SYSTEM = {
  'zh-CN':
    '你是心理测评机构的团体报告撰写助手。根据给出的一次团体测评的汇总数据（完成率、各指标等级分布与均分、班级和年级对比、与上次测评的比较、需关注人数）写一份团体报告摘要，供学校或单位的管理者阅读。只陈述数据支持的内容，不要编造；不要猜测任何个人。用简体中文，只回答一个 JSON 对象。',
  'en-US':
    'You write group reports for a psychological assessment service. From the aggregates of one group assessment (completion, level distribution and mean per indicator, classes and grades compared, the change since the previous assessment, how many need attention), write a summary for the school or employer. State only what the data support; never guess about any individual. Write in English and answer with one JSON object only.',
};
const SHAPE = '{"summary": string, "findings": string[], "risk": {"level": "none"|"low"|"moderate"|"high"|"urgent", "text": string}, "steps": string[]}';

const NOTE = {
  'zh-CN': (k: number) => `null 表示少于 ${k} 人或为防止推算而隐去的数字；未列出的班级或年级人数过少。不要推测被隐去的数字。`,
  'en-US': (k: number) =>
    `null is a count below ${k} or one withheld so that such a count cannot be worked out; classes or grades not listed are too small. Never guess a withheld count.`,
};

type Count = number | null;
interface SentRow {
  name: string;
  members: number;
  finished: Count;
  rate: Count;
  levels: Count[];
  warned: Count;
}

/**
 * The LLM's input (issue 27 item 16): the writer input with every count smaller than minCell
 * suppressed, and complementary cells suppressed so that no subtraction gives one back (see
 * suppressSmallCells). The sums a reader sees: the group's finished = its classes' (and = its
 * grades' plus the classes without a grade); a grade's finished, levels and warned = its classes';
 * each row's finished = its levels plus those without a level; an indicator's total = its levels,
 * and its levels = the classes' when they are equal. A class or grade whose finished count is
 * suppressed is not sent at all (nor its name); a mean over a suppressed total is not sent.
 * Members (class sizes) are not health data and are sent as they are.
 */
export function groupLlmPayload(input: GroupWriterInput, minCell: number) {
  const t = cellTable();
  const levelsOf = (levels: number[], total: Cell) => {
    const cells = levels.map((n) => t.cell(n));
    // Those counted in the total without a level: never sent, but a reader works them out.
    t.sum(total, [...cells, t.cell(Math.max(0, total.value - levels.reduce((s, n) => s + n, 0)), true)]);
    return cells;
  };
  const unit = (r: GroupWriterInput['classes'][number]) => {
    const finished = t.cell(r.finished);
    const cells = { r, finished, levels: levelsOf(r.levels, finished), warned: t.cell(r.warned) };
    t.row(finished, [...cells.levels, cells.warned]);
    return cells;
  };
  const classes = input.classes.map(unit);
  const grades = input.grades.map(unit);
  const indicatorsOf = (list: GroupWriterInput['indicators'] | NonNullable<GroupWriterInput['previous']>['indicators']) =>
    list.map((i) => {
      const total = t.cell(i.total);
      return { i, total, levels: levelsOf(i.levels, total) };
    });
  const finished = t.cell(input.participation.finished);
  const indicators = indicatorsOf(input.indicators);
  const prevFinished = input.previous && t.cell(input.previous.participation.finished);
  const prevIndicators = input.previous ? indicatorsOf(input.previous.indicators) : [];
  const attention = t.cell(input.attention);

  const sumOf = (rows: typeof classes, pick: (c: (typeof classes)[number]) => Cell) => rows.map(pick);
  if (classes.length) t.sum(finished, sumOf(classes, (c) => c.finished));
  const gradeless = classes.filter((c) => !c.r.grade);
  if (grades.length) t.sum(finished, [...grades.map((g) => g.finished), ...gradeless.map((c) => c.finished)]);
  for (const g of grades) {
    const mine = classes.filter((c) => c.r.grade === g.r.name);
    t.sum(g.finished, sumOf(mine, (c) => c.finished));
    t.sum(g.warned, sumOf(mine, (c) => c.warned));
    g.levels.forEach((cell, l) => t.sum(cell, sumOf(mine, (c) => c.levels[l]!)));
  }
  for (const ind of indicators) {
    const sameAsClasses = classes.length && ind.i.levels.every((n, l) => n === classes.reduce((s, c) => s + c.r.levels[l]!, 0));
    if (sameAsClasses) ind.levels.forEach((cell, l) => t.sum(cell, sumOf(classes, (c) => c.levels[l]!)));
  }
  t.suppress(minCell);

  const rate = (f: Cell, members: number) => (f.suppressed ? null : members ? Math.round((f.value * 1000) / members) / 10 : 0);
  const sent = (rows: typeof classes): SentRow[] =>
    rows
      .filter((c) => !c.finished.suppressed)
      .map((c) => ({
        name: c.r.name,
        members: c.r.members,
        finished: c.finished.shown,
        rate: rate(c.finished, c.r.members),
        levels: c.levels.map((x) => x.shown),
        warned: c.warned.shown,
      }));
  const indicatorOut = <I extends { form: string; indicator: string; mean: number }>(x: { i: I; total: Cell; levels: Cell[] }) => ({
    form: x.i.form,
    indicator: x.i.indicator,
    ...('kind' in x.i ? { kind: x.i.kind as 'total' | 'factor' } : {}),
    total: x.total.shown,
    levels: x.levels.map((c) => c.shown),
    mean: x.total.suppressed || x.total.value < minCell ? null : x.i.mean,
  });
  const part = (p: GroupWriterInput['participation'], f: Cell) => ({ members: p.members, finished: f.shown, rate: f.suppressed ? null : p.rate });
  return {
    lang: input.lang,
    note: NOTE[input.lang](minCell),
    participation: part(input.participation, finished),
    indicators: indicators.map(indicatorOut),
    classes: sent(classes),
    grades: sent(grades),
    previous: input.previous && {
      participation: part(input.previous.participation, prevFinished!),
      indicators: prevIndicators.map(indicatorOut),
    },
    attention: attention.shown,
  };
}

/** The request body sent to the endpoint: the suppressed aggregates and nothing else. */
export const groupLlmRequest = (input: GroupWriterInput, model: string, minCell: number) =>
  jsonRequest(SYSTEM[input.lang], SHAPE, groupLlmPayload(input, minCell), model);

/**
 * Writes with the LLM; its risk is never below the rule-based writer's (which reads the figures
 * unsuppressed, on this server). A group with fewer than minCell finished is not sent at all.
 */
export async function writeGroupByLlm(
  input: GroupWriterInput,
  config: LlmConfig,
  minCell: number,
  signal?: AbortSignal,
): Promise<GroupSummarySections> {
  if (input.participation.finished < minCell)
    throw new JobFailure(`fewer than ${minCell} finished: too small a group to send to the AI writer; use the rule-based writer`, false);
  const text = await askLlmJson(groupLlmRequest(input, config.model, minCell), groupSummarySections, config, signal);
  const rules = writeGroupByRules(input);
  return riskRank(text.risk.level) >= riskRank(rules.risk.level) ? text : { ...text, risk: rules.risk };
}
