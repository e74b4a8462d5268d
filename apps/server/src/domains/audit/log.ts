import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { actionTitle, AuditResult, type ActionParsedInput, type AuditRow } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { iso, offsetOf, paged, streamXlsx, XLSX_TYPE } from '../../kit/index.js';
import { accountNames, accountOfSignInName, ownedBy } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { staffNames, staffUserOfSignInName } from '../system/index.js';
import { verifyChain } from './chain.js';
import { auditLog } from './tables.js';

type AuditFilters = Omit<ActionParsedInput<'as.m.audit.getAuditPage'>, 'page' | 'pageSize'>;
type AuditRecord = typeof auditLog.$inferSelect;

/** The most rows one export holds (SPEC: exports are row-capped); narrow the filters for more. */
const EXPORT_CAP = 100_000;
const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);
/** Detail keys that name objects (ids and codes), shown in the list's object column. */
const OBJECT_KEY = /(id|ids|code|codes|target)$/i;

/** Who an `account` filter names: its sign-in name (an account's or a staff user's) or code. */
async function accountWhere(ctx: Ctx, account: string | undefined): Promise<SQL | undefined> {
  if (!account) return undefined;
  const [staff, owner] = await Promise.all([staffUserOfSignInName(ctx.db, account), accountOfSignInName(ctx.db, account)]);
  return or(
    eq(auditLog.musercode, account),
    eq(auditLog.userid, account),
    eq(auditLog.actor, account),
    staff ? eq(auditLog.userid, staff.userid) : undefined,
    owner ? and(eq(auditLog.musercode, owner.musercode), sql`${auditLog.userid} is null`) : undefined,
  );
}

async function auditWhere(ctx: Ctx, f: AuditFilters): Promise<SQL | undefined> {
  if (f.datefrom && f.dateto && f.datefrom > f.dateto) invalid({ zh: '开始日期不能晚于结束日期', en: 'The start date cannot be after the end date' });
  return and(
    ownedBy(ctx, auditLog.musercode, f.musercode),
    f.datefrom ? gte(auditLog.at, chinaMidnight(f.datefrom)) : undefined,
    f.dateto ? lt(auditLog.at, chinaMidnight(f.dateto, 1)) : undefined,
    await accountWhere(ctx, f.account),
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.result ? eq(auditLog.result, f.result) : undefined,
    // An id anywhere in the detail: jsonb's text, the term literal (no LIKE patterns from the caller).
    f.object ? sql`strpos(${auditLog.detail}::text, ${f.object}) > 0` : undefined,
    f.ip ? sql`starts_with(${auditLog.ip}, ${f.ip})` : undefined,
  );
}

/** The ids and codes an entry's detail names, for the list (the whole detail is in the entry). */
export function objectsOf(detail: Record<string, unknown>): string {
  const values = Object.entries(detail)
    .filter(([key]) => OBJECT_KEY.test(key))
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  const text = values.join(', ');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

async function rowsOut(ctx: Ctx, records: AuditRecord[]): Promise<AuditRow[]> {
  const [names, staff] = await Promise.all([
    accountNames(ctx.db, records.map((r) => r.musercode).filter(Boolean)),
    staffNames(ctx.db, records.flatMap((r) => (r.userid ? [r.userid] : []))),
  ]);
  return records.map((r) => ({
    auditid: r.hash,
    seq: r.seq,
    at: iso(r.at),
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    userid: r.userid ?? '',
    username: r.userid ? (staff.get(r.userid) ?? '') : '',
    actor: r.actor ?? '',
    action: r.action,
    result: r.result as AuditRow['result'],
    objects: objectsOf(r.detail),
    ip: r.ip,
  }));
}

const resultText = (result: AuditRow['result'], en: boolean) => {
  const item = AuditResult.find((i) => i.value === result)!;
  return en ? item.en : item.zh;
};

/** The audit log page: the list, one entry, the export (itself audited) and the chain check. */
export const logHandlers = {
  'as.m.audit.getAuditPage': async ({ page, pageSize, ...f }, ctx) => {
    const query = ctx.db.select().from(auditLog).where(await auditWhere(ctx, f)).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(auditLog.seq)], { page, pageSize });
    return { total, rows: await rowsOut(ctx, rows) };
  },

  'as.m.audit.getAuditEntry': async ({ auditid }, ctx) => {
    const [record] = await ctx.db.select().from(auditLog).where(and(eq(auditLog.hash, auditid), scopeWhere(auditLog.musercode, ctx.me)));
    if (!record) notFound();
    const [row] = await rowsOut(ctx, [record!]);
    return { ...row!, requestid: record!.requestid, detail: record!.detail, prevhash: record!.prevhash, hash: record!.hash };
  },

  'as.m.audit.exportAudit': async (f, ctx) => {
    const where = await auditWhere(ctx, f);
    const en = ctx.lang === 'en-US';
    const header = en
      ? ['No.', 'Time (UTC)', 'Institution', 'Staff user', 'Acting provider', 'Action', 'Action name', 'Outcome', 'Objects', 'Address', 'Request', 'Hash']
      : ['序号', '时间（UTC）', '机构', '用户', '代登录服务商', '操作', '操作标识', '结果', '对象', 'IP 地址', '请求号', '哈希'];
    await ctx.audit({ result: 'ok', detail: { ...f } });
    const body = streamXlsx(en ? 'Audit log' : '审计日志', header, async (add) => {
      for (let page = 1; (page - 1) * 500 < EXPORT_CAP; page++) {
        const records = await ctx.db.select().from(auditLog).where(where).orderBy(desc(auditLog.seq)).limit(500).offset(offsetOf({ page, pageSize: 500 }));
        const rows = await rowsOut(ctx, records);
        await add(
          rows.map((r, i) => {
            const title = actionTitle(r.action);
            return [r.seq, r.at, r.insname || r.musercode, r.username || r.userid, r.actor, en ? title.en : title.zh, r.action, resultText(r.result, en), r.objects, r.ip, records[i]!.requestid, r.auditid];
          }),
        );
        if (records.length < 500) break;
      }
    });
    return { filename: en ? 'audit-log.xlsx' : '审计日志.xlsx', contentType: XLSX_TYPE, body };
  },

  'as.m.audit.verifyAuditChain': async (_input, ctx) => {
    const check = await verifyChain(ctx.db);
    await ctx.audit({ result: 'ok', detail: { whole: check.whole, checked: check.checked, brokenseq: check.broken?.seq ?? null } });
    return check;
  },
} satisfies HandlerMap;
