import { and, asc, count, desc, eq, getViewSelectedFields, inArray, isNotNull, max, sql } from 'drizzle-orm';
import {
  populationApps,
  type AnswerInput,
  type FormDefinition,
  type Lang,
  type PersonReport,
  type ReliableChange,
  type ReportDetail,
  type ReportRow,
  type ScoreResult,
} from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { iso, pageThrough, statementsByShape, totalColumn, type PageInput, type Paged } from '../../kit/index.js';
import { openAnswers } from '../../kit/crypt/index.js';
import { accountNames, insnameOf } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { personBriefs, personColumnsOf, personInScope } from '../persons/index.js';
import { planNameOf, planNames, stageBriefs, stageNameOf } from '../plans/index.js';
import { changeBasisOf, changesAlong, formBriefs, formNameOf, loadDefinition, reportAgainstNorm } from '../scales/index.js';
import { latestSignature, withTexts } from '../assessments/index.js';
import { reportWithLayout } from './custom/use.js';
import { filterChecks, filterValues, reportWhere, type ReportFilterInput } from './filter.js';
import { commentsOf, trendOf } from './history.js';
import { report } from './tables.js';

/**
 * Reports as staff read them (SPEC §7 as.m.exam.getCUserReportPageList / getCUserReport), and what
 * the persons domain asks for a person's archive (reportsOfPerson, reportCounts).
 */

export const appName = (appid: string, lang: Lang) => {
  const a = populationApps.find((p) => p.appid === appid);
  return a ? (lang === 'en-US' ? a.en : a.zh) : '';
};

export type AssessmentRow = typeof report.$inferSelect;
/** The columns a report row shows: all but the answers and scores (exports read those only when they need them). */
const { answers: _answers, scores: _scores, ...rowColumns } = getViewSelectedFields(report);
export const reportRowColumns = rowColumns;

/** Report rows as lists and exports show them (names of person, institution, plan, stage, form). */
export async function rowsOut(db: DbOrTx, rows: Omit<AssessmentRow, 'answers' | 'scores'>[], lang: Lang): Promise<ReportRow[]> {
  const [persons, names, plans, stages, forms] = await Promise.all([
    personBriefs(
      db,
      rows.map((r) => r.cusercode ?? ''),
      lang,
    ),
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    planNames(
      db,
      rows.map((r) => r.plancode),
    ),
    stageBriefs(
      db,
      rows.map((r) => r.stagecode),
    ),
    formBriefs(
      db,
      rows.map((r) => r.formcode),
      lang,
    ),
  ]);
  return rows.map((r) => {
    const p = persons.get(r.cusercode ?? '');
    const looked = {
      realname: p?.realname ?? '',
      gender: p?.gender ?? '',
      insname: names.get(r.musercode) ?? '',
      planname: plans.get(r.plancode) ?? '',
      stagename: stages.get(r.stagecode)?.stagename ?? '',
      formname: forms.get(r.formcode)?.formname ?? r.formcode,
    };
    return listRowOut({ ...r, ...looked }, lang);
  });
}

/**
 * The report list's columns: a row's own (not its answers and scores) and, as scalar subqueries of
 * the domains owning them, the names rowsOut looks up, so a page is one statement, not six.
 */
function listColumns(lang: Lang) {
  return {
    ...rowColumns,
    ...personColumnsOf(report.cusercode, lang),
    insname: sql<string>`coalesce(${insnameOf(report.musercode)}, '')`,
    planname: planNameOf(report.plancode),
    stagename: stageNameOf(report.stagecode),
    formname: formNameOf(report.formcode, lang),
  };
}

type ListRow = Omit<AssessmentRow, 'answers' | 'scores'> & Record<'realname' | 'gender' | 'insname' | 'planname' | 'stagename' | 'formname', string>;

/**
 * The report list's page through prepared statements per shape of request (kit statementsByShape):
 * the shape is which of the filter's values are set (quotas by count), its yes/no rules and the
 * language; the values are reportWhere's placeholders, named as FilterValues' fields.
 */
async function reportListPage(ctx: Ctx, f: ReportFilterInput & PageInput): Promise<Paged<ListRow>> {
  // async: a refusal while binding the values (another institution named) rejects, beside the
  // checks in the handler's Promise.all, instead of throwing past it and leaving theirs unhandled.
  const values = filterValues(ctx, f);
  const { quotas = [], ...fields } = values;
  const shape = { lang: ctx.lang, fields: Object.keys(fields), quotas: quotas.length, counted: f.counted, abnormal: f.abnormal };
  const bound: Record<string, unknown> = { ...fields };
  quotas.forEach((q, i) => {
    const names = quotaPlaceholders(i);
    Object.assign(bound, { [names.formcode]: q.formcode, [names.code]: q.code, [names.levels]: q.levels });
  });
  return pageThrough(reportList(ctx.readDb, shape), bound, f);
}

