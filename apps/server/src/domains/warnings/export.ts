import { desc, inArray } from 'drizzle-orm';
import { enumLabel, WarningKindName, WarningLevelName } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import { offsetOf } from '../../kit/index.js';
import { streamXlsx, XLSX_TYPE } from '../../kit/xlsx.js';
import { caseOrder, caseRows, caseWhere, checkCaseFilters, formNames, warningRowOf } from './cases.js';
import { stateText } from './case-state.js';
import { warnCase, warning } from './tables.js';

/** The warnings of the listed cases as a spreadsheet, a row per warning. */
export const exportHandlers = {
  'as.m.exam.exportCUserWarningDetailData': async (filters, ctx) => {
    await checkCaseFilters(ctx, filters);
    const where = caseWhere(ctx, filters);
    await ctx.audit({ result: 'ok', detail: { filters } });
    const en = ctx.lang === 'en-US';
    const header = en
      ? [
          'Case',
          'Institution',
          'Person',
          'Case level',
          'State',
          'Assignee',
          'Opened',
          'Warning level',
          'Kind',
          'Reason',
          'Form',
          'Raised at',
        ]
      : ['个案', '机构', '测评对象', '个案等级', '状态', '负责人', '开案时间', '预警等级', '类型', '原因', '量表', '预警时间'];
    const out = streamXlsx(en ? 'Warnings' : '预警明细', header, async (add) => {
      for (let page = 1; ; page++) {
        const cases = await ctx.db
          .select()
          .from(warnCase)
          .where(where)
          .orderBy(...caseOrder)
          .limit(500)
          .offset(offsetOf({ page, pageSize: 500 }));
        const rows = await caseRows(ctx, ctx.db, cases);
        const warnings = cases.length
          ? await ctx.db
              .select()
              .from(warning)
              .where(
                inArray(
                  warning.caseid,
                  cases.map((c) => c.caseid),
                ),
              )
              .orderBy(desc(warning.createdat))
          : [];
        const names = await formNames(
          ctx,
          ctx.db,
          warnings.map((w) => w.formcode),
        );
        await add(
          rows.flatMap((r) =>
            warnings
              .filter((x) => x.caseid === r.caseid)
              .map((w) => {
                const wr = warningRowOf(ctx, w, names);
                return [
                  r.caseid,
                  r.insname,
                  r.realname,
                  levelText(r.level, en),
                  stateText(r.state, en),
                  r.assigneename,
                  r.openedat,
                  levelText(wr.level, en),
                  enumLabel(WarningKindName, wr.kind, en ? 'en-US' : 'zh-CN'),
                  wr.reason,
                  wr.formname,
                  wr.createdat,
                ];
              }),
          ),
        );
        if (cases.length < 500) break;
      }
    });
    return { filename: en ? 'warnings.xlsx' : '预警明细.xlsx', contentType: XLSX_TYPE, body: out };
  },
} satisfies HandlerMap;

const levelText = (l: string, en: boolean) => enumLabel(WarningLevelName, l, en ? 'en-US' : 'zh-CN');
