/**
 * The Excel template for bulk questions: one row per question, options as (text, English
 * text, score) column triples. Pure functions over buffers (no HTTP, no SQL).
 */
import ExcelJS from 'exceljs';
import type { FormDefinition, LocalText, QuestionDefinition } from '@xinli/contract';
import { readSheetRows, type CellValue, type UploadLimits } from '../../kit/upload/reader.js';

export const MAX_OPTIONS = 12;
export const SHEET = '题目 Questions';

const fixed = [
  ['no', '题号 No.'],
  ['type', '题型 Type (0 填空 fill-in, 1 单选 single, 2 多选 multiple)'],
  ['textzh', '题目 Question (中文)'],
  ['texten', '题目 Question (English)'],
  ['required', '必答 Required (1/0)'],
  ['reverse', '反向计分 Reverse (1/0)'],
  ['factor', '所属因子 Factor'],
  ['inputtype', '输入类型 Input type (0-8, fill-in)'],
] as const;

/** Cells that a spreadsheet would run as a formula are written with a leading apostrophe (DESIGN §6). */
const escapeCell = (s: string) => (/^[=+\-@]/.test(s) ? `'${s}` : s);
const unescapeCell = (s: string) => (/^'[=+\-@]/.test(s) ? s.slice(1) : s);

/** The template, filled with the questions of `def` when given. */
export async function buildTemplate(def?: FormDefinition): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(SHEET);
  const header: string[] = fixed.map(([, label]) => label);
  for (let i = 1; i <= MAX_OPTIONS; i++) header.push(`选项${i} Option ${i}`, `选项${i}英文 Option ${i} (English)`, `分值${i} Score ${i}`);
  ws.addRow(header);
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  for (const q of def?.questions ?? []) {
    const row: (string | number)[] = [q.no, q.type, escapeCell(q.text.zh), escapeCell(q.text.en), q.required ? 1 : 0, q.reverse ? 1 : 0, q.factor ?? '', q.inputtype ?? ''];
    for (const o of q.options) row.push(escapeCell(o.text.zh), escapeCell(o.text.en), o.score);
    ws.addRow(row);
  }
  ws.columns.forEach((c, i) => (c.width = i === 2 || i === 3 ? 40 : 14));
  const help = wb.addWorksheet('说明 Help');
  [
    '每行一题；题号从 1 开始且不重复。One question per row; numbers start at 1 and do not repeat.',
    '题型：0 填空，1 单选，2 多选。Type: 0 fill-in, 1 single choice, 2 multiple choice.',
    '选择题至少两个选项，每个选项需要分值（数字）；填空题不填选项。Choice questions need at least two options, each with a numeric score; fill-ins have none.',
    '导入会替换该量表的全部题目，指标与分段保留。Importing replaces all questions of the scale; indicators and bands are kept.',
  ].forEach((line) => help.addRow([line]));
  help.getColumn(1).width = 120;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export interface RowError {
  row: number;
  message: LocalText;
}

const cellText = (v: CellValue): string => (v === null ? '' : unescapeCell(String(v).trim()));

/**
 * What the reader may take for a question sheet: questions are numbered 1-1000 and the template
 * has 44 columns, so a little room beyond that; nothing near the size of a roster.
 */
export const TEMPLATE_LIMITS: Partial<UploadLimits> = {
  maxFileBytes: 5 * 1024 * 1024,
  maxEntryBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxRows: 2000,
  maxColumns: 100,
  timeoutMs: 20_000,
};

const intIn = (s: string, min: number, max: number): number | null => (/^-?\d+$/.test(s) && +s >= min && +s <= max ? +s : null);

/**
 * Reads the questions of a filled template (the sheet named SHEET, else the first) through the
 * guarded upload reader. Any bad row is reported with its row number and nothing is returned
 * for use; a file that is not an xlsx, or breaks the reader's limits, throws UploadRefused.
 */
export async function parseTemplate(buffer: Buffer): Promise<{ questions: QuestionDefinition[]; errors: RowError[] }> {
  const { sheets } = await readSheetRows(buffer, { sheets: { name: SHEET, orFirst: true }, limits: TEMPLATE_LIMITS });
  return parseQuestionRows(sheets[0]?.rows);
}

/** The questions in the rows of a template sheet (rows[0] is the header); pure. */
export function parseQuestionRows(rows: CellValue[][] | undefined): { questions: QuestionDefinition[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const questions: QuestionDefinition[] = [];
  if (!rows) return { questions, errors: [{ row: 0, message: { zh: '没有工作表', en: 'The workbook has no sheet' } }] };
  const seen = new Set<number>();
  rows.forEach((row, i) => {
    const r = i + 1;
    if (r === 1) return;
    const cells = Array.from({ length: fixed.length + MAX_OPTIONS * 3 }, (_, c) => cellText(row[c] ?? null));
    if (cells.every((c) => c === '')) return;
    const bad = (zh: string, en: string) => errors.push({ row: r, message: { zh: `第${r}行：${zh}`, en: `row ${r}: ${en}` } });
    const [noS, typeS, textzh, texten, requiredS, reverseS, factor, inputS] = cells;
    const no = intIn(noS!, 1, 1000);
    const type = intIn(typeS!, 0, 2) as 0 | 1 | 2 | null;
    if (no === null) return void bad('题号须为 1-1000 的整数', 'the number must be a whole number 1-1000');
    if (seen.has(no)) return void bad(`题号 ${no} 重复`, `question number ${no} is used twice`);
    seen.add(no);
    if (type === null) return void bad('题型须为 0、1 或 2', 'the type must be 0, 1 or 2');
    if (!textzh) return void bad('缺少中文题目', 'the question text (Chinese) is missing');
    if (textzh.length > 1000 || texten!.length > 1000) return void bad('题目过长（最多 1000 字）', 'the question text is too long (1000 characters at most)');
    const flag = (s: string, dflt: boolean) => (s === '' ? dflt : s === '1' ? true : s === '0' ? false : null);
    const required = flag(requiredS!, true);
    const reverse = flag(reverseS!, false);
    if (required === null || reverse === null) return void bad('必答、反向计分须为 1 或 0', 'required and reverse must be 1 or 0');
    if (factor && !/^[A-Za-z0-9_-]{1,32}$/.test(factor)) return void bad('因子代码只能含字母、数字、- 和 _', 'a factor code has only letters, digits, - and _');
    const inputtype = inputS === '' ? undefined : intIn(inputS!, 0, 8);
    if (inputtype === null) return void bad('输入类型须为 0-8', 'the input type must be 0-8');
    const options: QuestionDefinition['options'] = [];
    for (let i = 0; i < MAX_OPTIONS; i++) {
      const [ozh, oen, oscore] = cells.slice(fixed.length + i * 3, fixed.length + i * 3 + 3) as [string, string, string];
      if (!ozh && !oen && !oscore) continue;
      if (!ozh) return void bad(`选项${i + 1}缺少中文文本`, `option ${i + 1} has no Chinese text`);
      const score = Number(oscore);
      if (oscore === '' || !Number.isFinite(score)) return void bad(`选项${i + 1}的分值不是数字`, `the score of option ${i + 1} is not a number`);
      if (ozh.length > 500 || oen.length > 500) return void bad(`选项${i + 1}文本过长`, `option ${i + 1} text is too long`);
      options.push({ text: { zh: ozh, en: oen }, score });
    }
    if (type !== 0 && options.length < 2) return void bad('选择题至少需要两个选项', 'a choice question needs at least two options');
    if (type === 0 && options.length > 0) return void bad('填空题不能有选项', 'a fill-in cannot have options');
    if (type !== 0 && inputtype !== undefined) return void bad('只有填空题可设输入类型', 'only a fill-in has an input type');
    questions.push({
      no,
      type,
      required,
      text: { zh: textzh, en: texten! },
      options,
      reverse,
      ...(factor ? { factor } : {}),
      ...(type === 0 && inputtype !== undefined ? { inputtype } : {}),
    });
  });
  if (!errors.length && !questions.length) errors.push({ row: 2, message: { zh: '第2行起没有题目', en: 'no questions from row 2 on' } });
  return { questions: questions.sort((a, b) => a.no - b.no), errors };
}