/** The placeholders' names of the i-th indicator filter: what the statement binds and the values fill. */
const quotaPlaceholders = (i: number) => ({ formcode: `q${i}form`, code: `q${i}code`, levels: `q${i}levels` });

const reportList = statementsByShape('reports_list', (db, shape: { lang: Lang; fields: string[]; quotas: number } & Pick<ReportFilterInput, 'counted' | 'abnormal'>, name) => {
  const p = sql.placeholder;
  const quotas = Array.from({ length: shape.quotas }, (_, i) => {
    const names = quotaPlaceholders(i);
    return { formcode: p(names.formcode), code: p(names.code), levels: p(names.levels) };
  });
  const where = reportWhere({ ...Object.fromEntries(shape.fields.map((k) => [k, p(k)])), quotas }, shape);
  // The total counts the same rows without the names' subqueries.
  const matching = db.select({ n: count() }).from(report).where(where);
  return {
    count: matching.prepare(`${name}_n`),
    rows: db
      .select({ ...listColumns(shape.lang), total: totalColumn(matching) })
      .from(report)
      .where(where)
      .orderBy(desc(report.createdat), asc(report.assessid))
      .limit(p('limit'))
      .offset(p('offset'))
      .prepare(name),
  };
});

/** A row of listColumns as the contract has it (the same fields as rowsOut's). */
function listRowOut(r: ListRow, lang: Lang): ReportRow {
  return {
    reportid: r.assessid,
    cusercode: r.cusercode ?? '',
    realname: r.realname,
    gender: r.gender,
    appid: r.appid,
    appname: appName(r.appid, lang),
    musercode: r.musercode,
    insname: r.insname,
    plancode: r.plancode,
    planname: r.planname,
    stagecode: r.stagecode,
    stagename: r.stagename,
    formcode: r.formcode,
    formname: r.formname,
    version: r.version,
    mentalstate: r.mentalstate,
    level: r.level,
    colour: r.colour,
    warning: r.warning,
    voided: r.voided,
    hidden: r.hidden,
    createdat: iso(r.createdat),
  };
}

/** The answers of a report in words, read against the version it was answered on. */
export function answersOf(def: FormDefinition, stored: AnswerInput[], score: ScoreResult, lang: Lang) {
  // Free-text answers are stored sealed (kit/crypt); opened only for the report read.
  const answers = openAnswers(stored);
  const t = (x: { zh: string; en: string }) => (lang === 'en-US' && x.en ? x.en : x.zh);
  const items = new Map(score.items.map((i) => [i.no, i.score]));
  return def.questions.map((q) => {
    const a = answers.find((x) => x.no === q.no);
    const options = a?.option !== undefined ? [a.option] : (a?.options ?? []);
    const answer =
      q.type === 0 ? (a?.text ?? '') : options.map((o) => (q.options[o - 1] ? t(q.options[o - 1]!.text) : String(o))).join('、');
    return { no: q.no, question: q.text, type: q.type, options, answer, score: items.get(q.no) ?? null };
  });
}

/** A report in the caller's scope, or "not found". */
export async function reportInScope(ctx: Ctx, reportid: string): Promise<AssessmentRow> {
  const [row] = await ctx.db
    .select()
    .from(report)
    .where(and(eq(report.assessid, reportid), isNotNull(report.cusercode), scopeWhere(report.musercode, ctx.me)));
  return row ?? notFound({ zh: '报告不存在', en: 'No such report' });
}

export const reportHandlers = {
  'as.m.exam.getCUserReportPageList': async (f, ctx) => {
    // The page is read beside the filter's checks, and dropped when one refuses (filterChecks).
    const [, { total, rows }] = await Promise.all([filterChecks(ctx, f), reportListPage(ctx, f)]);
    return { total, rows: rows.map((r) => listRowOut(r, ctx.lang)) };
  },

  'as.m.exam.getCUserReport': async ({ reportid }, ctx) => {
    // The custom report's template version lays the page out as it does the print (custom/use.ts).
    const out = await reportWithLayout(ctx.db, await reportDetail(ctx, reportid), ctx.now());
    await ctx.audit({
      result: 'ok',
      detail: { reportid, cusercode: out.cusercode, target: out.musercode },
    });
    return out;
  },

  'as.m.cuser.getReportCount': async ({ cusercodes }, ctx) => {
    for (const c of new Set(cusercodes)) await personInScope(ctx, ctx.db, c);
    const counts = await reportCounts(ctx.db, cusercodes);
    return [...new Set(cusercodes)].map((c) => counts.get(c) ?? { cusercode: c, total: 0, warnings: 0, lastat: null });
  },

  'as.m.cuser.getSignaturePicture': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const row = await latestSignature(ctx.db, person.cusercode);
    await ctx.audit({
      result: 'ok',
      detail: { cusercode, target: person.musercode, found: !!row },
    });
    if (!row?.signature || !row.signedat) return null;
    return { signature: `data:image/png;base64,${row.signature}`, signedat: iso(row.signedat), assesscode: row.assesscode };
  },
} satisfies HandlerMap;

