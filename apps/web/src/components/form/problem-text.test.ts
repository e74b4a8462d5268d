/**
 * Every problem a contract rule reports has words in both languages: the written-draft dialog
 * once built `common.rule.<key>` itself, and `common.rule.sentence` does not exist (a rule that
 * states itself carries its own sentence), so one function now words every problem.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NAME_RULE } from '@xinli/contract';
import i18n from '../../i18n';
import { problemText } from './FormDialog';
import type { Problem } from './zod-rules';

const KEYS: Problem['key'][] = ['required', 'max', 'min', 'maxValue', 'minValue', 'maxItems', 'format', 'invalid', 'sentence'];

afterAll(() => i18n.changeLanguage('zh-CN'));

describe.each(['zh-CN', 'en-US'])('problem words in %s', (lang) => {
  it('words each problem, never showing a key', async () => {
    await i18n.changeLanguage(lang);
    for (const key of KEYS) {
      const text = problemText({ key, values: { max: 5, min: 2 } }, 'X');
      expect(text, key).not.toMatch(/common\.|rule\./);
      expect(text, key).toContain('X');
    }
  });

  it("gives a rule's own sentence, a missing choice as \"choose\"", async () => {
    await i18n.changeLanguage(lang);
    expect(problemText({ key: 'sentence', values: {}, sentence: NAME_RULE }, 'X')).toBe(lang === 'en-US' ? NAME_RULE.en : NAME_RULE.zh);
    expect(problemText({ key: 'required', values: {} }, 'X', { choice: true })).toBe(i18n.t('common.rule.choose', { field: 'X' }));
  });
});
