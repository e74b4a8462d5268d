import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { WrittenListRow } from '@xinli/contract';
import type { Ctx } from '../../../http/context.js';
import type { HandlerMap } from '../../../http/handlers.js';
import { conflict, invalid, notFound } from '../../../http/errors.js';
import { CALENDAR_TIME_ZONE, iso, newId, paged } from '../../../kit/index.js';
import { jobsById } from '../../../kit/jobs/index.js';
import { accountNames } from '../../accounts/index.js';
import { actorNames } from '../../system/index.js';
import { scopeWhere } from '../../auth/index.js';
import { appName, listedPerson, livingPersonsInScope, personBriefs, personInScope, personListWith, personWhere } from '../../persons/index.js';
import { RULES_MODEL } from './rules.js';
import { attachJob, currentReportCounts, queueWritten } from './store.js';
import { writtenReport, type WrittenReportRow } from './tables.js';
import { report } from '../tables.js';

const NOT_FOUND = { zh: '个体报告不存在', en: 'No such written report' };
const who = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

/** The person's newest written report (correlated to the listed person). */
const latestWritten = (column: SQL) =>
  sql`(select ${column} from ${writtenReport} where ${writtenReport.cusercode} = ${listedPerson} order by ${writtenReport.createdat} desc, ${writtenReport.writtenid} desc limit 1)`;
const lastReportAt = sql<Date | null>`(select max(${report.createdat}) from ${report} where ${report.cusercode} = ${listedPerson} and ${report.voided} = 0)`;
const lastReportDay = sql`(${lastReportAt} at time zone ${sql.raw(`'${CALENDAR_TIME_ZONE}'`)})::date`;

/** A written report in the caller's scope, else "not found". */
async function writtenInScope(ctx: Ctx, writtenid: string): Promise<WrittenReportRow> {
  const [row] = await ctx.db
    .select()
    .from(writtenReport)
    .where(and(eq(writtenReport.writtenid, writtenid), scopeWhere(writtenReport.musercode, ctx.me)));
  return row ?? notFound(NOT_FOUND);
}

/** Moves a written report from one state to another, or refuses with a conflict naming the state it must be in. */
async function transition(
  ctx: Ctx,
  writtenid: string,
  from: WrittenReportRow['state'],
  set: Partial<WrittenReportRow>,
  must: { zh: string; en: string },
) {
  const row = await writtenInScope(ctx, writtenid);
  const done = await ctx.db
    .update(writtenReport)
    .set(set)
    .where(and(eq(writtenReport.writtenid, row.writtenid), eq(writtenReport.state, from)))
    .returning({ writtenid: writtenReport.writtenid });
  if (!done.length) conflict(must);
  return row;
}

async function progressOf(ctx: Ctx, rows: WrittenReportRow[]) {
  const jobs = await jobsById(
    ctx.db,
    rows.flatMap((r) => (r.jobid && (r.state === 'queued' || r.state === 'writing') ? [r.jobid] : [])),
  );
  return (r: WrittenReportRow) => (r.state === 'draft' || r.state === 'approved' ? 100 : r.jobid ? (jobs.get(r.jobid)?.progress ?? 0) : 0);
}

/** The names of who requested, edited and approved the rows: a staff user's, else the account's. */
const rowActorNames = (ctx: Ctx, rows: WrittenReportRow[]) => actorNames(ctx.db, rows.flatMap((r) => [r.createdby, r.editedby, r.approvedby]));

function detailOf(
  r: WrittenReportRow,
  extra: { realname: string; insname: string; progress: number },
  nameOf: (id: string | null) => string,
) {
  return {
    createdbyname: nameOf(r.createdby),
    editedbyname: nameOf(r.editedby),
    approvedbyname: nameOf(r.approvedby),
    writtenid: r.writtenid,
    cusercode: r.cusercode,
    musercode: r.musercode,
    state: r.state,
    writer: r.writer,
    model: r.model,
    lang: r.lang,
    error: r.error,
    createdat: iso(r.createdat),
    createdby: r.createdby,
    writtenat: isoOrNull(r.writtenat),
    editedat: isoOrNull(r.editedat),
    editedby: r.editedby,
    approvedat: isoOrNull(r.approvedat),
    approvedby: r.approvedby,
    ...extra,
  };
}

