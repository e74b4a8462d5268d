import { describe, expect, it } from 'vitest';
import i18n, { t } from '../i18n';
import { signInName } from './storage';

describe('the name sign-out leaves on the sign-in form', () => {
  it("is the staff user's own sign-in name, not the institution's account", () => {
    expect(signInName({ userid: 'u-7', sysusername: 'teacher', username: 'school' })).toBe('teacher');
  });
  it("is the institution's account name for the institution itself", () => {
    expect(signInName({ userid: '', sysusername: '', username: 'school' })).toBe('school');
  });
});

describe('the two session-expiry messages (SPEC §4, §8)', () => {
  it('are different full sentences with no literal variant number, in both languages', async () => {
    for (const lang of ['zh-CN', 'en-US']) {
      await i18n.changeLanguage(lang);
      const [first, second] = [t('shell.loginExpired'), t('shell.loginExpired2')];
      expect(second).not.toMatch(/\(\s*2\s*\)|（2）/);
      expect(second).not.toBe(first);
    }
    await i18n.changeLanguage('zh-CN');
  });
});
