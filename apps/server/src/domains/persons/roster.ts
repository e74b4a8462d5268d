/**
 * The roster templates of the three person imports and the checking of their rows. Pure
 * functions (no HTTP, no SQL): import-handlers.ts streams the file through the guarded reader and
 * stores what passes.
 *
 * A template has the person columns (name, gender, birth date, phone, ID number) and then one
 * column per question of the app's archive form (type 02). Every header carries its key in
 * brackets (`姓名 Name [realname]`, `孕周 Weeks [q2]`), so columns may be reordered or left out
 * (except the required ones) and are still found.
 */
import ExcelJS from 'exceljs';
import { calendarDate, idCardNumber, mobileNumber, NAME_RULE, PERSON_NAME_MAX, personNameProblem, type ArchiveAnswer, type FormDefinition, type Lang } from '@xinli/contract';
import type { CellValue } from '../../kit/upload/reader.js';
import type { Message } from '../../http/errors.js';
import { checkAnswer } from './archive.js';
import { escapeCell } from '../../kit/xlsx.js';

export const ROSTER_SHEET = '名单 Roster';

const personColumns = [
  { key: 'realname', zh: '姓名', en: 'Name', required: true },
  { key: 'gender', zh: '性别（男/女）', en: 'Gender (M/F)', required: true },
  { key: 'birthdate', zh: '出生日期', en: 'Birth date (YYYY-MM-DD)', required: false },
  { key: 'phonenumber', zh: '手机号', en: 'Phone', required: false },
  { key: 'idcard', zh: '身份证号', en: 'ID number', required: false },
] as const;

type Question = FormDefinition['questions'][number];

export interface RosterColumn {
  key: string;
  title: string;
  required: boolean;
  question?: Question;
}

/** The columns of a roster for an app's archive form (or none). */
export function rosterColumns(def: FormDefinition | null): RosterColumn[] {
  const person = personColumns.map((c) => ({ key: c.key, title: `${c.zh} ${c.en} [${c.key}]`, required: c.required }));
  const questions = (def?.questions ?? []).map((q) => ({
    key: `q${q.no}`,
    title: `${q.text.zh}${q.text.en ? ` ${q.text.en}` : ''} [q${q.no}]`,
    required: q.required,
    question: q,
  }));
  return [...person, ...questions];
}

