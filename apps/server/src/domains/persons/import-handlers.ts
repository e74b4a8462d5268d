/**
 * The three roster imports (ZLB older adults, ZNB maternity, ZAB working adults) and their
 * templates. The file streams through the guarded reader in batches, so 50,000 rows never sit in
 * memory as a workbook. preview checks every row and stores nothing; commit stores in ONE
 * transaction, so a refusal, a crash or a kill -9 part-way leaves nothing behind.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { importTemplates, populationApps, type ImportProblem, type ImportTemplate, type Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { newId } from '../../kit/index.js';
import { ownerAccount } from '../accounts/index.js';
import { streamSheetRows, UploadRefused } from '../../kit/upload/reader.js';
import { archiveFormOf } from '../scales/index.js';
import { assertAppOfInstitution } from './persons.js';
import { idCardHash, phoneHash, sealArchive } from './identity.js';
import { seal } from '../../kit/crypt/index.js';
import { buildRosterTemplate, checkRosterRow, mapHeader, problemsWorkbook, problemText, ROSTER_SHEET, rosterColumns, type RosterPerson } from './roster.js';
import { cuser } from './tables.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Problems listed in an answer; the count covers them all. */
export const MAX_LISTED_PROBLEMS = 10_000;
/** Rows per insert statement. */
const INSERT_BATCH = 500;

const population = (appid: string) => populationApps.find((p) => p.appid === appid)!;

export interface ImportOutcome {
  total: number;
  imported: number;
  problems: ImportProblem[];
  problemcount: number;
  importid: string | null;
}

/**
 * Reads a roster file and, when `store` is set, inserts its people inside `db` (a transaction).
 * Every row is checked whatever happens; inserting stops at the first problem (the caller then
 * rolls the transaction back).
 */
export async function runRosterImport(
  db: DbOrTx,
  opts: { musercode: string; appid: string; bytes: Uint8Array; lang: Lang; now: Date; store: boolean; onBatch?: (rowsDone: number) => Promise<void> | void },
): Promise<ImportOutcome> {
  const form = await archiveFormOf(db, opts.musercode, opts.appid);
  const columns = rosterColumns(form?.definition ?? null);
  const problems: ImportProblem[] = [];
  let problemcount = 0;
  const note = (row: number, column: string, reason: string) => {
    problemcount++;
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push({ row, column, reason });
  };
  const seenIds = new Map<string, number>();
  const importid = opts.store ? newId('IM') : null;
  let header: ReturnType<typeof mapHeader> | null = null;
  let total = 0;
  let imported = 0;

  for await (const batch of streamSheetRows(opts.bytes, { sheets: { name: ROSTER_SHEET, orFirst: true }, batchRows: 1000 })) {
    const good: { row: number; person: RosterPerson }[] = [];
    for (const { r, cells } of batch.rows) {
      if (!header) {
        header = mapHeader(cells, columns);
        for (const c of header.missing) note(r, c.title, opts.lang === 'en-US' ? 'required column missing from the header' : '表头缺少必填列');
        continue;
      }
      if (!cells.some((c) => c !== null && String(c).trim() !== '')) continue;
      total++;
      // Without its required columns the file is not this roster: one problem per column is enough.
      if (header.missing.length) continue;
      const checked = checkRosterRow(cells, columns, header.at);
      for (const p of checked.problems) note(r, p.column, problemText(p, opts.lang));
      if (!checked.person) continue;
      const id = checked.person.idcard;
      if (id) {
        const first = seenIds.get(id);
        if (first !== undefined) {
          note(r, columns.find((c) => c.key === 'idcard')!.title, opts.lang === 'en-US' ? `the same ID number as row ${first}` : `与第${first}行身份证号重复`);
          continue;
        }
        seenIds.set(id, r);
      }
      good.push({ row: r, person: checked.person });
    }
    // ID numbers already held by a living person of the institution.
    // Looked up by blind index: the stored numbers are sealed.
    const hashes = new Map(good.filter((g) => g.person.idcard).map((g) => [idCardHash(g.person.idcard!), g.person.idcard!]));
    if (hashes.size) {
      const taken = new Set(
        (
          await db
            .select({ idcardhash: cuser.idcardhash })
            .from(cuser)
            .where(and(eq(cuser.musercode, opts.musercode), inArray(cuser.idcardhash, [...hashes.keys()]), isNull(cuser.deletedat)))
        ).map((x) => hashes.get(x.idcardhash!)),
      );
      for (const g of good.filter((g) => g.person.idcard && taken.has(g.person.idcard)))
        note(g.row, columns.find((c) => c.key === 'idcard')!.title, opts.lang === 'en-US' ? 'a person with this ID number already exists' : '该身份证号的测评对象已存在');
      if (taken.size) good.splice(0, good.length, ...good.filter((g) => !g.person.idcard || !taken.has(g.person.idcard)));
    }
    if (opts.store && problemcount === 0) {
      for (let i = 0; i < good.length; i += INSERT_BATCH) {
        const values = good.slice(i, i + INSERT_BATCH).map(({ person }) => ({
          cusercode: newId('C'),
          ...person,
          phonenumber: seal(person.phonenumber),
          phonehash: person.phonenumber ? phoneHash(person.phonenumber) : null,
          idcard: seal(person.idcard),
          idcardhash: person.idcard ? idCardHash(person.idcard) : null,
          archive: sealArchive(person.archive),
          archiveformcode: person.archive.length ? (form?.formcode ?? null) : null,
          archiveversion: person.archive.length ? (form?.version ?? null) : null,
        }));
        await insertRosterRows(db, values, { musercode: opts.musercode, appid: opts.appid, importid: importid!, now: opts.now });
        imported += values.length;
      }
    }
    await opts.onBatch?.(total);
  }
  if (!header) note(1, '', opts.lang === 'en-US' ? 'the file has no header row' : '文件没有表头行');
  return { total, imported: problemcount ? 0 : opts.store ? imported : total, problems, problemcount, importid };
}