/** The AI individual report (menu 001802). */
export const writtenReportHandlers = {
  'as.m.report.getAsai1UserReportPageList': async ({ musercode, appid, state, realname, startdate, enddate, page, pageSize }, ctx) => {
    const stateWhere = !state
      ? undefined
      : state === 'none'
        ? sql`not exists (select 1 from ${writtenReport} where ${writtenReport.cusercode} = ${listedPerson})`
        : sql`${latestWritten(sql`${writtenReport.state}`)} = ${state}`;
    const where = and(
      personWhere(ctx, { musercode: musercode || undefined, appid: appid || undefined, realname }),
      sql`exists (select 1 from ${report} where ${report.cusercode} = ${listedPerson} and ${report.voided} = 0)`,
      stateWhere,
      startdate ? sql`${lastReportDay} >= ${startdate}::date` : undefined,
      enddate ? sql`${lastReportDay} <= ${enddate}::date` : undefined,
    );
    const query = personListWith(ctx.db, { lastreportat: lastReportAt, writtenid: latestWritten(sql`${writtenReport.writtenid}`).mapWith(String) }, where);
    const { total, rows } = await paged(ctx.db, query, [sql`${lastReportAt} desc nulls last`, asc(listedPerson)], { page, pageSize });
    const ids = rows.flatMap((r) => (r.writtenid ? [r.writtenid] : []));
    const written = ids.length ? await ctx.db.select().from(writtenReport).where(inArray(writtenReport.writtenid, ids)) : [];
    const byPerson = new Map(written.map((w) => [w.cusercode, w]));
    const [names, counts, progress] = await Promise.all([
      accountNames(
        ctx.db,
        rows.map((r) => r.musercode),
      ),
      currentReportCounts(
        ctx.db,
        rows.map((r) => r.cusercode),
      ),
      progressOf(ctx, written),
    ]);
    return {
      total,
      rows: rows.map((r): WrittenListRow => {
        const w = byPerson.get(r.cusercode);
        const last = r.lastreportat ? new Date(r.lastreportat) : null;
        return {
          cusercode: r.cusercode,
          realname: r.realname,
          gender: r.gender,
          appid: r.appid,
          appname: appName(r.appid, ctx.lang),
          musercode: r.musercode,
          insname: names.get(r.musercode) ?? '',
          reportcount: counts.get(r.cusercode) ?? 0,
          lastreportat: last ? iso(last) : null,
          writtenid: w?.writtenid ?? null,
          state: w?.state ?? 'none',
          writer: w?.writer ?? null,
          model: w?.model ?? null,
          progress: w ? progress(w) : 0,
          error: w?.error ?? null,
          createdat: w ? iso(w.createdat) : null,
          writtenat: w ? isoOrNull(w.writtenat) : null,
          approvedat: w ? isoOrNull(w.approvedat) : null,
          stale: w && last && last > w.createdat ? 1 : 0,
        };
      }),
    };
  },

  'as.m.report.getAsai1Writers': async (_input, ctx) => ({
    default: 'rules' as const,
    writers: [
      { writer: 'rules' as const, model: RULES_MODEL },
      ...(ctx.config.aiReport ? [{ writer: 'llm' as const, model: ctx.config.aiReport.model }] : []),
    ],
  }),

  'as.m.report.generateAsai1UserReport': async ({ cusercodes, writer = 'rules', lang }, ctx) => {
    const llm = ctx.config.aiReport;
    if (writer === 'llm' && !llm)
      invalid({
        zh: '本服务器未配置 AI 撰写（AI_REPORT_BASE_URL、AI_REPORT_MODEL）',
        en: 'The AI writer is not configured on this server (AI_REPORT_BASE_URL, AI_REPORT_MODEL)',
      });
    const codes = [...new Set(cusercodes)];
    const persons = await livingPersonsInScope(ctx, ctx.db, codes);
    if (persons.length !== codes.length) notFound({ zh: '测评对象不存在', en: 'No such person' });
    const counts = await currentReportCounts(ctx.db, codes);
    const skipped: { cusercode: string; reason: 'noreports' | 'inprogress' }[] = [];
    const writtenids: string[] = [];
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      for (const p of persons) {
        if (!counts.get(p.cusercode)) {
          skipped.push({ cusercode: p.cusercode, reason: 'noreports' });
          continue;
        }
        const model = writer === 'llm' ? llm!.model : RULES_MODEL;
        const id = await queueWritten(tx, { ...p, writer, model, lang: lang ?? ctx.lang, createdby: who(ctx), now }, newId('WR'));
        if (id) writtenids.push(id);
        else skipped.push({ cusercode: p.cusercode, reason: 'inprogress' });
      }
    });
    await ctx.audit({
      result: 'ok',
      detail: { writer, count: writtenids.length, skipped: skipped.length },
    });
    return { writtenids, skipped };
  },

  'as.m.report.getAsai1BatchProgress': async ({ writtenids }, ctx) => {
    const rows = await ctx.db
      .select()
      .from(writtenReport)
      .where(and(inArray(writtenReport.writtenid, writtenids), scopeWhere(writtenReport.musercode, ctx.me)));
    if (rows.length !== new Set(writtenids).size) notFound(NOT_FOUND);
    const progress = await progressOf(ctx, rows);
    const n = (...states: WrittenReportRow['state'][]) => rows.filter((r) => states.includes(r.state)).length;
    // A failed one is finished too: the batch is done when nothing is waiting or being written.
    const percent = rows.length
      ? Math.floor(rows.reduce((sum, r) => sum + (r.state === 'failed' ? 100 : progress(r)), 0) / rows.length)
      : 100;
    return {
      total: rows.length,
      queued: n('queued'),
      writing: n('writing'),
      written: n('draft', 'approved'),
      failed: n('failed'),
      percent,
    };
  },

  'as.m.report.getAsai1UserReport': async ({ writtenid }, ctx) => {
    const row = await writtenInScope(ctx, writtenid);
    const [persons, names, progress, nameOf] = await Promise.all([
      personBriefs(ctx.db, [row.cusercode], ctx.lang),
      accountNames(ctx.db, [row.musercode]),
      progressOf(ctx, [row]),
      rowActorNames(ctx, [row]),
    ]);
    await ctx.audit({
      result: 'ok',
      detail: { writtenid, cusercode: row.cusercode, target: row.musercode },
    });
    return {
      ...detailOf(
        row,
        {
          realname: persons.get(row.cusercode)?.realname ?? '',
          insname: names.get(row.musercode) ?? '',
          progress: progress(row),
        },
        nameOf,
      ),
      sections: row.sections,
      sources: row.sources,
    };
  },

  'as.m.report.getAsai1UserReportHistory': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const rows = await ctx.db
      .select()
      .from(writtenReport)
      .where(and(eq(writtenReport.cusercode, person.cusercode), scopeWhere(writtenReport.musercode, ctx.me)))
      .orderBy(desc(writtenReport.createdat), desc(writtenReport.writtenid));
    const [names, progress, nameOf] = await Promise.all([
      accountNames(ctx.db, [person.musercode]),
      progressOf(ctx, rows),
      rowActorNames(ctx, rows),
    ]);
    return rows.map((r) => detailOf(r, { realname: person.realname, insname: names.get(r.musercode) ?? '', progress: progress(r) }, nameOf));
  },

  'as.m.report.updateAsai1UserReport': async ({ writtenid, sections }, ctx) => {
    await transition(
      ctx,
      writtenid,
      'draft',
      { sections, editedby: who(ctx), editedat: ctx.now() },
      { zh: '只有草稿可以修改', en: 'Only a draft can be edited' },
    );
    await ctx.audit({ result: 'ok', detail: { writtenid } });
    return null;
  },

  'as.m.report.approveAsai1UserReport': async ({ writtenid }, ctx) => {
    await transition(
      ctx,
      writtenid,
      'draft',
      { state: 'approved', approvedby: who(ctx), approvedat: ctx.now() },
      { zh: '只有草稿可以审核通过', en: 'Only a draft can be approved' },
    );
    await ctx.audit({ result: 'ok', detail: { writtenid } });
    return null;
  },

  'as.m.report.withdrawAsai1UserReport': async ({ writtenid }, ctx) => {
    await transition(
      ctx,
      writtenid,
      'approved',
      { state: 'draft', approvedby: null, approvedat: null },
      { zh: '只有已审核的报告可以撤回', en: 'Only an approved report can be withdrawn' },
    );
    await ctx.audit({ result: 'ok', detail: { writtenid } });
    return null;
  },

  'as.m.report.retryAsai1UserReport': async ({ writtenid }, ctx) => {
    const row = await writtenInScope(ctx, writtenid);
    if (row.state !== 'failed') conflict({ zh: '只有失败的报告可以重试', en: 'Only a failed report can be retried' });
    if (row.writer === 'llm' && !ctx.config.aiReport)
      invalid({ zh: '本服务器未配置 AI 撰写', en: 'The AI writer is not configured on this server' });
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      const done = await tx
        .update(writtenReport)
        .set({ state: 'queued', error: null, createdat: now, createdby: who(ctx) })
        .where(
          and(
            eq(writtenReport.writtenid, writtenid),
            eq(writtenReport.state, 'failed'),
            sql`not exists (select 1 from ${writtenReport} w2 where w2.cusercode = ${row.cusercode} and w2.state in ('queued', 'writing'))`,
          ),
        )
        .returning({ writtenid: writtenReport.writtenid });
      if (!done.length) conflict({ zh: '该测评对象已有报告在撰写中', en: 'A report of this person is already being written' });
      await attachJob(tx, writtenid, now);
    });
    await ctx.audit({ result: 'ok', detail: { writtenid } });
    return null;
  },
} satisfies HandlerMap;
