/**
 * School grades in school order, not in text order (text order puts 初三 before 初二): primary
 * 一年级…六年级, junior 初一…初三 (also 七年级…九年级), senior 高一…高三, and the English names
 * "Grade 1"…"Grade 12", "Junior 1"…"Junior 3", "Senior 1"…"Senior 3". One comparator for every
 * list of grades (statistics, group reports, team lists and lookups); a grade it does not know
 * comes after the known ones, in text order.
 */
const DIGITS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
const num = (s: string) => DIGITS[s] ?? (/^\d+$/.test(s) ? Number(s) : NaN);

const PATTERNS: [RegExp, (n: number) => number][] = [
  [/^([一二三四五六七八九]|[1-9])\s*年级$/, (n) => n],
  [/^初(?:中)?([一二三123])(?:年级)?$/, (n) => 6 + n],
  [/^高(?:中)?([一二三123])(?:年级)?$/, (n) => 9 + n],
  [/^grade\s*(\d{1,2})$/i, (n) => n],
  [/^(?:junior|middle)\s*(\d)$/i, (n) => 6 + n],
  [/^(?:senior|high)\s*(\d)$/i, (n) => 9 + n],
];

/** The grade's place in school (1 = first grade of primary … 12 = senior 3), or null when unknown. */
export function gradeRank(grade: string): number | null {
  const g = grade.trim();
  for (const [re, rank] of PATTERNS) {
    const m = re.exec(g);
    if (!m) continue;
    const n = num(m[1]!);
    const r = rank(n);
    if (Number.isInteger(n) && r >= 1 && r <= 12) return r;
  }
  return null;
}

const text = new Intl.Collator('zh-CN', { numeric: true }).compare;

/** Sorts grades in school order; unknown grades after the known ones, by text. */
export function compareGrades(a: string, b: string): number {
  const ra = gradeRank(a);
  const rb = gradeRank(b);
  if (ra !== null && rb !== null) return ra - rb || text(a, b);
  if (ra !== null) return -1;
  if (rb !== null) return 1;
  return text(a, b);
}

/** The known grade names of each rank (for ordering in SQL): Chinese and English spellings. */
export function gradeNames(): [string, number][] {
  const zh = ['一', '二', '三', '四', '五', '六'];
  const out: [string, number][] = [];
  zh.forEach((d, i) => out.push([`${d}年级`, i + 1]));
  ['七', '八', '九'].forEach((d, i) => out.push([`${d}年级`, 7 + i]));
  ['一', '二', '三'].forEach((d, i) => out.push([`初${d}`, 7 + i], [`高${d}`, 10 + i], [`Junior ${i + 1}`, 7 + i], [`Senior ${i + 1}`, 10 + i]));
  for (let n = 1; n <= 12; n++) out.push([`Grade ${n}`, n]);
  return out;
}
