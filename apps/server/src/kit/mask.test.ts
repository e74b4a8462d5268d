import { describe, expect, it } from 'vitest';
import { maskIdCard, maskPhone } from './mask.js';

describe('masks', () => {
  it('keeps three and four digits of a phone, whatever separates them', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('138-1234-5678')).toBe('138****5678');
    expect(maskPhone('12345')).toBe('****');
    expect(maskPhone(null)).toBe('');
  });
  it('keeps four and four characters of an ID number', () => {
    expect(maskIdCard('11010519491231002X')).toBe('1101**********002X');
    expect(maskIdCard('1234')).toBe('****');
    expect(maskIdCard(undefined)).toBe('');
  });
});
