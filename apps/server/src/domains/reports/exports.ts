/**
 * The three report exports (SPEC §7 exportCUserExamData, exportCUserDetailData,
 * exportCUserStatData): the reports under the same filter as the list (reportFilterWhere), as
 * .xlsx streamed with the kit's writer. Reports are read in keyset batches (newest first), so
 * a million rows never sit in memory; every cell is escaped; an empty result is a file with its
 * headers. Each export is audited with its filter.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  enumLabel,
  INSTITUTION_TIME_ZONE,
  levelWord,
  timeInZone,
  MentalState,
  type Lang,
  type ReportFilter,
  type ReportRow,
} from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { streamXlsx, todayIn, XLSX_TYPE } from '../../kit/index.js';
import { loadCurrentDefinitions } from '../scales/index.js';
import { definitionCache, itemsOf } from './actions.js';
import { reportFilterWhere } from './filter.js';
import { reportRowColumns, rowsOut, type AssessmentRow } from './reports.js';
import { assessmentIndicator, report } from './tables.js';

/** Reports read per round trip. */
const BATCH = 1000;

const zhEn = (lang: Lang, zh: string, en: string) => (lang === 'en-US' ? en : zh);
const pick = (lang: Lang, t: { zh: string; en: string }) => (lang === 'en-US' && t.en ? t.en : t.zh);

/**
 * The reports under `where`, newest first, batch by batch. Keyset on (createdat, assessid): the
 * instant is carried as PostgreSQL's own text so no microsecond is lost on the way through JS.
 */
async function* batches(db: DbOrTx, where: SQL, withAnswers: boolean, size = BATCH) {
  const columns = withAnswers ? { ...reportRowColumns, answers: report.answers, scores: report.scores } : reportRowColumns;
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const rows = (await db
      .select({ ...columns, _at: sql<string>`${report.createdat}::text` })
      .from(report)
      .where(after ? and(where, sql`(${report.createdat}, ${report.assessid}) < (${after.at}::timestamptz, ${after.id})`) : where)
      .orderBy(desc(report.createdat), desc(report.assessid))
      .limit(size)) as (AssessmentRow & { _at: string })[];
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { at: last._at, id: last.assessid };
  }
}

const genderText = (g: string, lang: Lang) => (g === '01' ? zhEn(lang, '男', 'Male') : g === '02' ? zhEn(lang, '女', 'Female') : '');
/** Report times in the institution's zone, as the console shows them. */
const localTime = (isoAt: string) => timeInZone(isoAt, INSTITUTION_TIME_ZONE, true);

/** The columns every report export starts with. */
const reportHead = (lang: Lang) =>
  lang === 'en-US'
    ? ['Report', 'Name', 'Gender', 'Institution', 'App', 'Plan', 'Stage', 'Form', 'Version', 'Time (UTC+8)']
    : ['报告编号', '姓名', '性别', '机构', '人群', '测评计划', '测评阶段', '量表', '版本', '测评时间'];
const reportCells = (r: ReportRow, lang: Lang) => [
  r.reportid,
  r.realname,
  genderText(r.gender, lang),
  r.insname,
  r.appname,
  r.planname,
  r.stagename,
  r.formname,
  r.version,
  localTime(r.createdat),
];

function fileName(lang: Lang, ctx: Ctx, zh: string, en: string) {
  return `${zhEn(lang, zh, en)}-${todayIn(ctx.now())}.xlsx`;
}

async function audited(ctx: Ctx, action: string, filter: ReportFilter) {
  await ctx.audit({ action, result: 'ok', detail: { filter } });
}

