import { and, asc, count, countDistinct, desc, eq, gte, inArray, max, min, sql, type SQL } from 'drizzle-orm';
import { bandColour, type AnswerInput, type FormDefinition, type Lang, type ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid } from '../../http/errors.js';
import { iso, newId, paged } from '../../kit/index.js';
import { scopeWhere } from '../auth/index.js';
import { assertPersonNotAnonymised, personInScope } from '../persons/index.js';
import { stageBriefs } from '../plans/index.js';
import { loadCurrentDefinitions, loadDefinition } from '../scales/index.js';
import { resetUnfinishedCodes, setResultsHidden, withTexts } from '../assessments/index.js';
import { reportAggregateWhere, reportFilterWhere } from './filter.js';
import { answersOf, reportInScope, rowsOut } from './reports.js';
import { assessmentIndicator, report, reportComment } from './tables.js';

const pick = (lang: Lang, t: { zh: string; en: string }) => (lang === 'en-US' && t.en ? t.en : t.zh);

/** Definitions by form and version, loaded once each (a page or batch mixes few versions). */
export function definitionCache(db: DbOrTx) {
  const cache = new Map<string, Promise<FormDefinition>>();
  return (formcode: string, version: number) => {
    const key = `${formcode}\u0000${version}`;
    if (!cache.has(key)) cache.set(key, loadDefinition(db, formcode, version));
    return cache.get(key)!;
  };
}

/** The item answers of a report in words, against the version it was answered on. */
export async function itemsOf(def: FormDefinition, row: { answers: unknown; scores: unknown }, lang: Lang) {
  const score = withTexts(row.scores as ScoreResult, def);
  return answersOf(def, row.answers as AnswerInput[], score, lang).filter((a) => a.options.length || a.answer);
}

/** SQL: the report has an anxiety/depression indicator of the kind(s) at or above `minlevel`. */
const moodWhere = (kind: 'anxious' | 'depressed' | undefined, minlevel: number): SQL =>
  and(
    kind ? eq(assessmentIndicator.mood, kind) : inArray(assessmentIndicator.mood, ['anxious', 'depressed']),
    gte(assessmentIndicator.level, minlevel),
  )!;

const PHQ_FORMS = ['PHQ9', 'PHQA'];

