import { describe, expect, it } from 'vitest';
import { NAME_RULE, personName, personNameProblem } from './person-name.js';
import { personActions } from './actions/persons.js';
import { examActions } from './actions/exam.js';
import { registrationActions } from './actions/registration.js';
import { taskActions } from './actions/tasks.js';
import { systemActions } from './actions/system.js';

describe('person names: one rule for every name of a person', () => {
  it('takes letters of any script, the middle dot, spaces, hyphens, apostrophes and dots (and digits after a letter)', () => {
    for (const ok of ['林小雨', '买买提·艾力', '阿依古丽•吐尔逊', 'Jean-Luc O’Brien', "D'Arcy", 'J. R. Smith', 'Zoë Ångström', 'Ли Мин', 'さくら・ミナ', '张伟2', 'x'.repeat(50)])
      expect(personName.safeParse(ok).success, ok).toBe(true);
    // Trimmed like every other text.
    expect(personName.parse('  林小雨 ')).toBe('林小雨');
  });

  it('refuses emoji, a leading digit, control characters, other symbols, a blank and more than 50 characters', () => {
    for (const bad of ['林小雨😀', '😀', '2小明', 'a\u0000b', 'a\tb', '张\n三', '<script>', '王_五', '·', '   ', '', 'x'.repeat(51), '林'.repeat(10_000)])
      expect(personName.safeParse(bad).success, JSON.stringify(bad.slice(0, 20))).toBe(false);
  });

  it('says what is allowed, in both languages', () => {
        expect(NAME_RULE.zh).toMatch(/·/);
    expect(NAME_RULE.en).toMatch(/emoji/i);
    expect(personNameProblem('林小雨😀')).toEqual(NAME_RULE);
    expect(personNameProblem('林小雨')).toBeNull();
    const issue = personName.safeParse('林小雨😀').error!.issues[0]!;
    expect(issue.message).toBe(NAME_RULE.key);
  });

  it('is the rule of every field that names a person', () => {
    const name = (schema: unknown, field = 'realname') =>
      ((schema as { shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }).shape[field]!);
    const fields = [
      name(personActions['as.m.cuser.insertCUser'].input),
      name(personActions['as.m.cuser.updateCUser'].input),
      name(examActions['as.c.exam.enter'].input),
      name(registrationActions['as.c.registration.submit'].input),
      name(taskActions['as.m.assess.insertAssessTeamCUser'].input),
      name(systemActions['as.m.system.user.insertUser'].input),
    ];
    for (const f of fields) {
      expect(f.safeParse('林小雨😀').success).toBe(false);
      expect(f.safeParse('买买提·艾力').success).toBe(true);
    }
  });
});
