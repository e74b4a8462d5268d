import { describe, expect, it } from 'vitest';
import { groupLlmRequest, groupRisk, writeGroupByRules, type GroupWriterInput } from './writer.js';

const input = (levels: number[], warned = 0, rate = 100): GroupWriterInput => ({
  lang: 'zh-CN',
  participation: { members: 20, finished: 20, rate },
  indicators: [{ form: 'PHQ-9', indicator: '总分', kind: 'total', total: 20, levels, mean: 6 }],
  classes: [
    { name: '初一 1班', members: 10, finished: 10, rate, levels: [10, 0, 0, 0, 0], warned: 0 },
    { name: '初一 2班', members: 10, finished: 10, rate, levels: levels.map((n, l) => (l ? n : n - 10)), warned },
  ],
  grades: [],
  previous: null,
  attention: warned,
});

describe('the rule-based group writer', () => {
  it('grades the group’s risk by the share at levels 3–4 and warnings', () => {
    expect(groupRisk(input([20, 0, 0, 0, 0]))).toBe('none');
    expect(groupRisk(input([18, 2, 0, 0, 0]))).toBe('low');
    expect(groupRisk(input([18, 1, 0, 1, 0], 1))).toBe('moderate');
    expect(groupRisk(input([14, 2, 0, 2, 2], 2))).toBe('high');
  });

  it('states the figures, names the class most at risk, and asks to follow up those who need attention', () => {
    const t = writeGroupByRules(input([14, 2, 0, 2, 2], 2, 90));
    expect(t.risk.level).toBe('high');
    expect(t.summary).toContain('应测 20 人，完成 20 人');
    expect(t.findings.join('\n')).toContain('中重度（3–4 级）4 人（20%）');
    expect(t.findings.join('\n')).toContain('初一 2班 的中重度比例最高');
    expect(t.steps[0]).toContain('需关注的 2 人');
    expect(t.steps).toContain('提醒未完成的人员在截止前完成测评。');
    expect(writeGroupByRules({ ...input([20, 0, 0, 0, 0]), lang: 'en-US' }).steps).toEqual(['Continue routine screening.']);
  });
});

/**
 * Minimum cell size (issue 27 item 16): what the LLM is sent about a group. Two grades: 初一 has a
 * class of one (a pupil at level 4 with a warning) and a class of four; 初二 two classes of 30.
 */
