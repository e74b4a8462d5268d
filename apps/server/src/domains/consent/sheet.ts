/**
 * A class's consent sheet (issue 30 §4): the institution collects the guardians' signed consent
 * forms on paper, marks on the sheet who consented, and uploads it once for the roster. The sheet
 * lists the roster by number; every row must name a member (number and name as on the roster) and
 * say yes or no. With any bad row nothing is recorded; otherwise each member marked yes who has no
 * guardian's consent yet gets one, recorded by the uploader for that class.
 */
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import type { Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { escapeCell, newId, XLSX_TYPE } from '../../kit/index.js';
import { streamSheetRows } from '../../kit/upload/reader.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { mapHeader, personBriefs, type RosterColumn } from '../persons/index.js';
import { teamInScope, teamName, teamRoster } from '../tasks/index.js';
import { consentStandings } from './state.js';
import { consentRecord } from './tables.js';

const SHEET = '监护人同意 Consent';
const MAX_ROWS = 5_001;
const columns: RosterColumn[] = [
  { key: 'studentno', title: '学号 Number [studentno]', required: true },
  { key: 'realname', title: '姓名 Name [realname]', required: true },
  { key: 'consented', title: '监护人已同意（是/否） Guardian consented (Y/N) [consented]', required: true },
  { key: 'guardianname', title: '监护人姓名 Guardian name [guardianname]', required: false },
];
const YES = new Set(['是', 'y', 'yes', '1', '√', '✓']);
const NO = new Set(['否', 'n', 'no', '0', '']);

interface Member {
  cusercode: string;
  studentno: string;
  realname: string;
}

async function membersOf(db: DbOrTx, teamid: string): Promise<Member[]> {
  const roster = await teamRoster(db, teamid);
  const people = await personBriefs(db, roster.map((r) => r.cusercode));
  return roster.filter((r) => people.get(r.cusercode) && !people.get(r.cusercode)!.deleted).map((r) => ({ ...r, realname: people.get(r.cusercode)!.realname }));
}

async function sheetOf(team: string, members: Member[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(SHEET);
  ws.addRow(columns.map((c) => (c.required ? `*${c.title}` : c.title)));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  [16, 16, 36, 24].forEach((w, i) => (ws.getColumn(i + 1).width = w));
  for (const m of members) ws.addRow([escapeCell(m.studentno), escapeCell(m.realname), '否', '']);
  const help = wb.addWorksheet('说明 Help');
  help.getColumn(1).width = 120;
  [
    `班级 Class：${team}`,
    '收回监护人签字的纸质同意书后，在「监护人已同意」列填 是 或 否，然后整表上传一次。Mark 是 (Y) or 否 (N) for each pupil once the guardian’s signed paper form is back, then upload the whole sheet once.',
    '学号与姓名须与名单一致；有任何一行有误时整表不导入。Number and name must match the roster; with any bad row nothing is recorded.',
  ].forEach((line) => help.addRow([line]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Problem {
  row: number;
  reason: string;
}
interface SheetRow {
  member: Member;
  yes: boolean;
  guardianname: string;
}

const cellText = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

/** Reads the sheet against the roster: the rows, and every problem (row and reason, in the caller's language). */
async function readSheet(bytes: Uint8Array, members: Member[], lang: Lang): Promise<{ rows: SheetRow[]; problems: Problem[]; total: number }> {
  const en = lang === 'en-US';
  const byNo = new Map(members.map((m) => [m.studentno, m]));
  const problems: Problem[] = [];
  const rows: SheetRow[] = [];
  const seen = new Set<string>();
  let header: ReturnType<typeof mapHeader> | null = null;
  let total = 0;
  for await (const batch of streamSheetRows(bytes, { sheets: { name: SHEET, orFirst: true }, limits: { maxRows: MAX_ROWS } })) {
    for (const { r, cells } of batch.rows) {
      if (!header) {
        header = mapHeader(cells, columns);
        for (const c of header.missing) problems.push({ row: r, reason: en ? `the header lacks the column ${c.title}` : `表头缺少列「${c.title}」` });
        continue;
      }
      if (!cells.some((c) => cellText(c) !== '')) continue;
      total++;
      if (header.missing.length) continue;
      const get = (key: string) => (header!.at.has(key) ? cellText(cells[header!.at.get(key)!]) : '');
      const no = get('studentno');
      const member = byNo.get(no);
      const mark = get('consented').toLowerCase();
      if (!member) problems.push({ row: r, reason: en ? `number ${no || '(empty)'} is not on the class roster` : `学号 ${no || '（空）'} 不在本班名单中` });
      else if (seen.has(no)) problems.push({ row: r, reason: en ? `number ${no} appears twice` : `学号 ${no} 重复` });
      else if (member.realname !== get('realname')) problems.push({ row: r, reason: en ? `the name does not match the roster (${member.realname})` : `姓名与名单不一致（名单为 ${member.realname}）` });
      else if (!YES.has(mark) && !NO.has(mark)) problems.push({ row: r, reason: en ? 'consented must be Y or N (是/否)' : '「监护人已同意」须填 是 或 否' });
      else rows.push({ member, yes: YES.has(mark), guardianname: get('guardianname').slice(0, 50) });
      seen.add(no);
    }
  }
  if (!header) problems.push({ row: 1, reason: en ? 'the file has no header row' : '文件没有表头行' });
  return { rows, problems, total };
}

function refuse(problems: Problem[]): never {
  const shown = problems.slice(0, 20).map((p) => ({ zh: `第${p.row}行：${p.reason}`, en: `row ${p.row}: ${p.reason}` }));
  const more = problems.length - shown.length;
  return fail('badImportFile', {
    zh: `导入失败，未登记任何同意：共 ${problems.length} 处错误；${shown.map((s) => s.zh).join('；')}${more > 0 ? `；另有 ${more} 处` : ''}`,
    en: `Nothing was recorded: ${problems.length} problems; ${shown.map((s) => s.en).join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
  });
}

/** Records a guardian's consent for each member marked yes who has none yet; answers how many were recorded. */
async function recordSheet(tx: DbOrTx, ctx: Ctx, t: { teamid: string; musercode: string; name: string }, rows: SheetRow[]): Promise<number> {
  const yes = rows.filter((r) => r.yes);
  if (!yes.length) return 0;
  // Two uploads of one class at once record each consent once.
  await tx.execute(sql`select pg_advisory_xact_lock(31, hashtext(${t.teamid}))`);
  // A guardian's consent of the person's latest round (one before a renewal is asked again).
  const standings = await consentStandings(tx, t.musercode, yes.map((r) => r.member.cusercode), ctx.now());
  const have = new Set([...standings].filter(([, st]) => st.guardian).map(([c]) => c));
  const fresh = yes.filter((r) => !have.has(r.member.cusercode));
  const by = ctx.me.userid ?? ctx.me.musercode;
  for (let i = 0; i < fresh.length; i += 500)
    await tx.insert(consentRecord).values(
      fresh.slice(i, i + 500).map((r) => ({
        consentid: newId('CN'),
        musercode: t.musercode,
        cusercode: r.member.cusercode,
        kind: 'guardian',
        via: 'sheet',
        guardianname: r.guardianname || null,
        teamid: t.teamid,
        teamname: t.name,
        recordedby: by,
        at: ctx.now(),
      })),
    );
  return fresh.length;
}

export const sheetHandlers = {
  'as.m.consent.getConsentSheet': async ({ teamid }, ctx) => {
    const t = await teamInScope(ctx, ctx.db, teamid);
    const members = await membersOf(ctx.db, teamid);
    await ctx.audit({ musercode: t.musercode, result: 'ok', detail: { teamid, rows: members.length } });
    const name = teamName(t);
    return { filename: `${name}-监护人同意 Consent.xlsx`, contentType: XLSX_TYPE, body: await sheetOf(name, members) };
  },

  'as.m.consent.importConsentSheet': async (input, ctx) => {
    const { teamid, filename } = input;
    const t = await teamInScope(ctx, ctx.db, teamid);
    const bytes = await base64Bytes(input, 'content');
    const read = await readSheet(bytes, await membersOf(ctx.db, teamid), ctx.lang);
    if (read.problems.length) {
      await ctx.audit({ musercode: t.musercode, result: 'fail', detail: { teamid, filename, total: read.total, problems: read.problems.length } });
      return refuse(read.problems);
    }
    const recorded = await ctx.db.transaction((tx) => recordSheet(tx, ctx, { teamid, musercode: t.musercode, name: teamName(t) }, read.rows));
    const consented = read.rows.filter((r) => r.yes).length;
    const counts = { total: read.total, consented, recorded, notconsented: read.rows.length - consented };
    await ctx.audit({ musercode: t.musercode, result: 'ok', detail: { teamid, filename, ...counts } });
    return counts;
  },
} satisfies HandlerMap;
