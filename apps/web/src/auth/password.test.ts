import { describe, expect, it } from 'vitest';
import { hashPassword, isValidNewPassword } from './password';

describe('new password rule (SPEC §5)', () => {
  it.each(['123456', '0000', 'abcDEF', 'demo123', 'Abc19', '!@#$%^&*', '**'])('accepts %s', (pwd) => {
    expect(isValidNewPassword(pwd)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['abc0', 'letters with the digit 0'],
    ['abc!', 'letters and a symbol'],
    ['12 34', 'a space'],
    ['123!', 'digits and a symbol'],
    ['密码123', 'non-Latin letters'],
    ['abc_1', 'an underscore'],
  ])('refuses %j (%s)', (pwd) => {
    expect(isValidNewPassword(pwd)).toBe(false);
  });

  it('hashes to uppercase MD5 hex', () => {
    expect(hashPassword('demo123')).toBe('62CC2D8B4BF2D8728120D052163A77DF');
    expect(hashPassword('demo123')).toMatch(/^[0-9A-F]{32}$/);
  });
});
