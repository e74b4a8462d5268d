/**
 * A team's roster from a spreadsheet (number, name, gender). The file streams through the guarded
 * reader; the answer is the difference against the current roster (new, changed, leaving). A
 * commit works out the same difference inside one transaction, with the team locked, and applies
 * exactly it, or with any bad row stores nothing.
 */
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { studentNo, type ImportProblem, type Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { XLSX_TYPE } from '../../kit/index.js';
import { streamSheetRows } from '../../kit/upload/reader.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { createRosterPersons, livingPerson, personBriefs, renamePersons, checkRosterRow, mapHeader, problemsWorkbook, problemText, ROSTER_SHEET, type RosterColumn } from '../persons/index.js';
import { teamInScope, teamName, type TeamRecord } from './store.js';
import { team, teamMember } from './tables.js';

const MAX_LISTED = 10_000;
/** A team roster is a class or a department: 20,000 rows is far beyond either. */
const MAX_ROWS = 20_001;

const columns: RosterColumn[] = [
  { key: 'studentno', title: '学号/工号 Number [studentno]', required: true },
  { key: 'realname', title: '姓名 Name [realname]', required: true },
  { key: 'gender', title: '性别（男/女） Gender (M/F) [gender]', required: true },
];

export async function teamRosterTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(ROSTER_SHEET);
  ws.addRow(columns.map((c) => `*${c.title}`));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  columns.forEach((_, i) => {
    ws.getColumn(i + 1).width = 24;
    ws.getColumn(i + 1).numFmt = '@';
  });
  const help = wb.addWorksheet('说明 Help');
  help.getColumn(1).width = 120;
  [
    '第一行为表头，请勿修改方括号中的列代码。Row 1 is the header: keep the codes in brackets.',
    '学号/工号在团体内唯一（字母、数字、- 和 _）；性别填 男/女。Numbers are unique in the team (letters, digits, - and _); gender M/F (男/女).',
    '导入先预览与现有名单的差异（新增、变更、离开）；确认后按此差异全部生效，或有错误时全部不导入。An import first previews the difference with the current roster (new, changed, leaving); committing applies exactly it, or nothing when a row is bad.',
  ].forEach((line) => help.addRow([line]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Member {
  cusercode: string;
  realname: string;
  gender: string;
}
interface FileRow {
  row: number;
  studentno: string;
  realname: string;
  gender: '01' | '02';
}
type Change = { change: 'new' | 'changed' | 'leaving'; row: number; studentno: string; realname: string; gender: string; before: { realname: string; gender: string } | null };

export interface RosterDiff {
  total: number;
  added: FileRow[];
  changed: (FileRow & { cusercode: string; before: Member })[];
  leaving: (Member & { studentno: string })[];
  unchanged: number;
  problems: ImportProblem[];
  problemcount: number;
}

async function currentRoster(db: DbOrTx, teamid: string): Promise<Map<string, Member>> {
  const rows = await db
    .select({ cusercode: teamMember.cusercode, studentno: teamMember.studentno })
    .from(teamMember)
    .where(and(eq(teamMember.teamid, teamid), livingPerson(teamMember.cusercode)));
  const people = await personBriefs(db, rows.map((r) => r.cusercode));
  return new Map(rows.map((r) => [r.studentno, { cusercode: r.cusercode, realname: people.get(r.cusercode)?.realname ?? '', gender: people.get(r.cusercode)?.gender ?? '' }]));
}

/** Reads the file and compares it with the team's roster; stores nothing. */
export async function rosterDiff(db: DbOrTx, teamid: string, bytes: Uint8Array, lang: Lang): Promise<RosterDiff> {
  const en = lang === 'en-US';
  const problems: ImportProblem[] = [];
  let problemcount = 0;
  const note = (row: number, column: string, reason: string) => {
    problemcount++;
    if (problems.length < MAX_LISTED) problems.push({ row, column, reason });
  };
  const rows: FileRow[] = [];
  const seen = new Map<string, number>();
  let header: ReturnType<typeof mapHeader> | null = null;
  let total = 0;
  for await (const batch of streamSheetRows(bytes, { sheets: { name: ROSTER_SHEET, orFirst: true }, limits: { maxRows: MAX_ROWS } })) {
    for (const { r, cells } of batch.rows) {
      if (!header) {
        header = mapHeader(cells, columns);
        for (const c of header.missing) note(r, c.title, en ? 'required column missing from the header' : '表头缺少必填列');
        continue;
      }
      if (!cells.some((c) => c !== null && String(c).trim() !== '')) continue;
      total++;
      if (header.missing.length) continue;
      const checked = checkRosterRow(cells, columns, header.at);
      for (const p of checked.problems) note(r, p.column, problemText(p, lang));
      const rawNo = cells[header.at.get('studentno')!];
      const no = studentNo.safeParse(rawNo === null || rawNo === undefined ? '' : String(rawNo));
      if (!no.success) {
        note(r, columns[0]!.title, en ? 'required: letters, digits, - and _ (at most 32)' : '必填：字母、数字、- 和 _（最多 32 个）');
        continue;
      }
      const first = seen.get(no.data);
      if (first !== undefined) {
        note(r, columns[0]!.title, en ? `the same number as row ${first}` : `与第${first}行学号重复`);
        continue;
      }
      seen.set(no.data, r);
      if (checked.person) rows.push({ row: r, studentno: no.data, realname: checked.person.realname, gender: checked.person.gender });
    }
  }
  if (!header) note(1, '', en ? 'the file has no header row' : '文件没有表头行');
  const current = await currentRoster(db, teamid);
  const diff: RosterDiff = { total, added: [], changed: [], leaving: [], unchanged: 0, problems, problemcount };
  for (const f of rows) {
    const m = current.get(f.studentno);
    if (!m) diff.added.push(f);
    else if (m.realname !== f.realname || m.gender !== f.gender) diff.changed.push({ ...f, cusercode: m.cusercode, before: m });
    else diff.unchanged++;
  }
  for (const [studentno, m] of [...current].sort(([a], [b]) => a.localeCompare(b))) if (!seen.has(studentno)) diff.leaving.push({ ...m, studentno });
  return diff;
}

/** Applies a difference to the team (inside the caller's transaction). */
async function applyDiff(tx: DbOrTx, t: TeamRecord, diff: RosterDiff, now: Date) {
  const codes = await createRosterPersons(tx, { musercode: t.musercode, appid: t.appid, now }, diff.added);
  // A number left behind by a deleted person is free again.
  const numbers = diff.added.map((a) => a.studentno);
  for (let i = 0; i < numbers.length; i += 5000)
    await tx.delete(teamMember).where(and(eq(teamMember.teamid, t.teamid), inArray(teamMember.studentno, numbers.slice(i, i + 5000))));
  const members = diff.added.map((a, i) => ({ cusercode: codes[i]!, studentno: a.studentno }));
  for (let i = 0; i < members.length; i += 1000)
    await tx.execute(sql`
      insert into team_member (teamid, cusercode, studentno, joinedat)
      select ${t.teamid}, x.cusercode, x.studentno, ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(members.slice(i, i + 1000))}::jsonb) as x(cusercode text, studentno text)`);
  await renamePersons(tx, diff.changed.map((c) => ({ cusercode: c.cusercode, realname: c.realname, gender: c.gender })), now);
  const leaving = diff.leaving.map((l) => l.cusercode);
  for (let i = 0; i < leaving.length; i += 5000)
    await tx.delete(teamMember).where(and(eq(teamMember.teamid, t.teamid), inArray(teamMember.cusercode, leaving.slice(i, i + 5000))));
}

function changesOf(diff: RosterDiff): Change[] {
  const out: Change[] = [
    ...diff.added.map((a) => ({ change: 'new' as const, row: a.row, studentno: a.studentno, realname: a.realname, gender: a.gender, before: null })),
    ...diff.changed.map((c) => ({ change: 'changed' as const, row: c.row, studentno: c.studentno, realname: c.realname, gender: c.gender, before: { realname: c.before.realname, gender: c.before.gender } })),
  ].sort((a, b) => a.row - b.row);
  out.push(...diff.leaving.map((l) => ({ change: 'leaving' as const, row: 0, studentno: l.studentno, realname: l.realname, gender: l.gender, before: null })));
  return out.slice(0, MAX_LISTED);
}

function refuse(diff: RosterDiff): never {
  const shown = diff.problems.slice(0, 20);
  const more = diff.problemcount - shown.length;
  return fail('badImportFile', {
    zh: `导入失败，名单未作任何改动：共 ${diff.problemcount} 处错误；${shown.map((p) => `第${p.row}行${p.column ? `「${p.column}」` : ''}：${p.reason}`).join('；')}${more > 0 ? `；另有 ${more} 处，请先预览查看全部` : ''}`,
    en: `The roster is unchanged: ${diff.problemcount} problems; ${shown.map((p) => `row ${p.row}${p.column ? ` ${p.column}` : ''}: ${p.reason}`).join('; ')}${more > 0 ? `; and ${more} more: preview to see them all` : ''}`,
  });
}

class Refused extends Error {
  constructor(readonly diff: RosterDiff) {
    super('refused');
  }
}

export const rosterImportHandlers = {
  'as.m.assess.getAssessTeamRosterTemplate': async () => ({ filename: '团体名单模板 Team roster.xlsx', contentType: XLSX_TYPE, body: await teamRosterTemplate() }),

  'as.m.assess.importAssessTeamRoster': async (input, ctx: Ctx) => {
    const { teamid, mode, filename } = input;
    const t = await teamInScope(ctx, ctx.db, teamid);
    const bytes = await base64Bytes(input, 'content');
    const name = 'as.m.assess.importAssessTeamRoster';
    let diff: RosterDiff;
    if (mode === 'preview') diff = await rosterDiff(ctx.db, teamid, bytes, ctx.lang);
    else {
      try {
        diff = await ctx.db.transaction(async (tx) => {
          // The team locked: two imports (or an import and a roster edit) do not interleave.
          await tx.select({ teamid: team.teamid }).from(team).where(eq(team.teamid, teamid)).for('update');
          const d = await rosterDiff(tx, teamid, bytes, ctx.lang);
          if (d.problemcount) throw new Refused(d);
          await applyDiff(tx, t, d, ctx.now());
          return d;
        });
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        await ctx.audit({ action: name, result: 'fail', detail: { mode, filename, teamid, total: e.diff.total, problems: e.diff.problemcount } });
        return refuse(e.diff);
      }
    }
    const counts = { total: diff.total, added: diff.added.length, changed: diff.changed.length, leaving: diff.leaving.length, unchanged: diff.unchanged };
    await ctx.audit({ action: name, result: 'ok', detail: { mode, filename, teamid, team: teamName(t), ...counts, problems: diff.problemcount } });
    const errorfile = diff.problemcount ? (await problemsWorkbook(diff.problems, ctx.lang)).toString('base64') : '';
    return { mode, ...counts, changes: changesOf(diff), problems: diff.problems, problemcount: diff.problemcount, errorfile };
  },
} satisfies HandlerMap;