export const reportExportHandlers = {
  'as.m.exam.exportCUserExamData': async (f, ctx) => {
    const where = await reportFilterWhere(ctx, f);
    const lang = ctx.lang;
    await audited(ctx, 'as.m.exam.exportCUserExamData', f);
    const head = [
      ...reportHead(lang),
      ...(lang === 'en-US' ? ['Item', 'Question', 'Answer', 'Item score'] : ['题号', '题目', '答案', '题目得分']),
    ];
    const body = streamXlsx(zhEn(lang, '作答明细', 'Item answers'), head, async (add) => {
      const defOf = definitionCache(ctx.db);
      // Item rows are many per report: fewer reports per batch keeps a batch's cells bounded.
      for await (const rows of batches(ctx.db, where, true, 200)) {
        const out = await rowsOut(ctx.db, rows, lang);
        const lines: unknown[][] = [];
        for (const [i, r] of rows.entries()) {
          const def = await defOf(r.formcode, r.version);
          const questions = new Map(def.questions.map((q) => [q.no, q.text]));
          for (const a of await itemsOf(def, r, lang))
            lines.push([
              ...reportCells(out[i]!, lang),
              a.no,
              pick(lang, questions.get(a.no) ?? { zh: '', en: '' }),
              a.answer,
              a.score ?? '',
            ]);
        }
        await add(lines);
      }
    });
    return { filename: fileName(lang, ctx, '作答明细', 'item-answers'), contentType: XLSX_TYPE, body };
  },

  'as.m.exam.exportCUserDetailData': async (f, ctx) => {
    const where = await reportFilterWhere(ctx, f);
    const lang = ctx.lang;
    // Every indicator the reports under the filter have, as a pair of columns (score, level).
    const pairs = await ctx.db
      .selectDistinct({ formcode: assessmentIndicator.formcode, code: assessmentIndicator.code })
      .from(assessmentIndicator)
      .innerJoin(report, eq(report.assessid, assessmentIndicator.assessid))
      .where(where)
      .orderBy(asc(assessmentIndicator.formcode), asc(assessmentIndicator.code));
    const defs = await loadCurrentDefinitions(ctx.db, [...new Set(pairs.map((p) => p.formcode))]);
    const oneForm = new Set(pairs.map((p) => p.formcode)).size <= 1;
    const title = (p: { formcode: string; code: string }) => {
      const def = defs.get(p.formcode);
      const ind = def?.indicators.find((i) => i.code === p.code);
      const name = ind ? pick(lang, ind.name) : p.code;
      return oneForm || !def ? name : `${pick(lang, def.formname)} ${name}`;
    };
    const column = new Map(pairs.map((p, i) => [`${p.formcode}\u0000${p.code}`, i]));
    await audited(ctx, 'as.m.exam.exportCUserDetailData', f);
    const head = [
      ...reportHead(lang),
      ...(lang === 'en-US'
        ? ['Mental state', 'Highest level', 'Warning', 'Hidden from respondent']
        : ['心理状态', '最高等级', '预警', '对受测者隐藏']),
      ...pairs.flatMap((p) => [`${title(p)} ${zhEn(lang, '得分', 'score')}`, `${title(p)} ${zhEn(lang, '等级', 'level')}`]),
    ];
    const yes = zhEn(lang, '是', 'Yes');
    const no = zhEn(lang, '否', 'No');
    const body = streamXlsx(zhEn(lang, '报告明细', 'Reports'), head, async (add) => {
      for await (const rows of batches(ctx.db, where, false)) {
        const [out, inds] = await Promise.all([
          rowsOut(ctx.db, rows, lang),
          ctx.db
            .select()
            .from(assessmentIndicator)
            .where(
              inArray(
                assessmentIndicator.assessid,
                rows.map((r) => r.assessid),
              ),
            ),
        ]);
        const byReport = new Map<string, unknown[]>();
        for (const i of inds) {
          const at = column.get(`${i.formcode}\u0000${i.code}`);
          if (at === undefined) continue;
          const cells =
            byReport.get(i.assessid) ?? byReport.set(i.assessid, new Array<unknown>(pairs.length * 2).fill('')).get(i.assessid)!;
          cells[at * 2] = i.score;
          cells[at * 2 + 1] = levelWord(i.level, lang);
        }
        await add(
          out.map((r) => [
            ...reportCells(r, lang),
            enumLabel(MentalState, r.mentalstate, lang),
            levelWord(r.level, lang),
            r.warning ? yes : no,
            r.hidden ? yes : no,
            ...(byReport.get(r.reportid) ?? new Array<unknown>(pairs.length * 2).fill('')),
          ]),
        );
      }
    });
    return { filename: fileName(lang, ctx, '报告明细', 'reports'), contentType: XLSX_TYPE, body };
  },

  'as.m.exam.exportCUserStatData': async (f, ctx) => {
    const where = await reportFilterWhere(ctx, f);
    const lang = ctx.lang;
    const rows = await ctx.db
      .select({ formcode: assessmentIndicator.formcode, code: assessmentIndicator.code, level: assessmentIndicator.level, n: count() })
      .from(assessmentIndicator)
      .innerJoin(report, eq(report.assessid, assessmentIndicator.assessid))
      .where(where)
      .groupBy(assessmentIndicator.formcode, assessmentIndicator.code, assessmentIndicator.level)
      .orderBy(asc(assessmentIndicator.formcode), asc(assessmentIndicator.code));
    const defs = await loadCurrentDefinitions(ctx.db, [...new Set(rows.map((r) => r.formcode))]);
    await audited(ctx, 'as.m.exam.exportCUserStatData', f);
    const levels = [0, 1, 2, 3, 4];
    const head = [
      ...(lang === 'en-US' ? ['Form', 'Indicator', 'Reports'] : ['量表', '指标', '报告数']),
      ...levels.map((l) => levelWord(l, lang)),
      zhEn(lang, '无分段', 'No band'),
    ];
    // Indicators in the order of the current form version; indicators it no longer has come last.
    const keyed = new Map<string, { formcode: string; code: string; counts: Map<number | null, number> }>();
    for (const r of rows) {
      const key = `${r.formcode}\u0000${r.code}`;
      const e = keyed.get(key) ?? keyed.set(key, { formcode: r.formcode, code: r.code, counts: new Map() }).get(key)!;
      e.counts.set(r.level, Number(r.n));
    }
    const order = (e: { formcode: string; code: string }) => {
      const at = defs.get(e.formcode)?.indicators.findIndex((i) => i.code === e.code) ?? -1;
      return at < 0 ? 1e6 : at;
    };
    const lines = [...keyed.values()]
      .sort((a, b) => a.formcode.localeCompare(b.formcode) || order(a) - order(b) || a.code.localeCompare(b.code))
      .map((e) => {
        const def = defs.get(e.formcode);
        const ind = def?.indicators.find((i) => i.code === e.code);
        const total = [...e.counts.values()].reduce((s, n) => s + n, 0);
        return [
          def ? pick(lang, def.formname) : e.formcode,
          ind ? pick(lang, ind.name) : e.code,
          total,
          ...levels.map((l) => e.counts.get(l) ?? 0),
          e.counts.get(null) ?? 0,
        ];
      });
    const body = streamXlsx(zhEn(lang, '等级统计', 'Level counts'), head, (add) => add(lines));
    return { filename: fileName(lang, ctx, '报告统计', 'report-stats'), contentType: XLSX_TYPE, body };
  },
} satisfies HandlerMap;