/**
 * Inserts one batch of imported persons. Written as SQL over one JSON parameter rather than the
 * query builder's multi-row VALUES: 500 rows × 15 columns as bind parameters cost PGlite (WASM)
 * several times more to parse and bind than one jsonb value, and a 50,000-row roster is 100 of
 * these. The column list is the cuser table's (tables.ts); the table's checks and unique index apply.
 */
async function insertRosterRows(
  db: DbOrTx,
  rows: (RosterPerson & { cusercode: string; phonehash: string | null; idcardhash: string | null; archiveformcode: string | null; archiveversion: number | null })[],
  fixed: { musercode: string; appid: string; importid: string; now: Date },
) {
  await db.execute(sql`
    insert into cuser (cusercode, musercode, appid, realname, gender, birthdate, phonenumber, phonehash, idcard, idcardhash, archive, archiveformcode, archiveversion, source, importid, createdat, updatedat)
    select x.cusercode, ${fixed.musercode}, ${fixed.appid}, x.realname, x.gender, x.birthdate, x.phonenumber, x.phonehash, x.idcard, x.idcardhash, x.archive, x.archiveformcode, x.archiveversion,
           'import', ${fixed.importid}, ${fixed.now.toISOString()}::timestamptz, ${fixed.now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(cusercode text, realname text, gender text, birthdate date, phonenumber text, phonehash text, idcard text, idcardhash text, archive jsonb, archiveformcode text, archiveversion int)`);
}