/** The template: header row, a help sheet saying what each archive column takes. */
export async function buildRosterTemplate(def: FormDefinition | null, population: { zh: string; en: string }): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(ROSTER_SHEET);
  const columns = rosterColumns(def);
  ws.addRow(columns.map((c) => (c.required ? `*${c.title}` : c.title)));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  // Text cells, so phone and ID numbers keep every digit and dates stay as typed.
  columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1);
    col.width = c.question ? 24 : 18;
    col.numFmt = '@';
  });
  const help = wb.addWorksheet('说明 Help');
  help.getColumn(1).width = 120;
  [
    `人群：${population.zh} Population: ${population.en}`,
    '第一行为表头，请勿修改方括号中的列代码；带 * 的列必填。Row 1 is the header: keep the codes in brackets; columns marked * are required.',
    '性别填 男/女（或 01/02）；日期填 YYYY-MM-DD；身份证号为 18 位。Gender: M/F (or 01/02); dates YYYY-MM-DD; ID numbers have 18 characters.',
    '导入先预览并列出每一处错误；确认导入时全部成功或全部不导入。An import is first previewed with every problem listed; committing stores every row or none.',
    ...(def?.questions ?? []).map((q) => `[q${q.no}] ${q.text.zh}：${hintOf(q)}`),
  ].forEach((line) => help.addRow([line]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function hintOf(q: Question): string {
  if (q.type === 1) return `单选，填选项文字或序号：${q.options.map((o, i) => `${i + 1} ${o.text.zh}`).join('；')}`;
  if (q.type === 2) return `多选，用逗号分隔：${q.options.map((o, i) => `${i + 1} ${o.text.zh}`).join('；')}`;
  const kinds = [
    '文字',
    '整数',
    '小数',
    '日期 YYYY-MM-DD',
    '时间 HH:mm',
    '日期时间 YYYY-MM-DD HH:mm',
    '时间段 HH:mm-HH:mm',
    '数字',
    '6 位行政区划代码',
  ];
  return `${kinds[q.inputtype ?? 0]}${q.range ? `（${q.range.min}–${q.range.max}）` : ''}`;
}

const msg = (zh: string, en: string): Message => ({ zh, en });

/** Where each column is in the file, from the header row; missing required columns are problems. */
export function mapHeader(header: CellValue[], columns: RosterColumn[]): { at: Map<string, number>; missing: RosterColumn[] } {
  const at = new Map<string, number>();
  header.forEach((cell, i) => {
    const m = /\[([A-Za-z0-9]+)\]\s*$/.exec(String(cell ?? '').trim());
    if (m && columns.some((c) => c.key === m[1]) && !at.has(m[1]!)) at.set(m[1]!, i);
  });
  return { at, missing: columns.filter((c) => c.required && !at.has(c.key)) };
}

export interface RosterPerson {
  realname: string;
  gender: '01' | '02';
  birthdate: string | null;
  phonenumber: string | null;
  idcard: string | null;
  archive: ArchiveAnswer[];
}

export interface RowProblem {
  column: string;
  reason: Message;
}

const text = (v: CellValue | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v).trim();
  return /^'[=+\-@]/.test(s) ? s.slice(1) : s;
};

/** An Excel date serial (days since 1899-12-30) as YYYY-MM-DD. */
const serialDate = (n: number) => new Date(Math.round((n - 25569) * 86_400_000)).toISOString().slice(0, 10);

const GENDERS: Record<string, '01' | '02'> = {
  男: '01',
  '01': '01',
  '1': '01',
  m: '01',
  male: '01',
  女: '02',
  '02': '02',
  '2': '02',
  f: '02',
  female: '02',
};

/** One choice cell: option numbers, or option texts (Chinese or English), separated by commas. */
function choiceValue(q: Question, raw: string): number | number[] | string {
  const parts = raw
    .split(/[,，、;；]/)
    .map((s) => s.trim())
    .filter(Boolean);
  const picks = parts.map((p) => {
    if (/^[0-9]+$/.test(p)) return Number(p);
    const i = q.options.findIndex((o) => o.text.zh === p || o.text.en.toLowerCase() === p.toLowerCase());
    return i >= 0 ? i + 1 : NaN;
  });
  if (picks.some(Number.isNaN)) return raw; // checkAnswer names it
  return q.type === 1 ? (picks.length === 1 ? picks[0]! : raw) : picks;
}

/** Checks one data row; answers the person or the problems (every one of them). */
export function checkRosterRow(
  cells: CellValue[],
  columns: RosterColumn[],
  at: Map<string, number>,
): { person?: RosterPerson; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const cell = (key: string) => {
    const i = at.get(key);
    return i === undefined ? null : (cells[i] ?? null);
  };
  const titleOf = (key: string) => columns.find((c) => c.key === key)!.title;
  const bad = (key: string, reason: Message) => problems.push({ column: titleOf(key), reason });

  const realname = text(cell('realname'));
  if (!realname) bad('realname', msg('必填', 'is required'));
  else if (realname.length > PERSON_NAME_MAX) bad('realname', msg(`不能超过 ${PERSON_NAME_MAX} 个字符`, `must be at most ${PERSON_NAME_MAX} characters`));
  else if (personNameProblem(realname)) bad('realname', msg(NAME_RULE.zh, NAME_RULE.en));

  const genderRaw = text(cell('gender')).toLowerCase();
  const gender = GENDERS[genderRaw];
  if (!genderRaw) bad('gender', msg('必填', 'is required'));
  else if (!gender) bad('gender', msg('须为 男 或 女', 'must be M or F (男/女)'));

  let birthdate: string | null = null;
  const birthRaw = cell('birthdate');
  if (typeof birthRaw === 'number') birthdate = serialDate(birthRaw);
  else if (text(birthRaw)) birthdate = text(birthRaw).replace(/\//g, '-');
  if (birthdate !== null && !calendarDate.safeParse(birthdate).success)
    bad('birthdate', msg('须为日期 YYYY-MM-DD', 'must be a date YYYY-MM-DD'));

  const phoneRaw = text(cell('phonenumber'));
  const phonenumber = phoneRaw || null;
  if (phonenumber && !mobileNumber.safeParse(phonenumber).success)
    bad('phonenumber', msg('须为 11 位手机号', 'must be an 11-digit mobile number'));

  const idRaw = cell('idcard');
  let idcard: string | null = null;
  if (typeof idRaw === 'number')
    bad('idcard', msg('身份证号须为文本格式（数字格式会丢失末位）', 'the ID number must be a text cell (a number cell loses digits)'));
  else if (text(idRaw)) {
    const parsed = idCardNumber.safeParse(text(idRaw));
    if (parsed.success) idcard = parsed.data;
    else bad('idcard', msg('身份证号无效（18 位，校验位须正确）', 'not a valid ID number (18 characters with a correct check character)'));
  }

  const archive: ArchiveAnswer[] = [];
  for (const c of columns) {
    if (!c.question) continue;
    const raw = cell(c.key);
    const s = text(raw);
    if (!s) {
      if (c.required) bad(c.key, msg('必填', 'is required'));
      continue;
    }
    const q = c.question;
    const value =
      q.type === 0
        ? typeof raw === 'number' && q.inputtype === 3
          ? serialDate(raw)
          : typeof raw === 'number'
            ? raw
            : s
        : choiceValue(q, s);
    const r = checkAnswer(q, value);
    if ('problem' in r) bad(c.key, r.problem);
    else archive.push({ no: q.no, value: r.value });
  }
  if (problems.length) return { problems };
  return { person: { realname, gender: gender!, birthdate, phonenumber, idcard, archive }, problems };
}

/** The problems of an import as a workbook the user downloads, fixes the roster by, and imports again. */
export async function problemsWorkbook(problems: { row: number; column: string; reason: string }[], lang: Lang): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(lang === 'en-US' ? 'Problems' : '错误');
  ws.addRow(lang === 'en-US' ? ['Row', 'Column', 'Reason'] : ['行号', '列', '原因']);
  ws.getRow(1).font = { bold: true };
  for (const p of problems) ws.addRow([p.row, escapeCell(p.column), escapeCell(p.reason)]);
  ws.getColumn(2).width = 36;
  ws.getColumn(3).width = 60;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const problemText = (p: { reason: Message }, lang: Lang) => (lang === 'en-US' ? p.reason.en : p.reason.zh);
