import { describe, expect, it } from 'vitest';
import { groupRisk, writeGroupByRules, type GroupWriterInput } from './writer.js';

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