export const reportActionHandlers = {
  'as.m.exam.getQuotaFilterConditions': async (f, ctx) => {
    const where = await reportAggregateWhere(ctx, f);
    const forms = await ctx.db
      .select({ formcode: report.formcode, n: count() })
      .from(report)
      .where(where)
      .groupBy(report.formcode)
      .orderBy(desc(count()), asc(report.formcode));
    const reached = await ctx.db
      .select({ formcode: assessmentIndicator.formcode, code: assessmentIndicator.code, level: assessmentIndicator.level, n: count() })
      .from(assessmentIndicator)
      .innerJoin(report, eq(report.assessid, assessmentIndicator.assessid))
      .where(and(where, sql`${assessmentIndicator.level} is not null`))
      .groupBy(assessmentIndicator.formcode, assessmentIndicator.code, assessmentIndicator.level);
    const defs = await loadCurrentDefinitions(
      ctx.db,
      forms.map((r) => r.formcode),
    );
    return forms.map((r) => {
      const def = defs.get(r.formcode);
      const counts = reached.filter((x) => x.formcode === r.formcode);
      return {
        formcode: r.formcode,
        formname: def ? pick(ctx.lang, def.formname) : r.formcode,
        reports: Number(r.n),
        // The current version's indicators with bands, with every level they can reach (counts 0 when none did).
        quotas: (def?.indicators ?? [])
          .filter((i) => i.bands.length)
          .map((i) => {
            const levels = new Map<number, { level: number; label: string; colour: string; reports: number }>();
            for (const b of i.bands)
              if (!levels.has(b.level))
                levels.set(b.level, { level: b.level, label: pick(ctx.lang, b.label), colour: bandColour(b), reports: 0 });
            for (const c of counts.filter((x) => x.code === i.code)) {
              const lv = c.level!;
              const known = levels.get(lv) ?? { level: lv, label: '', colour: bandColour({ level: lv as 0 }), reports: 0 };
              levels.set(lv, { ...known, reports: Number(c.n) });
            }
            return { quotacode: i.code, name: pick(ctx.lang, i.name), levels: [...levels.values()].sort((a, b) => a.level - b.level) };
          }),
      };
    });
  },

  'as.m.exam.getCUserStagesAssessCount': async (f, ctx) => {
    const rows = await ctx.db
      .select({
        stagecode: report.stagecode,
        persons: countDistinct(report.cusercode),
        reports: count(),
        warnings: sql<number>`count(*) filter (where ${report.warning} = 1)::int`,
        first: min(report.createdat),
      })
      .from(report)
      .where(await reportAggregateWhere(ctx, f))
      .groupBy(report.stagecode)
      .orderBy(min(report.createdat), asc(report.stagecode));
    const names = await stageBriefs(ctx.db, rows.map((r) => r.stagecode).filter(Boolean));
    return rows.map((r) => ({
      stagecode: r.stagecode,
      stagename: names.get(r.stagecode)?.stagename ?? '',
      persons: Number(r.persons),
      reports: Number(r.reports),
      warnings: Number(r.warnings),
    }));
  },

  'as.m.exam.getReportMaxTime': async (f, ctx) => {
    const [row] = await ctx.db
      .select({ at: max(report.createdat) })
      .from(report)
      .where(await reportFilterWhere(ctx, f));
    return { maxtime: row?.at ? iso(row.at) : null };
  },

  'as.m.exam.getCUserExamDataPageList': async (f, ctx) => {
    const query = ctx.db
      .select()
      .from(report)
      .where(await reportFilterWhere(ctx, f))
      .$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(report.createdat), asc(report.assessid)], f);
    const out = await rowsOut(ctx.db, rows, ctx.lang);
    const defOf = definitionCache(ctx.db);
    const items = await Promise.all(rows.map(async (r) => itemsOf(await defOf(r.formcode, r.version), r, ctx.lang)));
    await ctx.audit({ result: 'ok', detail: { reports: rows.map((r) => r.assessid) } });
    return {
      total,
      rows: out.map((r, i) => ({
        ...r,
        items: items[i]!.map((a) => ({ no: a.no, options: a.options, answer: a.answer, score: a.score })),
      })),
    };
  },

  'as.m.exam.getAnxiousDepressedReportPageList': async ({ kind, minlevel, page, pageSize, ...f }, ctx) => {
    const mood = moodWhere(kind, minlevel);
    const where = and(
      await reportFilterWhere(ctx, f),
      sql`exists (select 1 from ${assessmentIndicator} where ${and(eq(assessmentIndicator.assessid, report.assessid), mood)})`,
    );
    const query = ctx.db.select().from(report).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(report.createdat), asc(report.assessid)], { page, pageSize });
    const out = await rowsOut(ctx.db, rows, ctx.lang);
    const found = rows.length
      ? await ctx.db
          .select()
          .from(assessmentIndicator)
          .where(
            and(
              inArray(
                assessmentIndicator.assessid,
                rows.map((r) => r.assessid),
              ),
              mood,
            ),
          )
      : [];
    const defOf = definitionCache(ctx.db);
    const moods = await Promise.all(
      rows.map(async (r) => {
        const def = await defOf(r.formcode, r.version);
        return found
          .filter((i) => i.assessid === r.assessid)
          .map((i) => {
            const ind = def.indicators.find((d) => d.code === i.code);
            return {
              kind: i.mood as 'anxious' | 'depressed',
              quotacode: i.code,
              name: ind ? pick(ctx.lang, ind.name) : i.code,
              score: i.score,
              level: i.level!,
              colour: i.colour,
            };
          });
      }),
    );
    return { total, rows: out.map((r, i) => ({ ...r, moods: moods[i]! })) };
  },

  'as.m.exam.getPHQ9ChartsData': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const rows = await ctx.db
      .select({
        reportid: report.assessid,
        formcode: report.formcode,
        createdat: report.createdat,
        scores: report.scores,
        score: assessmentIndicator.score,
        level: assessmentIndicator.level,
        colour: assessmentIndicator.colour,
      })
      .from(report)
      .innerJoin(assessmentIndicator, and(eq(assessmentIndicator.assessid, report.assessid), eq(assessmentIndicator.code, 'TOTAL')))
      .where(
        and(eq(report.cusercode, person.cusercode), inArray(report.formcode, PHQ_FORMS), scopeWhere(report.musercode, ctx.me)),
      )
      .orderBy(asc(report.createdat), asc(report.assessid));
    await ctx.audit({
      result: 'ok',
      detail: { cusercode, target: person.musercode, reports: rows.length },
    });
    return rows.map((r) => ({
      reportid: r.reportid,
      formcode: r.formcode,
      createdat: iso(r.createdat),
      score: r.score,
      level: r.level,
      colour: r.colour,
      item9: (r.scores as ScoreResult).items.find((i) => i.no === 9)?.score ?? null,
    }));
  },

  'as.m.exam.updateReport': async ({ reportid, comment }, ctx) => {
    const row = await reportInScope(ctx, reportid);
    if (row.cusercode) await assertPersonNotAnonymised(ctx.db, row.cusercode);
    const commentid = newId('RN');
    await ctx.db
      .insert(reportComment)
      .values({ commentid, assessid: row.assessid, musercode: ctx.me.musercode, userid: ctx.me.userid, comment, createdat: ctx.now() });
    await ctx.audit({ result: 'ok', detail: { reportid, commentid, target: row.musercode } });
    return { commentid };
  },

  'as.m.cuser.showOrHiddenReport': async ({ reportid, cusercode, hidden }, ctx) => {
    if (!reportid && !cusercode) invalid({ zh: '请指定报告或测评对象', en: 'Name a report or a person' });
    // Each id named is checked in scope first: another institution's is "not found".
    const person = cusercode ? await personInScope(ctx, ctx.db, cusercode) : null;
    const row = reportid ? await reportInScope(ctx, reportid) : null;
    if (row && person && row.cusercode !== person.cusercode)
      invalid({ zh: '该报告不属于所选测评对象', en: 'The report is not this person’s' });
    const where = row
      ? eq(report.assessid, row.assessid)
      : and(eq(report.cusercode, person!.cusercode), scopeWhere(report.musercode, ctx.me))!;
    const target = row ? row.musercode : person!.musercode;
    const count = await setResultsHidden(ctx.db, ctx.db.select({ id: report.assessid }).from(report).where(where), hidden);
    await ctx.audit({
      result: 'ok',
      detail: { reportid, cusercode, hidden, count, target },
    });
    return { count };
  },

  'as.m.exam.clearCUserAssessCount': async ({ cusercode, assesscode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const out = await ctx.db.transaction((tx) => resetUnfinishedCodes(tx, person.cusercode, assesscode));
    await ctx.audit({
      result: 'ok',
      detail: { cusercode, assesscode, ...out, target: person.musercode },
    });
    return out;
  },
} satisfies HandlerMap;
