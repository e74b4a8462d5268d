import { describe, expect, it } from 'vitest';
import { maskEmail, maskIdCard, maskName, maskPhone } from './mask.js';

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
  it('keeps the first character of a name, and the last of a Chinese one', () => {
    expect(maskName('张三')).toBe('张*');
    expect(maskName('欧阳明月')).toBe('欧**月');
    expect(maskName('John Smith')).toBe('J*** S****');
    expect(maskName('  ')).toBe('');
  });
  it('keeps the first character of an email and its domain', () => {
    expect(maskEmail('li.wang@school.example.cn')).toBe('l***@school.example.cn');
    expect(maskEmail('王老师@学校.cn')).toBe('王***@学校.cn');
    expect(maskEmail('nodomain')).toBe('****');
    expect(maskEmail('')).toBe('');
  });
});