/** A refused commit: badImportFile naming the first problems; the console offers them as a file. */
function refuseImport(outcome: ImportOutcome): never {
  const shown = outcome.problems.slice(0, 20);
  const line = (p: ImportProblem) => `row ${p.row}${p.column ? ` ${p.column}` : ''}: ${p.reason}`;
  const lineZh = (p: ImportProblem) => `第${p.row}行${p.column ? `「${p.column}」` : ''}：${p.reason}`;
  const more = outcome.problemcount - shown.length;
  return fail('badImportFile', {
    zh: `导入失败，未导入任何人：共 ${outcome.problemcount} 处错误；${shown.map(lineZh).join('；')}${more > 0 ? `；另有 ${more} 处，请先预览查看全部` : ''}`,
    en: `Nothing imported: ${outcome.problemcount} problems; ${shown.map(line).join('; ')}${more > 0 ? `; and ${more} more: preview to see them all` : ''}`,
  });
}

const decode = (content: string): Uint8Array => Buffer.from(content, 'base64');

function importHandler(template: ImportTemplate) {
  const appid = importTemplates[template];
  const name = `as.m.cuser.import${template}CUserFromExcel` as const;
  return async ({ musercode, mode, filename, content }: { musercode?: string; mode: 'preview' | 'commit'; filename: string; content: string }, ctx: Ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    await assertAppOfInstitution(ctx.db, owner.musercode, appid);
    const bytes = decode(content);
    const base = { musercode: owner.musercode, appid, bytes, lang: ctx.lang, now: ctx.now() };
    if (mode === 'preview') {
      const outcome = await runRosterImport(ctx.db, { ...base, store: false });
      await ctx.audit({ action: name, result: 'ok', detail: { mode, filename, target: owner.musercode, total: outcome.total, problems: outcome.problemcount } });
      const errorfile = outcome.problemcount ? (await problemsWorkbook(outcome.problems, ctx.lang)).toString('base64') : '';
      return { mode, total: outcome.total, imported: outcome.imported, problems: outcome.problems, problemcount: outcome.problemcount, errorfile };
    }
    let done: ImportOutcome;
    try {
      done = await commitRoster(ctx.db, base);
    } catch (e) {
      if (!(e instanceof UploadRefused)) await ctx.audit({ action: name, result: 'fail', detail: { mode, filename, target: owner.musercode } });
      throw e;
    }
    if (done.problemcount) {
      await ctx.audit({ action: name, result: 'fail', detail: { mode, filename, target: owner.musercode, total: done.total, problems: done.problemcount } });
      refuseImport(done);
    }
    await ctx.audit({ action: name, result: 'ok', detail: { mode, filename, target: owner.musercode, importid: done.importid, imported: done.imported } });
    return { mode, total: done.total, imported: done.imported, problems: [], problemcount: 0, errorfile: '' };
  };
}

class ImportRolledBack extends Error {}

export const importHandlers = {
  'as.m.cuser.getCUserImportTemplate': async ({ template }, ctx) => {
    const appid = importTemplates[template];
    const form = await archiveFormOf(ctx.db, ctx.me.musercode, appid);
    const pop = population(appid);
    return { filename: `${pop.zh}导入模板-${template}.xlsx`, contentType: XLSX, body: await buildRosterTemplate(form?.definition ?? null, pop) };
  },
  'as.m.cuser.importZLBCUserFromExcel': importHandler('ZLB'),
  'as.m.cuser.importZNBCUserFromExcel': importHandler('ZNB'),
  'as.m.cuser.importZABCUserFromExcel': importHandler('ZAB'),
} satisfies HandlerMap;

/**
 * A commit import inside one transaction of `db`: any problem rolls back every row written so
 * far (all or nothing). Used by the handlers, the bench and the kill -9 test.
 */
export async function commitRoster(db: DbOrTx, opts: Omit<Parameters<typeof runRosterImport>[1], 'store'>): Promise<ImportOutcome> {
  let outcome: ImportOutcome | null = null;
  try {
    await db.transaction(async (tx) => {
      outcome = await runRosterImport(tx, { ...opts, store: true });
      if (outcome.problemcount) throw new ImportRolledBack();
    });
  } catch (e) {
    if (!(e instanceof ImportRolledBack)) throw e;
  }
  return outcome!;
}