/**
 * What as.m.exam.getCUserReport answers, for other domains (PDF, written reports): one report in
 * the caller's scope with indicators, warnings, answers, comments and the trend; "not found" for
 * another institution's report. Not audited here: the calling action audits its own read.
 */
export async function reportDetail(ctx: Ctx, reportid: string): Promise<ReportDetail> {
  const row = await reportInScope(ctx, reportid);
  const [out] = await rowsOut(ctx.db, [row], ctx.lang);
  const def = await loadDefinition(ctx.db, row.formcode, row.version);
  const score = withTexts(row.scores as ScoreResult, def);
  const t = (x: { zh: string; en: string }) => (ctx.lang === 'en-US' && x.en ? x.en : x.zh);
  const named = score.indicators.map((i) => ({ code: i.code, name: t(i.name), score: i.score }));
  return {
    ...out!,
    indicators: score.indicators,
    warnings: score.warnings,
    answers: answersOf(def, row.answers as AnswerInput[], score, ctx.lang),
    voidreason: score.voidReason,
    convention: score.convention ?? null,
    comments: await commentsOf(ctx.db, reportid),
    trend: await trendOf(ctx.db, row),
    norm: score.voided ? null : await reportAgainstNorm(ctx.db, row.formcode, named, ctx.lang),
  };
}

// ---------- for the persons domain (archives) ----------

/** Report counts of persons (no scope check: the caller has found the persons in scope). */
export async function reportCounts(db: DbOrTx, cusercodes: string[]) {
  const codes = [...new Set(cusercodes)];
  if (!codes.length) return new Map<string, { cusercode: string; total: number; warnings: number; lastat: string | null }>();
  const rows = await db
    .select({
      cusercode: report.cusercode,
      total: count(),
      warnings: sql<number>`count(*) filter (where ${report.warning} = 1)::int`,
      lastat: max(report.createdat),
    })
    .from(report)
    .where(inArray(report.cusercode, codes))
    .groupBy(report.cusercode);
  return new Map(
    rows.map((r) => [
      r.cusercode!,
      { cusercode: r.cusercode!, total: Number(r.total), warnings: Number(r.warnings), lastat: r.lastat ? iso(r.lastat) : null },
    ]),
  );
}

export async function reportCountOfPerson(db: DbOrTx, cusercode: string): Promise<number> {
  return (await reportCounts(db, [cusercode])).get(cusercode)?.total ?? 0;
}

/** Every report of a person over time, oldest first, with each indicator's score for the trend chart. */
export async function reportsOfPerson(db: DbOrTx, cusercode: string, lang: Lang): Promise<PersonReport[]> {
  const rows = await db
    .select()
    .from(report)
    .where(eq(report.cusercode, cusercode))
    .orderBy(asc(report.createdat), asc(report.assessid));
  const forms = await formBriefs(
    db,
    rows.map((r) => r.formcode),
    lang,
  );
  const t = (x: { zh: string; en: string }) => (lang === 'en-US' && x.en ? x.en : x.zh);
  // Indicator names come from the version each report was scored on (summary.ts).
  const defs = new Map<string, FormDefinition>();
  for (const key of new Set(rows.map((r) => `${r.formcode}\u0000${r.version}`))) {
    const [formcode, version] = key.split('\u0000') as [string, string];
    defs.set(key, await loadDefinition(db, formcode, Number(version)));
  }
  const changes = await changesOfForms(db, rows);
  return rows.map((r) => {
    const score = withTexts(r.scores as ScoreResult, defs.get(`${r.formcode}\u0000${r.version}`)!);
    return {
      change: changes.get(r.assessid) ?? null,
      reportid: r.assessid,
      formcode: r.formcode,
      formname: forms.get(r.formcode)?.formname ?? r.formcode,
      version: r.version,
      stagecode: r.stagecode,
      createdat: iso(r.createdat),
      mentalstate: r.mentalstate,
      warning: r.warning === 1,
      indicators: score.indicators.map((i) => ({ code: i.code, name: t(i.name), score: i.score, level: i.level, colour: i.colour ?? '' })),
    };
  });
}

/** Reliable change of each report against the person's previous report of its form (rows oldest first). */
async function changesOfForms(db: DbOrTx, rows: AssessmentRow[]) {
  const out = new Map<string, ReliableChange | null>();
  for (const formcode of new Set(rows.map((r) => r.formcode))) {
    const basis = await changeBasisOf(db, formcode);
    if (!basis) continue;
    const ofForm = rows.filter((r) => r.formcode === formcode && !(r.scores as ScoreResult).voided);
    const scores = ofForm.map((r) => (r.scores as ScoreResult).indicators.find((i) => i.code === basis.rule.code)?.score ?? null);
    changesAlong(basis, scores).forEach((c, i) => out.set(ofForm[i]!.assessid, c));
  }
  return out;
}