describe('the LLM’s group input suppresses cells smaller than 5', () => {
  type Row = { name: string; grade: string; members: number; finished: number; levels: number[]; warned: number };
  const row = (name: string, grade: string, n: number, levels: number[], warned: number): Row => ({ name, grade, members: n, finished: n, levels, warned });
  const sum = (rows: Row[], name: string): Row => ({
    name,
    grade: name,
    members: rows.reduce((s, r) => s + r.members, 0),
    finished: rows.reduce((s, r) => s + r.finished, 0),
    levels: [0, 1, 2, 3, 4].map((l) => rows.reduce((s, r) => s + r.levels[l]!, 0)),
    warned: rows.reduce((s, r) => s + r.warned, 0),
  });
  const ONE = row('一中 初一 1班', '初一', 1, [0, 0, 0, 0, 1], 1);
  const FOUR = row('一中 初一 2班', '初一', 4, [2, 1, 1, 0, 0], 0);
  const C = row('一中 初二 1班', '初二', 30, [25, 3, 1, 1, 0], 1);
  const D = row('一中 初二 2班', '初二', 30, [28, 2, 0, 0, 0], 0);
  const group = (classes: Row[]): GroupWriterInput => {
    const all = sum(classes, '');
    const grades = [...new Set(classes.map((c) => c.grade))].map((g) => sum(classes.filter((c) => c.grade === g), g));
    const strip = ({ name, members, finished, levels, warned, grade }: Row) => ({ name, grade, members, finished, rate: 100, levels, warned });
    return {
      lang: 'zh-CN',
      participation: { members: all.members, finished: all.finished, rate: 100 },
      indicators: [{ form: 'PHQ-9', indicator: '总分', kind: 'total', total: all.finished, levels: all.levels, mean: 5.2 }],
      classes: classes.map(strip),
      grades: grades.map(strip),
      previous: null,
      attention: all.levels[3]! + all.levels[4]!,
    };
  };
  const sent = (input: GroupWriterInput) => {
    const body = JSON.stringify(groupLlmRequest(input, 'm', 5));
    return { body, data: JSON.parse(JSON.parse(body).messages[1].content) };
  };
  type Sent = { name: string; finished: number | null; levels: (number | null)[]; warned: number | null };
  /** Every count sent is suppressed (null), 0, or at least 5. */
  const noSmallCell = (data: { classes: Sent[]; grades: Sent[]; indicators: { total: number | null; levels: (number | null)[] }[]; attention: number | null }) => {
    const counts = [
      ...data.classes.flatMap((c) => [c.finished, c.warned, ...c.levels]),
      ...data.grades.flatMap((c) => [c.finished, c.warned, ...c.levels]),
      ...data.indicators.flatMap((i) => [i.total, ...i.levels]),
      data.attention,
    ];
    expect(counts.filter((n) => n !== null && n > 0 && n < 5)).toEqual([]);
  };
  /** What a reader gets by subtracting the sent parts from a sent total: nothing, or a cell of at least 5. */
  const remainder = (total: number | null, parts: (number | null)[]) => {
    if (total === null || parts.some((p) => p === null)) return 'unknown';
    const r = total - parts.reduce((s: number, p) => s + p!, 0);
    return r === 0 || r >= 5 ? 'safe' : r;
  };

  it('names neither the class of one nor the class of four, and no subtraction gives back their counts', () => {
    const { body, data } = sent(group([ONE, FOUR, C, D]));
    expect(body).not.toContain('初一 1班');
    expect(body).not.toContain('初一 2班');
    expect(data.classes.map((c: Sent) => c.name)).toEqual(['一中 初二 1班', '一中 初二 2班']);
    noSmallCell(data);
    // The whole group's figures minus the classes sent: the two withheld classes together (5 persons).
    expect(remainder(data.participation.finished, data.classes.map((c: Sent) => c.finished))).toBe('safe');
    for (const l of [0, 1, 2, 3, 4]) {
      expect(remainder(data.indicators[0].levels[l], data.classes.map((c: Sent) => c.levels[l] ?? null)), `level ${l}`).not.toEqual(expect.any(Number));
      const g1 = data.grades.find((g: Sent) => g.name === '初一');
      if (g1) expect(remainder(g1.levels[l], []), `初一 level ${l}`).not.toEqual(expect.any(Number));
    }
    // The pupil of the class of one: level 4 and the warning reach the LLM in no cell.
    expect(data.indicators[0].levels[4]).toBeNull();
    expect(data.attention).toBeNull();
    // Classes of 30 are still described, and their grade: 53 of its 60 at level 0. Each class's
    // level 0 is withheld, since one of them with the grade's 53 would give back the other's small rest.
    expect(data.classes[0]).toMatchObject({ finished: 30, levels: [null, null, null, null, 0], warned: null });
    expect(data.grades.find((g: Sent) => g.name === '初二')).toMatchObject({ finished: 60, levels: [53, null, null, null, 0] });
  });

  it('withholds a second class when the class of four alone would be the difference from the totals', () => {
    const { body, data } = sent(group([FOUR, C, D]));
    expect(body).not.toContain('初一 2班');
    noSmallCell(data);
    expect(remainder(data.participation.finished, data.classes.map((c: Sent) => c.finished))).toBe('safe');
    // The grade of the class of four is that class: it is withheld too.
    expect(data.grades.map((g: Sent) => g.name)).not.toContain('初一');
  });

  it('a smaller minimum (AI_MIN_CELL) sends more', () => {
    const data = JSON.parse(JSON.parse(JSON.stringify(groupLlmRequest(group([FOUR, C, D]), 'm', 1))).messages[1].content);
    expect(data.classes.map((c: Sent) => c.name)).toContain('一中 初一 2班');
  });
});
