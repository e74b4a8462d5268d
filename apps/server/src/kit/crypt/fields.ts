/**
 * The columns each domain keeps sealed (kit/crypt), and the two batch steps over them:
 * - sealPending: encrypts what is still plain text (a database upgraded from before issue 30, or
 *   rows written by plain SQL); run at every start before the server answers, so a fresh install
 *   and an upgraded database both end fully encrypted.
 * - resealAll: re-encrypts under the current key what an older key sealed (`npm run data-key:rotate`),
 *   while the server runs.
 * Both work in batches by primary key, and write a row only if it still holds what was read
 * (compare-and-set), so a concurrent edit by the running server is never overwritten.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { blindIndex, currentKey, isSealed, open, seal, sealedKeyId } from './crypt.js';

/** A text column holding a sealed value, with the column of its blind index if it is searched. */
export interface SealedColumn {
  kind: 'text';
  table: string;
  key: string;
  column: string;
  hash?: string;
  /** What the blind index is computed over (the same normalisation the writers use). */
  normalise?: (plain: string) => string;
}

/** A jsonb array of answers whose free text (`text`, or a string `value`) is kept sealed as `sealed` (sealAnswers). */
export interface SealedAnswers {
  kind: 'answers';
  table: string;
  /** The primary key's column(s). */
  key: string | string[];
  column: string;
  /** Which member holds the free text: `text` (reports) or a string `value` (archive answers). */
  field?: AnswerField;
}

export type SealedField = SealedColumn | SealedAnswers;

const BATCH = 500;
const SEALED_SHAPE = '^v1\\.[A-Za-z0-9_-]{8}\\.';

/** A stored answer: its free text sealed (the rest as given). */
type StoredAnswer = { sealed?: string } & Record<string, unknown>;
export type AnswerField = 'text' | 'value';

/** Answers as stored: each free text (a non-empty string in `field`) moved, sealed, to `sealed`. */
export function sealAnswers<T>(answers: T[], field: AnswerField = 'text'): T[] {
  return answers.map((a) => {
    const { [field]: text, ...rest } = a as StoredAnswer;
    return (typeof text === 'string' && text !== '' ? { ...rest, sealed: seal(text) } : a) as T;
  });
}

/** Answers as given: each `sealed` opened back to `field` (a value that does not open refuses the read). */
export function openAnswers<T>(answers: T[], field: AnswerField = 'text'): T[] {
  return answers.map((a) => {
    const { sealed, ...rest } = a as StoredAnswer;
    return (typeof sealed === 'string' ? { ...rest, [field]: open(sealed) } : a) as T;
  });
}

const ident = (name: string) => sql.identifier(name);
const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** Rows of one field that need work: plain (`pending`) or sealed under an older key (`stale`). */
function needsWork(f: SealedField, mode: 'pending' | 'stale') {
  const col = ident(f.column);
  const prefix = `v1.${currentKey().id}.`;
  if (f.kind === 'text') {
    return mode === 'pending'
      ? sql`${col} is not null and ${col} <> '' and ${col} !~ ${SEALED_SHAPE}`
      : sql`${col} ~ ${SEALED_SHAPE} and left(${col}, ${prefix.length}) <> ${prefix}`;
  }
  return mode === 'pending'
    ? sql`jsonb_typeof(${col}) = 'array' and jsonb_path_exists(${col}, ${`$[*].${f.field ?? 'text'} ? (@.type() == "string" && @ != "")`}::jsonpath)`
    : sql`jsonb_typeof(${col}) = 'array' and jsonb_path_exists(${col}, '$[*].sealed ? (!(@ starts with $p))', jsonb_build_object('p', ${prefix}::text))`;
}

/** The new stored value(s) of one row. */
function rework(f: SealedField, value: unknown): { v: unknown; h?: string | null } {
  if (f.kind === 'answers') return { v: sealAnswers(openAnswers(value as StoredAnswer[], f.field), f.field) };
  const text = value as string;
  const plain = isSealed(text) ? open(text) : text;
  const v = isSealed(text) && sealedKeyId(text) === currentKey().id ? text : seal(plain);
  return { v, h: f.hash && plain ? blindIndex(f.normalise ? f.normalise(plain) : plain) : null };
}

/** Batch size, and what to do after each batch (the rotation command prints progress; tests read mid-rotation). */
export interface SweepOptions {
  batch?: number;
  onBatch?: (field: string, rows: number) => Promise<void> | void;
}

/** Runs one field to the end in batches; answers how many rows it rewrote. */
async function sweep(db: DbOrTx, f: SealedField, mode: 'pending' | 'stale', opts: SweepOptions = {}): Promise<number> {
  const size = opts.batch ?? BATCH;
  const keyCols = (Array.isArray(f.key) ? f.key : [f.key]).map(ident);
  // One text per row, whatever the key's columns: what the batches walk by.
  const key = keyCols.length === 1 ? sql`${keyCols[0]}::text` : sql`concat_ws('/', ${sql.join(keyCols, sql`, `)})`;
  const tkey = keyCols.length === 1 ? sql`t.${keyCols[0]}::text` : sql`concat_ws('/', ${sql.join(keyCols.map((c) => sql`t.${c}`), sql`, `)})`;
  const col = ident(f.column);
  let after = '';
  let done = 0;
  for (;;) {
    const rows = await rowsOf<{ k: string; v: unknown }>(
      db,
      sql`select ${key} as k, ${col} as v from ${ident(f.table)} where ${key} > ${after} and ${needsWork(f, mode)} order by ${key} limit ${size}`,
    );
    if (!rows.length) return done;
    after = rows[rows.length - 1]!.k;
    const out = rows.map((r) => ({ k: r.k, old: r.v, ...rework(f, r.v) }));
    const hashSet = f.kind === 'text' && f.hash ? sql`, ${ident(f.hash)} = x.h` : sql``;
    const type = f.kind === 'text' ? sql`text` : sql`jsonb`;
    const written = await rowsOf(
      db,
      sql`update ${ident(f.table)} t set ${col} = x.v${hashSet}
        from jsonb_to_recordset(${JSON.stringify(out)}::jsonb) as x(k text, old ${type}, v ${type}, h text)
        where ${tkey} = x.k and t.${col} = x.old returning 1`,
    );
    done += written.length;
    await opts.onBatch?.(`${f.table}.${f.column}`, written.length);
  }
}

/** Encrypts every plain value of the fields; answers rows rewritten per table.column. */
export async function sealPending(db: DbOrTx, fields: SealedField[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const f of fields) out[`${f.table}.${f.column}`] = await sweep(db, f, 'pending');
  return out;
}

/** Re-encrypts under the current key every value an older key sealed; answers rows rewritten per table.column. */
export async function resealAll(db: DbOrTx, fields: SealedField[], opts: SweepOptions = {}): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const f of fields) out[`${f.table}.${f.column}`] = await sweep(db, f, 'stale', opts);
  return out;
}

/** How many values of the fields are still plain or under an older key (0 when a rotation is done). */
export async function countUnsealed(db: DbOrTx, fields: SealedField[]): Promise<number> {
  let n = 0;
  for (const f of fields) {
    const [r] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from ${ident(f.table)} where (${needsWork(f, 'pending')}) or (${needsWork(f, 'stale')})`);
    n += Number(r?.n ?? 0);
  }
  return n;
}
