/**
 * The rule-based writer on fixed reports, scored by the real engine with the built-in library
 * forms: what it must always say (risk first, a referral step when a critical item was answered)
 * and what it must never say (problems a normal sheet does not show).
 */
import { describe, expect, it } from 'vitest';
import { PopulationApp, type Lang } from '@xinli/contract';
import { scoreSheet } from '../../scales/index.js';
import { builtInForm } from '../../scales/library/index.js';
import { buildProfile, type SourceReport } from './profile.js';
import { RULES_MODEL, riskOf, writeByRules } from './rules.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T02:00:00Z');

/** A report of a built-in form whose items score as given (option = score + 1 for PHQ-9 and GAD-7). */
function report(formcode: 'PHQ9' | 'GAD7', itemScores: number[], days = 0, id = `${formcode}-${days}`): SourceReport {
  const def = builtInForm(formcode)!;
  const score = scoreSheet(def, { answers: itemScores.map((s, i) => ({ no: i + 1, option: s + 1 })) });
  return { reportid: id, formcode, formname: def.formname.zh, createdat: new Date(T0 + days * DAY), mentalstate: score.mentalState, score };
}

const student = { appid: PopulationApp.students, population: '青少年学生', gender: '02', birthdate: '2010-05-01' };
const write = (reports: SourceReport[], lang: Lang = 'zh-CN') => writeByRules(buildProfile(student, reports, lang, '2026-11-21').input);

// PHQ-9 total 22 (severe) with item 9 = 2; GAD-7 total 3 (minimal).
const severePhq = () => report('PHQ9', [3, 3, 3, 3, 2, 2, 2, 2, 2]);
const calmGad = () => report('GAD7', [1, 1, 1, 0, 0, 0, 0]);

describe('rule-based writer', () => {
  it('a severe PHQ-9 with item 9 > 0 always leads with risk and a referral step (zh and en)', () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const text = write([calmGad(), severePhq()], lang);
      expect(text.risk.level).toBe('urgent');
      expect(text.summary.startsWith(text.risk.text)).toBe(true);
      expect(text.staffsteps[0]).toMatch(lang === 'en-US' ? /^Refer today/ : /^今天内转介/);
      expect(text.staffsteps[0]).toMatch(lang === 'en-US' ? /item 9/ : /第 9 题/);
      // The critical item is the first finding, before any score.
      expect(text.findings[0]).toMatch(lang === 'en-US' ? /critical item 9/ : /关键题第 9 题/);
      // The person is told where to get help at once.
      expect(text.personsteps[0]).toContain('12356');
    }
  });

  it('item 9 > 0 is urgent even when the PHQ-9 total is in the normal band', () => {
    const text = write([report('PHQ9', [0, 0, 0, 0, 0, 0, 0, 0, 1])]);
    expect(text.risk.level).toBe('urgent');
    expect(text.staffsteps[0]).toMatch(/^今天内转介/);
  });

  it('a normal sheet does not invent problems', () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const text = write([report('PHQ9', [1, 0, 1, 0, 0, 0, 1, 0, 0]), calmGad()], lang);
      expect(text.risk.level).toBe('none');
      expect(text.staffsteps).toHaveLength(1);
      expect(text.staffsteps[0]).toMatch(lang === 'en-US' ? /No action needed beyond routine screening/ : /无需额外处置/);
      const all = [text.summary, ...text.findings, ...text.staffsteps, text.personmessage, ...text.personsteps].join('\n');
      expect(all).not.toMatch(
        lang === 'en-US' ? /critical|warning range|refer|urgent|worse|12356/i : /关键题|预警区间|转介|紧急|加重|12356/,
      );
      expect(text.findings).toHaveLength(2); // one line per form, nothing else
    }
  });

  it('the risk follows the highest band level; a warning band is high whatever its level', () => {
    const input = (level: number, band = false) => ({
      lang: 'zh-CN' as const,
      profile: { population: 'x', populationapp: PopulationApp.students, gender: 'male' as const, ageband: null },
      forms: [
        {
          form: 'F',
          instrument: 'F',
          date: '2026-11-01',
          mentalstate: level,
          indicators: [{ name: 'T', kind: 'total' as const, score: 1, level, label: null, interpretation: null, advice: null }],
          warnings: band ? [{ source: 'band' as const, item: null, reason: '' }] : [],
          trend: null,
        },
      ],
    });
    expect([0, 1, 2, 3, 4].map((l) => riskOf(input(l)))).toEqual(['none', 'low', 'moderate', 'high', 'high']);
    expect(riskOf(input(1, true))).toBe('high');
    // PHQ-9 marks its moderate band (10-14) as a warning band (>= 10: further evaluation).
    expect(riskOf(buildProfile(student, [report('PHQ9', [2, 2, 2, 2, 2, 1, 0, 0, 0])], 'zh-CN', '2026-11-21').input)).toBe('high');
  });

  it('reports the trend against the previous result of the same form and asks staff about a worsening', () => {
    const before = report('GAD7', [1, 1, 0, 0, 0, 0, 0], -30, 'g1');
    const after = report('GAD7', [2, 2, 2, 2, 2, 1, 1], 0, 'g2');
    const { input, used } = buildProfile(student, [after, before], 'en-US', '2026-11-21');
    expect(used.map((r) => r.reportid)).toEqual(['g2']);
    const text = writeByRules(input);
    expect(text.findings).toContain(`${input.forms[0]!.form}, ${input.forms[0]!.trend!.changes[0]!.name} since 2026-10-02: 2 → 12, worse.`);
    expect(text.staffsteps.at(-1)).toMatch(/^Talk with the person about why .* got worse/);
  });

  it('is deterministic and records its rule set', () => {
    expect(write([severePhq(), calmGad()])).toEqual(write([calmGad(), severePhq()]));
    expect(RULES_MODEL).toMatch(/^rules-\d+$/);
  });
});
