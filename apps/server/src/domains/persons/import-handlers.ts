/**
 * The three roster imports (ZLB older adults, ZNB maternity, ZAB working adults) and their
 * templates. The file streams through the guarded reader in batches, so 50,000 rows never sit in
 * memory as a workbook. preview checks every row and stores nothing; commit stores in ONE
 * transaction, so a refusal, a crash or a kill -9 part-way leaves nothing behind. A preview's
 * checked and sealed rows are kept a short while (import-cache.ts), so the commit that follows
 * stores them without reading the file again; the commit still asks the database, inside its
 * transaction, which ID numbers persons hold, and the table's unique index has the last word.
 */
import { sql, type SQL } from 'drizzle-orm';
import { importTemplates, populationApps, type ImportProblem, type ImportTemplate, type Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { newId, newIds } from '../../kit/index.js';
import { ownerAccount } from '../accounts/index.js';
import { streamSheetRows, UploadRefused } from '../../kit/upload/reader.js';
import { archiveFormOf } from '../scales/index.js';
import { assertAppOfInstitution } from './persons.js';
import { idCardHash, phoneHash, sealArchive } from './identity.js';
import { seal } from '../../kit/crypt/index.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { buildRosterTemplate, checkRosterRow, mapHeader, problemsWorkbook, problemText, ROSTER_SHEET, rosterColumns, type RosterPerson } from './roster.js';
import { PreviewCache, previewKey } from './import-cache.js';
import { textArray, TextArrayWriter } from './import-literal.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Problems listed in an answer; the count covers them all. */
export const MAX_LISTED_PROBLEMS = 10_000;
/** Rows per insert statement (and per chunk a preview keeps). */
const CHUNK_ROWS = 5000;
/**
 * Rows per batch from the reader. Small, so a batch is mostly checked and gone before the young
 * generation is collected twice: with 1,000-row batches a 50,000-row preview moved 21 MiB to the
 * old generation (where it stays as garbage until a full collection), with 200 12 MiB (issue 33 §2).
 */
const READ_BATCH_ROWS = 200;

const population = (appid: string) => populationApps.find((p) => p.appid === appid)!;

export interface ImportOutcome {
  total: number;
  imported: number;
  problems: ImportProblem[];
  problemcount: number;
  importid: string | null;
}

export interface RosterImportOptions {
  musercode: string;
  appid: string;
  bytes: Uint8Array;
  lang: Lang;
  now: Date;
  /** Who imports (their preview is theirs alone); part of the preview cache's key. */
  caller?: string;
  /** Called after each insert statement of a commit with the rows stored so far (the kill -9 test). */
  onBatch?: (rowsStored: number) => Promise<void> | void;
  /** Rows per insert statement; tests make it small to see a refusal after rows were written. */
  chunkRows?: number;
}

/**
 * The columns of a chunk's rows as stored (sealed, with blind indexes, the archive as JSON), each
 * written as a text[] literal while the chunk fills: realname, gender, birthdate, phonenumber,
 * phonehash, idcard, archive. One set per file read, taken at each chunk's end.
 */
const STAGED_COLUMNS = 7;
const stagedColumns = () => Array.from({ length: STAGED_COLUMNS }, () => new TextArrayWriter());

/** Up to CHUNK_ROWS good rows of a file, in file order. */
interface StagedChunk {
  /** Sheet row numbers, to name a row whose ID number a person already holds. */
  rows: number[];
  /** Blind index of each row's ID number (null: none). */
  idhash: (string | null)[];
  /** Whether the rows are sealed into the column writers while the chunk fills; false once the file has a problem (nothing of it will be stored). */
  sealing: boolean;
  /**
   * The filled chunk ready to insert: the text[] literal of each staged column, as UTF-8 bytes
   * (outside the JS heap; the idcardhash literal is made from `idhash` when inserting). Seven
   * buffers instead of 35,000 strings keep a cached preview small.
   */
  ready: Buffer[] | null;
}

/** What the file itself decides: its rows checked and sealed, and its own problems. */
interface CheckedRoster {
  total: number;
  problems: ImportProblem[];
  problemcount: number;
  chunks: StagedChunk[];
}

/** Files read and checked (not served from the preview cache): tests count them. */
export const rosterReads = { count: 0 };
/** Previews kept for the commit that follows (import-cache.ts). */
export const previewCache = new PreviewCache<CheckedRoster>();

/**
 * Reads and checks a roster file. Every row is checked whatever happens; good rows are sealed
 * into chunks, each handed to `onChunk` as it fills (a commit stores it; a preview asks which ID
 * numbers are taken). With `keep`, the chunks stay in the answer (for the preview cache) as long
 * as the file has no problem; without, only their row numbers and hashes do.
 */
async function checkRoster(
  opts: RosterImportOptions,
  form: Awaited<ReturnType<typeof archiveFormOf>>,
  keep: boolean,
  onChunk: (chunk: StagedChunk, fileHasProblems: boolean) => Promise<void>,
): Promise<CheckedRoster> {
  rosterReads.count++;
  const columns = rosterColumns(form?.definition ?? null);
  const idTitle = columns.find((c) => c.key === 'idcard')!.title;
  const out: CheckedRoster = { total: 0, problems: [], problemcount: 0, chunks: [] };
  const note = (row: number, column: string, reason: string) => {
    if (out.problemcount++ === 0) {
      // Nothing will be stored: the chunks' literals go, and no more rows are sealed.
      for (const c of [...out.chunks, chunk]) {
        c.sealing = false;
        c.ready = null;
      }
    }
    if (out.problems.length < MAX_LISTED_PROBLEMS) out.problems.push({ row, column, reason });
  };
  const seenIds = new Map<string, number>();
  const chunkRows = opts.chunkRows ?? CHUNK_ROWS;
  const writers = stagedColumns();
  let chunk = newChunk(!out.problemcount);
  const flush = async () => {
    if (!chunk.rows.length) return;
    chunk.ready = chunk.sealing && !out.problemcount ? writers.map((w) => w.take()) : null;
    for (const w of writers) w.reset();
    chunk.sealing = false;
    if (keep) out.chunks.push(chunk);
    await onChunk(chunk, out.problemcount > 0);
    chunk = newChunk(!out.problemcount);
  };
  let header: ReturnType<typeof mapHeader> | null = null;
  for await (const batch of streamSheetRows(opts.bytes, { sheets: { name: ROSTER_SHEET, orFirst: true }, batchRows: READ_BATCH_ROWS })) {
    for (const { r, cells } of batch.rows) {
      if (!header) {
        header = mapHeader(cells, columns);
        for (const c of header.missing) note(r, c.title, opts.lang === 'en-US' ? 'required column missing from the header' : '表头缺少必填列');
        continue;
      }
      if (!cells.some((c) => c !== null && String(c).trim() !== '')) continue;
      out.total++;
      // Without its required columns the file is not this roster: one problem per column is enough.
      if (header.missing.length) continue;
      const checked = checkRosterRow(cells, columns, header.at);
      for (const p of checked.problems) note(r, p.column, problemText(p, opts.lang));
      if (!checked.person) continue;
      const id = checked.person.idcard;
      if (id) {
        const first = seenIds.get(id);
        if (first !== undefined) {
          note(r, idTitle, opts.lang === 'en-US' ? `the same ID number as row ${first}` : `与第${first}行身份证号重复`);
          continue;
        }
        seenIds.set(id, r);
      }
      stage(chunk, writers, r, checked.person, out.problemcount > 0);
      if (chunk.rows.length >= chunkRows) await flush();
    }
  }
  await flush();
  if (!header) note(1, '', opts.lang === 'en-US' ? 'the file has no header row' : '文件没有表头行');
  return out;
}

const newChunk = (sealing: boolean): StagedChunk => ({ rows: [], idhash: [], sealing, ready: null });

/** Adds one good row to a chunk: sealed into the column writers unless the file already has a problem. */
function stage(chunk: StagedChunk, writers: TextArrayWriter[], row: number, person: RosterPerson, fileHasProblems: boolean) {
  chunk.rows.push(row);
  chunk.idhash.push(person.idcard ? idCardHash(person.idcard) : null);
  if (!chunk.sealing || fileHasProblems) return;
  // In the order of the staged columns (insertChunk reads them so).
  const values = [
    person.realname,
    person.gender,
    person.birthdate,
    seal(person.phonenumber),
    person.phonenumber ? phoneHash(person.phonenumber) : null,
    seal(person.idcard),
    JSON.stringify(sealArchive(person.archive)),
  ];
  values.forEach((v, i) => writers[i]!.add(v));
}

/** About how much memory a checked roster holds (its literals' bytes, plus a little a row for its row numbers and hashes). */
function sizeOf(checked: CheckedRoster): number {
  let n = checked.problems.length * 200;
  for (const c of checked.chunks) {
    n += c.rows.length * 80;
    for (const col of c.ready ?? []) n += col.length;
  }
  return n;
}

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The rows of a chunk whose ID number a living person of the institution holds (other than `importid`'s). */
async function takenRows(db: DbOrTx, musercode: string, chunk: StagedChunk, importid: string | null): Promise<number[]> {
  const hashes = chunk.idhash.filter((h): h is string => h !== null);
  if (!hashes.length) return [];
  const held = await rowsOf<{ idcardhash: string }>(db, sql`
    select idcardhash from cuser
    where musercode = ${musercode} and deletedat is null and idcardhash = any(${sql.param(hashes)}::text[])
      ${importid ? sql`and importid is distinct from ${importid}` : sql``}`);
  const taken = new Set(held.map((x) => x.idcardhash));
  return taken.size ? chunk.rows.filter((_, i) => taken.has(chunk.idhash[i]!)) : [];
}

/**
 * Inserts a chunk with one statement (unnest over one array per column: a handful of bind
 * parameters however many rows, cheap to parse on PGlite too). The table's unique index has the
 * last word on ID numbers: a row whose number a person holds now (stored since the check, or by a
 * concurrent import) is left out by ON CONFLICT, and the count returned shows it.
 */
async function insertChunk(db: DbOrTx, chunk: StagedChunk, fixed: { musercode: string; appid: string; importid: string; now: Date; form: { formcode: string; version: number } | null }): Promise<number> {
  const [realname, gender, birthdate, phonenumber, phonehash, idcard, archive] = chunk.ready!.map((b) => b.toString('utf8'));
  const idcardhash = textArray(chunk.idhash);
  const at = fixed.now.toISOString();
  const [stored] = await rowsOf<{ n: number }>(db, sql`
    with stored as (
      insert into cuser (cusercode, musercode, appid, realname, gender, birthdate, phonenumber, phonehash, idcard, idcardhash, archive, archiveformcode, archiveversion, source, importid, createdat, updatedat)
      select x.cusercode, ${fixed.musercode}, ${fixed.appid}, x.realname, x.gender, x.birthdate::date, x.phonenumber, x.phonehash, x.idcard, x.idcardhash, x.archive::jsonb,
             case when x.archive <> '[]' then ${fixed.form?.formcode ?? null}::text end, case when x.archive <> '[]' then ${fixed.form?.version ?? null}::int end,
             'import', ${fixed.importid}, ${at}::timestamptz, ${at}::timestamptz
      from unnest(${textArray(newIds('C', chunk.rows.length))}::text[], ${realname}::text[], ${gender}::text[], ${birthdate}::text[], ${phonenumber}::text[],
                  ${phonehash}::text[], ${idcard}::text[], ${idcardhash}::text[], ${archive}::text[])
           as x(cusercode, realname, gender, birthdate, phonenumber, phonehash, idcard, idcardhash, archive)
      on conflict (musercode, idcardhash) where idcardhash is not null and deletedat is null do nothing
      returning 1)
    select count(*)::int as n from stored`);
  return Number(stored!.n);
}

/** Problems of the file and ID numbers found taken, in row order, the first MAX_LISTED_PROBLEMS listed. */
function outcomeOf(checked: CheckedRoster, taken: number[], lang: Lang, idTitle: string, stored: { imported: number; importid: string | null } | null): ImportOutcome {
  const reason = lang === 'en-US' ? 'a person with this ID number already exists' : '该身份证号的测评对象已存在';
  const problems = [...checked.problems, ...taken.map((row) => ({ row, column: idTitle, reason }))].sort((a, b) => a.row - b.row).slice(0, MAX_LISTED_PROBLEMS);
  const problemcount = checked.problemcount + taken.length;
  const imported = problemcount ? 0 : stored ? stored.imported : checked.total;
  return { total: checked.total, imported, problems, problemcount, importid: stored?.importid ?? null };
}

const idTitleOf = (form: Awaited<ReturnType<typeof archiveFormOf>>) => rosterColumns(form?.definition ?? null).find((c) => c.key === 'idcard')!.title;

function keyOf(opts: RosterImportOptions, form: Awaited<ReturnType<typeof archiveFormOf>>) {
  return previewKey(opts.bytes, [opts.caller ?? '', opts.musercode, opts.appid, form?.formcode ?? null, form?.version ?? null, opts.lang, opts.chunkRows ?? CHUNK_ROWS]);
}

/**
 * A preview: every problem of the file, and the ID numbers persons already hold; stores nothing.
 * The checked file is kept (import-cache.ts) for the commit that follows.
 */
export async function previewRoster(db: DbOrTx, opts: RosterImportOptions): Promise<ImportOutcome> {
  const form = await archiveFormOf(db, opts.musercode, opts.appid);
  const key = keyOf(opts, form);
  const taken: number[] = [];
  const ask = async (chunk: StagedChunk) => void taken.push(...(await takenRows(db, opts.musercode, chunk, null)));
  let checked = previewCache.get(key, opts.now);
  if (checked) for (const chunk of checked.chunks) await ask(chunk);
  else {
    checked = await checkRoster(opts, form, true, ask);
    previewCache.set(key, checked, sizeOf(checked), opts.now);
  }
  return outcomeOf(checked, taken, opts.lang, idTitleOf(form), null);
}

class ImportRolledBack extends Error {}

/**
 * A commit import inside one transaction of `db`: any problem rolls back every row written so
 * far (all or nothing). After its own preview it stores the rows that preview checked and sealed;
 * else it reads the file, storing each chunk as it is checked. Used by the handlers, the bench and
 * the kill -9 test.
 */
export async function commitRoster(db: DbOrTx, opts: RosterImportOptions): Promise<ImportOutcome> {
  const form = await archiveFormOf(db, opts.musercode, opts.appid);
  const key = keyOf(opts, form);
  const cached = previewCache.get(key, opts.now);
  let outcome: ImportOutcome | null = null;
  try {
    await db.transaction(async (tx) => {
      const importid = newId('IM');
      const fixed = { musercode: opts.musercode, appid: opts.appid, importid, now: opts.now, form };
      const taken: number[] = [];
      let imported = 0;
      const store = async (chunk: StagedChunk, fileHasProblems: boolean) => {
        if (fileHasProblems || taken.length || !chunk.ready) {
          taken.push(...(await takenRows(tx, opts.musercode, chunk, null)));
          return;
        }
        const n = await insertChunk(tx, chunk, fixed);
        imported += n;
        if (n < chunk.rows.length) taken.push(...(await takenRows(tx, opts.musercode, chunk, importid)));
        else await opts.onBatch?.(imported);
      };
      let checked = cached;
      if (checked) for (const chunk of checked.chunks) await store(chunk, checked.problemcount > 0);
      else checked = await checkRoster(opts, form, false, store);
      outcome = outcomeOf(checked, taken, opts.lang, idTitleOf(form), { imported, importid });
      if (outcome.problemcount) throw new ImportRolledBack();
    });
  } catch (e) {
    if (!(e instanceof ImportRolledBack)) throw e;
  }
  if (!outcome!.problemcount) previewCache.delete(key);
  return outcome!;
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

function importHandler(template: ImportTemplate) {
  const appid = importTemplates[template];
  const name = `as.m.cuser.import${template}CUserFromExcel` as const;
  return async (input: { musercode?: string; mode: 'preview' | 'commit'; filename: string; content: string }, ctx: Ctx) => {
    const { musercode, mode, filename } = input;
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    await assertAppOfInstitution(ctx.db, owner.musercode, appid);
    const bytes = await base64Bytes(input, 'content');
    const caller = [ctx.me.musercode, ctx.me.userid, ctx.me.actor, ctx.me.actoruserid].join('/');
    const base = { musercode: owner.musercode, appid, bytes, lang: ctx.lang, now: ctx.now(), caller };
    if (mode === 'preview') {
      const outcome = await previewRoster(ctx.db, base);
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
