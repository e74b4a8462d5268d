import { and, eq } from 'drizzle-orm';
import type { HandlerMap } from '../../../http/handlers.js';
import type { Ctx } from '../../../http/context.js';
import { conflict, fail, invalid } from '../../../http/errors.js';
import { newId, todayIn } from '../../../kit/index.js';
import { canMakePdf, NO_CHROMIUM, openPrinter } from '../../reports/index.js';
import { GROUP_RULES_MODEL } from './writer.js';
import { buildGroupReport, groupTarget } from './data.js';
import { groupPdfFooter, renderGroupDocument } from './document.js';
import { latestSummary, queueSummary, summaryOut } from './summary.js';
import { groupSummary } from './tables.js';

/** The AI group report (menu 00043): figures, written summary, printable document and PDF. */

const who = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;

/** The report and its approved summary, for the document and the PDF. */
async function documentOf(ctx: Ctx, taskid: string, teamid: string | undefined) {
  const target = await groupTarget(ctx, ctx.db, taskid, teamid);
  const report = await buildGroupReport(ctx.db, target, ctx.lang);
  const summary = await latestSummary(ctx.db, taskid, teamid ?? '');
  const approved = summary?.state === 'approved' ? summary.sections : null;
  return { report, html: (pageNumbers: boolean) => renderGroupDocument(report, approved, ctx.lang, ctx.now().toISOString(), pageNumbers) };
}

export const groupReportHandlers = {
  'as.m.assess.getGroupReport': async ({ taskid, teamid }, ctx) => {
    const report = await buildGroupReport(ctx.db, await groupTarget(ctx, ctx.db, taskid, teamid), ctx.lang);
    await ctx.audit({
      result: 'ok',
      detail: { taskid, teamid, attention: report.attention.length, target: report.task.musercode },
    });
    return report;
  },

  'as.m.assess.generateGroupSummary': async ({ taskid, teamid, writer = 'rules', lang }, ctx) => {
    const llm = ctx.config.aiReport;
    if (writer === 'llm' && !llm)
      invalid({
        zh: '本服务器未配置 AI 撰写（AI_REPORT_BASE_URL、AI_REPORT_MODEL）',
        en: 'The AI writer is not configured on this server (AI_REPORT_BASE_URL, AI_REPORT_MODEL)',
      });
    const target = await groupTarget(ctx, ctx.db, taskid, teamid);
    const report = await buildGroupReport(ctx.db, target, ctx.lang);
    if (!report.participation.finished) invalid({ zh: '还没有人完成测评，无法撰写摘要', en: 'Nobody has finished yet: there is nothing to summarise' });
    const now = ctx.now();
    const summaryid = await ctx.db.transaction((tx) =>
      queueSummary(
        tx,
        {
          summaryid: newId('GS'),
          musercode: target.task.musercode,
          taskid,
          teamid: teamid ?? '',
          state: 'queued',
          writer,
          model: writer === 'llm' ? llm!.model : GROUP_RULES_MODEL,
          lang: lang ?? ctx.lang,
          createdby: who(ctx),
          createdat: now,
        },
        now,
      ),
    );
    if (!summaryid) conflict({ zh: '该团体报告的摘要正在撰写中', en: 'A summary of this group report is already being written' });
    await ctx.audit({ result: 'ok', detail: { taskid, teamid, writer, summaryid, target: target.task.musercode } });
    return { summaryid: summaryid! };
  },

  'as.m.assess.getGroupSummary': async ({ taskid, teamid }, ctx) => {
    await groupTarget(ctx, ctx.db, taskid, teamid);
    const row = await latestSummary(ctx.db, taskid, teamid ?? '');
    return row ? summaryOut(row) : null;
  },

  'as.m.assess.approveGroupSummary': async ({ taskid, teamid }, ctx) => {
    const target = await groupTarget(ctx, ctx.db, taskid, teamid);
    const row = await latestSummary(ctx.db, taskid, teamid ?? '');
    const done = row
      ? await ctx.db
          .update(groupSummary)
          .set({ state: 'approved', approvedby: who(ctx), approvedat: ctx.now() })
          .where(and(eq(groupSummary.summaryid, row.summaryid), eq(groupSummary.state, 'draft')))
          .returning({ summaryid: groupSummary.summaryid })
      : [];
    if (!done.length) conflict({ zh: '只有草稿可以审核通过', en: 'Only a draft can be approved' });
    await ctx.audit({ result: 'ok', detail: { taskid, teamid, summaryid: row!.summaryid, target: target.task.musercode } });
    return null;
  },

  'as.m.assess.getGroupReportDocument': async ({ taskid, teamid }, ctx) => {
    const doc = await documentOf(ctx, taskid, teamid);
    await ctx.audit({ result: 'ok', detail: { taskid, teamid, target: doc.report.task.musercode } });
    return { html: doc.html(true), pdf: canMakePdf(ctx.config.chromiumPath) };
  },

  'as.m.assess.exportGroupReportPdf': async ({ taskid, teamid }, ctx) => {
    const doc = await documentOf(ctx, taskid, teamid);
    if (!canMakePdf(ctx.config.chromiumPath)) fail('conflict', NO_CHROMIUM);
    const printer = await openPrinter(ctx.config.chromiumPath);
    let body: Buffer;
    try {
      body = await printer.pdf({ html: doc.html(false), footerTemplate: groupPdfFooter(doc.report, ctx.lang) });
    } finally {
      await printer.close();
    }
    await ctx.audit({ result: 'ok', detail: { taskid, teamid, target: doc.report.task.musercode } });
    const name = `${doc.report.task.taskname}-${ctx.lang === 'zh-CN' ? '团体报告' : 'group-report'}-${todayIn(ctx.now())}.pdf`.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_');
    return { filename: name, contentType: 'application/pdf', body };
  },
} satisfies HandlerMap;
