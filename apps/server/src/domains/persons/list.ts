/**
 * The person list query, shared by the person list, the archive list and the export: the same
 * filters, the same scope, the same masking.
 */
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { denied } from '../../http/errors.js';
import { PERSON_IDENTITY_CODE, populationApps, type CuserRow, type Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { CALENDAR_TIME_ZONE, contains, containsPattern, iso, maskIdCard, maskPhone, pageThrough, statementsByShape, totalColumn, type PageInput, type Paged } from '../../kit/index.js';
import { insnameOf, ownedBy } from '../accounts/index.js';
import { assertInScope, holds } from '../auth/index.js';
import { idCardHash, openIdentity, phoneHash } from './identity.js';
import { personName, type PersonRecord } from './persons.js';
import { cuser } from './tables.js';

export interface PersonFilters {
  musercode?: string;
  appid?: string;
  realname?: string;
  gender?: string;
  phonenumber?: string;
  idcard?: string;
  startdate?: string;
  enddate?: string;
}

const createdDay = sql`(${cuser.createdat} at time zone ${sql.raw(`'${CALENDAR_TIME_ZONE}'`)})::date`;

/** The where clause of a person list: living persons in scope, filtered. */
export function personWhere(ctx: Ctx, f: PersonFilters): SQL {
  return and(
    isNull(cuser.deletedat),
    ownedBy(ctx, cuser.musercode, f.musercode),
    f.appid ? eq(cuser.appid, f.appid) : undefined,
    contains(cuser.realname, f.realname),
    f.gender ? eq(cuser.gender, f.gender) : undefined,
    // Exact matches through the blind indexes: a sealed number cannot be searched by part.
    f.phonenumber ? eq(cuser.phonehash, phoneHash(f.phonenumber)) : undefined,
    f.idcard ? eq(cuser.idcardhash, idCardHash(f.idcard)) : undefined,
    f.startdate ? sql`${createdDay} >= ${f.startdate}::date` : undefined,
    f.enddate ? sql`${createdDay} <= ${f.enddate}::date` : undefined,
  )!;
}

/**
 * The listed person of a person list that another domain pages with its own columns beside the
 * person's (personListWith): the code named with its table, for correlated subqueries. drizzle
 * writes a one-table select's own columns without the table name, so `${cuser.cusercode}` inside a
 * subquery of the select list would read the subquery's own cusercode and match every row.
 */
export const listedPerson = sql.raw('"cuser"."cusercode"');

/**
 * A person list with another domain's columns beside the person's own (the written-report list):
 * one statement over the persons `where` picks (personWhere and SQL correlated through
 * `listedPerson`), for the caller to page and sort.
 */
export function personListWith<E extends Record<string, SQL | SQL.Aliased>>(db: DbOrTx, extra: E, where: SQL | undefined) {
  return db
    .select({ cusercode: cuser.cusercode, realname: cuser.realname, gender: cuser.gender, appid: cuser.appid, musercode: cuser.musercode, ...extra })
    .from(cuser)
    .where(where)
    .$dynamic();
}

/** Newest first, then by code so pages never overlap. */
export const personOrder = [desc(cuser.createdat), asc(cuser.cusercode)];

/**
 * The apps whose archives the caller may open (SPEC §2 /archives): every app with "all archives"
 * (00049), else those whose archive page it holds; the archive page codes are the app ids
 * (archives_gl_yf 000000001 … archives_gl_yl 000000004).
 */
export function archiveApps(ctx: Ctx): 'all' | string[] {
  if (holds(ctx.me, '00049')) return 'all';
  return populationApps.map((a) => a.appid).filter((appid) => ctx.me.codes.has(appid));
}

/** Refuses an app whose archive page the caller lacks. */
export function assertArchiveApp(ctx: Ctx, appid: string) {
  const apps = archiveApps(ctx);
  if (apps !== 'all' && !apps.includes(appid)) denied({ zh: '没有查看该人群档案的权限', en: 'You may not open the archives of this population' });
}

/** The archive list's app filter: the one asked for (if allowed), else every allowed app. */
export function archiveAppWhere(ctx: Ctx, appid: string | undefined): SQL | undefined {
  if (appid) {
    assertArchiveApp(ctx, appid);
    return undefined;
  }
  const apps = archiveApps(ctx);
  return apps === 'all' ? undefined : apps.length ? inArray(cuser.appid, apps) : sql`false`;
}

/** Whether the caller sees full phone and ID numbers (SPEC §6 component code). */
export const revealsIdentity = (ctx: Ctx) => holds(ctx.me, PERSON_IDENTITY_CODE);

export const appName = (appid: string, lang: Lang) => {
  const a = populationApps.find((p) => p.appid === appid);
  return a ? (lang === 'en-US' ? a.en : a.zh) : appid;
};

/**
 * The columns a person row shows (personRow): a list selects these, not the whole row, so the
 * archive's answers (sealed fill-ins) are neither read nor parsed for a page that does not show them.
 */
export const listedColumns = {
  cusercode: cuser.cusercode,
  musercode: cuser.musercode,
  appid: cuser.appid,
  realname: cuser.realname,
  gender: cuser.gender,
  birthdate: cuser.birthdate,
  phonenumber: cuser.phonenumber,
  idcard: cuser.idcard,
  source: cuser.source,
  createdat: cuser.createdat,
  updatedat: cuser.updatedat,
  anonymisedat: cuser.anonymisedat,
};
type ListedPerson = Pick<PersonRecord, keyof typeof listedColumns>;

/** A person as the wire shows it, masked unless `reveal`; its identifiers are opened here, row by row of the page. */
export function personRow(sealed: ListedPerson, insname: string, lang: Lang, reveal: boolean): CuserRow {
  const r = openIdentity(sealed);
  return {
    cusercode: r.cusercode,
    musercode: r.musercode,
    insname,
    appid: r.appid,
    appname: appName(r.appid, lang),
    realname: personName(r, lang),
    gender: r.gender,
    birthdate: r.birthdate ?? '',
    phonenumber: reveal ? (r.phonenumber ?? '') : maskPhone(r.phonenumber),
    idcard: reveal ? (r.idcard ?? '') : maskIdCard(r.idcard),
    source: r.source,
    createdat: iso(r.createdat),
    updatedat: iso(r.updatedat),
    anonymisedat: r.anonymisedat ? iso(r.anonymisedat) : '',
  };
}

/** Which filters a person list request sets: one pair of prepared statements per shape. */
interface PersonListShape {
  scoped: boolean;
  musercode: boolean;
  appid: boolean;
  realname: boolean;
  gender: boolean;
  phonenumber: boolean;
  idcard: boolean;
  startdate: boolean;
  enddate: boolean;
}

/**
 * The person list's page with its total, through prepared statements per shape of request
 * (kit statementsByShape). The conditions are personWhere's with parameters for values; the
 * institution's name rides on each row (insname).
 */
export async function personListPage(ctx: Ctx, f: PersonFilters, page: PageInput, db: DbOrTx): Promise<Paged<ListedPerson & { insname: string | null }>> {
  // A named institution outside the caller's scope is not found (ownedBy's check).
  if (f.musercode) assertInScope(ctx.me, f.musercode);
  const shape: PersonListShape = {
    scoped: ctx.me.scope !== 'all',
    musercode: !!f.musercode,
    appid: !!f.appid,
    realname: !!f.realname,
    gender: !!f.gender,
    phonenumber: !!f.phonenumber,
    idcard: !!f.idcard,
    startdate: !!f.startdate,
    enddate: !!f.enddate,
  };
  const values = {
    scope: ctx.me.scope === 'all' ? [] : ctx.me.scope,
    musercode: f.musercode ?? '',
    appid: f.appid ?? '',
    pattern: containsPattern(f.realname ?? ''),
    gender: f.gender ?? '',
    phonehash: f.phonenumber ? phoneHash(f.phonenumber) : '',
    idcardhash: f.idcard ? idCardHash(f.idcard) : '',
    startdate: f.startdate ?? '',
    enddate: f.enddate ?? '',
  };
  return pageThrough(personList(db, shape), values, page);
}

const personList = statementsByShape('persons_list', (db, shape: PersonListShape, name) => {
  const p = sql.placeholder;
  const where = and(
    isNull(cuser.deletedat),
    shape.musercode ? sql`${cuser.musercode} = ${p('musercode')}` : shape.scoped ? sql`${cuser.musercode} = any(${p('scope')}::text[])` : undefined,
    shape.appid ? sql`${cuser.appid} = ${p('appid')}` : undefined,
    shape.realname ? sql`${cuser.realname} ilike ${p('pattern')}` : undefined,
    shape.gender ? sql`${cuser.gender} = ${p('gender')}` : undefined,
    shape.phonenumber ? sql`${cuser.phonehash} = ${p('phonehash')}` : undefined,
    shape.idcard ? sql`${cuser.idcardhash} = ${p('idcardhash')}` : undefined,
    shape.startdate ? sql`${createdDay} >= ${p('startdate')}::date` : undefined,
    shape.enddate ? sql`${createdDay} <= ${p('enddate')}::date` : undefined,
  );
  const matching = db.select({ n: count() }).from(cuser).where(where);
  return {
    count: matching.prepare(`${name}_n`),
    rows: db
      .select({ ...listedColumns, insname: insnameOf(cuser.musercode), total: totalColumn(matching) })
      .from(cuser)
      .where(where)
      .orderBy(...personOrder)
      .limit(p('limit'))
      .offset(p('offset'))
      .prepare(name),
  };
});
