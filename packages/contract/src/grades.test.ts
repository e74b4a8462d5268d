import { describe, expect, it } from 'vitest';
import { compareGrades, gradeNames, gradeRank } from './grades.js';

describe('grades in school order', () => {
  it('sorts junior grades 初一, 初二, 初三 (not 初一, 初三, 初二)', () => {
    expect(['初三', '初一', '初二'].sort(compareGrades)).toEqual(['初一', '初二', '初三']);
  });

  it('puts primary before junior before senior, in both languages, unknown grades last', () => {
    const mixed = ['高一', '其他', '初二', '六年级', '一年级', '高三', 'Grade 10', 'Grade 2', '初一', '七年级', 'Senior 2', 'Junior 3'];
    expect(mixed.sort(compareGrades)).toEqual(['一年级', 'Grade 2', '六年级', '初一', '七年级', '初二', 'Junior 3', '高一', 'Grade 10', 'Senior 2', '高三', '其他']);
  });

  it('ranks every known name as its spelling says', () => {
    for (const [name, rank] of gradeNames()) expect(gradeRank(name), name).toBe(rank);
    expect(gradeRank('初中二年级')).toBe(8);
    expect(gradeRank('十三年级')).toBeNull();
    expect(gradeRank('Grade 13')).toBeNull();
  });
});
