import { describe, expect, it } from 'vitest';
import { DEFAULT_WARNING_SETTINGS } from '@xinli/contract';
import { builtInForm } from '../scales/library/index.js';
import { scoreSheet } from '../scales/index.js';
import { headlineOf, isMissed, reasonText, reportTriggers, scoreTriggers, worseningTrigger } from './triggers.js';

const phq9 = builtInForm('PHQ9')!;
/** A PHQ-9 sheet from item scores 0-3 (option position = score + 1). */
const sheet = (scores: number[]) => scoreSheet(phq9, { answers: scores.map((s, i) => ({ no: i + 1, option: s + 1 })) });
const figures = (scores: number[]) => ({ ...headlineOf(sheet(scores)), voided: false });

describe('report triggers', () => {
  it('a low total with item 9 = 1 raises a critical warning (the definition’s critical rule)', () => {
    const score = sheet([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(headlineOf(score)).toEqual({ score: 1, level: 0 });
    const triggers = scoreTriggers(score);
    expect(triggers).toEqual([
      {
        kind: 'critical_item',
        level: 'critical',
        params: { items: [{ no: 9, text: expect.objectContaining({ zh: expect.stringContaining('第9题') }) }] },
      },
    ]);
    expect(reasonText('critical_item', triggers[0]!.params, true)).toMatch(/^Item 9 \(thoughts of death/);
  });

  it('the same low total with item 9 = 0 raises nothing', () => {
    expect(reportTriggers(sheet([1, 0, 0, 0, 0, 0, 0, 0, 0]), null, DEFAULT_WARNING_SETTINGS)).toEqual([]);
  });

  it('a band marked as raising a warning raises attention; the severe band raises critical; one warning per report and kind', () => {
    expect(scoreTriggers(sheet([2, 2, 2, 2, 2, 0, 0, 0, 0])).map((t) => [t.kind, t.level])).toEqual([['band', 'attention']]);
    expect(scoreTriggers(sheet([3, 3, 3, 3, 3, 3, 3, 0, 0])).map((t) => [t.kind, t.level])).toEqual([['band', 'critical']]);
    // A severe total with item 9: one critical-item warning and one band warning.
    expect(scoreTriggers(sheet([3, 3, 3, 3, 3, 3, 3, 3, 3])).map((t) => [t.kind, t.level])).toEqual([
      ['critical_item', 'critical'],
      ['band', 'critical'],
    ]);
  });

  it('a second report that worsens by the configured points raises attention; an unchanged one does not', () => {
    const settings = { worsenpoints: 3, worsenlevels: 0 };
    const before = figures([1, 1, 0, 0, 0, 0, 0, 0, 0]); // 2
    expect(worseningTrigger(figures([1, 1, 1, 1, 1, 0, 0, 0, 0]), before, settings)).toMatchObject({
      kind: 'worsening',
      level: 'attention',
      params: { from: 2, to: 5 },
    });
    expect(worseningTrigger(figures([1, 1, 0, 0, 0, 0, 0, 0, 0]), before, settings)).toBeNull();
    // One point short of the setting.
    expect(worseningTrigger(figures([1, 1, 1, 1, 0, 0, 0, 0, 0]), before, settings)).toBeNull();
  });

  it('a rise of a band level raises worsening when levels are configured; a void sheet compares nothing', () => {
    const settings = { worsenpoints: 0, worsenlevels: 1 };
    const before = figures([1, 1, 1, 0, 0, 0, 0, 0, 0]); // 3, level 0
    const after = figures([1, 1, 1, 1, 1, 0, 0, 0, 0]); // 5, level 1
    expect(worseningTrigger(after, before, settings)).toMatchObject({ params: { fromlevel: 0, tolevel: 1 } });
    expect(worseningTrigger(after, { ...before, voided: true }, settings)).toBeNull();
    expect(worseningTrigger(after, null, settings)).toBeNull();
    expect(worseningTrigger(after, before, { worsenpoints: 0, worsenlevels: 0 })).toBeNull();
  });

  it('a given assessment misses its deadline after the configured days, unless finished or the check is off', () => {
    const given = new Date('2026-11-01T08:00:00Z');
    expect(isMissed(given, false, 14, new Date('2026-11-15T07:59:59Z'))).toBe(false);
    expect(isMissed(given, false, 14, new Date('2026-11-15T08:00:00Z'))).toBe(true);
    expect(isMissed(given, true, 14, new Date('2026-12-15T08:00:00Z'))).toBe(false);
    expect(isMissed(given, false, 0, new Date('2027-11-15T08:00:00Z'))).toBe(false);
  });

  it('a reason says each rule once, without the kind the tag shows, and no doubled punctuation', () => {
    const items = [
      { no: 9, text: { zh: '第9题（自伤念头）得分大于0，需及时随访。', en: 'Item 9 (self-harm) above 0: follow up.' } },
      { no: 3, text: { zh: '', en: '' } },
    ];
    expect(reasonText('critical_item', { items }, false)).toBe('第9题（自伤念头）得分大于0，需及时随访；第3题');
    expect(reasonText('critical_item', { items }, true)).toBe('Item 9 (self-harm) above 0: follow up; Item 3');
    const bands = [{ text: { zh: '总分：中重度抑郁（18分）', en: 'Total: severe (18)' } }];
    expect(reasonText('band', { items: bands }, false)).toBe('总分：中重度抑郁（18分）');
    for (const en of [false, true]) {
      const text = reasonText('critical_item', { items }, en);
      expect(text).not.toMatch(/[。；.;,，][。；;]|危机条目|Critical item/);
    }
  });

  it('renders reasons in either language', () => {
    expect(reasonText('worsening', { from: 2, to: 9, fromlevel: 0, tolevel: 1 }, false)).toBe(
      '较上次同一量表加重（总分 2 → 9，等级 正常 → 轻度）',
    );
    // Levels are the words the console shows, never codes.
    expect(reasonText('worsening', { from: null, to: null, fromlevel: 1, tolevel: 4 }, true)).toBe(
      'Worse than the previous report of this form (level Mild → Severe)',
    );
    expect(reasonText('missed', { days: 14 }, true)).toBe('Assessment not finished 14 days after it was given');
    expect(reasonText('manual', { note: 'teacher worried' }, true)).toBe('Flagged by staff: teacher worried');
  });
});
