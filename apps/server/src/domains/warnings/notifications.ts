import { and, count, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import type { WarningLevel } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { iso, paged } from '../../kit/index.js';
import { caseInScope } from './cases.js';
import { warnNotice, warnNoticeRead } from './tables.js';

/** Whom a notice is for: every holder of the warning code sees critical ones; administrators (the institution's own account) also see escalations. */
const noticeWhere = (ctx: Ctx): SQL | undefined =>
  and(eq(warnNotice.musercode, ctx.me.musercode), ctx.me.userid ? eq(warnNotice.kind, 'critical') : undefined);
const readerOf = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;
const unreadWhere = (ctx: Ctx) =>
  and(
    noticeWhere(ctx),
    notExists(
      ctx.db
        .select({ x: sql`1` })
        .from(warnNoticeRead)
        .where(and(eq(warnNoticeRead.noticeid, warnNotice.noticeid), eq(warnNoticeRead.reader, readerOf(ctx)))),
    ),
  );

export async function unreadCount(ctx: Ctx): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(warnNotice).where(unreadWhere(ctx));
  return Number(row?.n ?? 0);
}

/** The console notices of critical and escalated cases: how many unread, the list, marking them read. */
export const notificationHandlers = {
  'as.m.warning.getNotificationCount': async (_input, ctx) => ({ unread: await unreadCount(ctx) }),

  'as.m.warning.getNotificationList': async ({ unread, page, pageSize }, ctx) => {
    const where = unread ? unreadWhere(ctx) : noticeWhere(ctx);
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(warnNotice).where(where).$dynamic(),
      [desc(warnNotice.createdat), desc(warnNotice.noticeid)],
      { page, pageSize },
    );
    const read = new Set(
      rows.length
        ? (
            await ctx.db
              .select({ noticeid: warnNoticeRead.noticeid })
              .from(warnNoticeRead)
              .where(
                and(
                  eq(warnNoticeRead.reader, readerOf(ctx)),
                  inArray(
                    warnNoticeRead.noticeid,
                    rows.map((r) => r.noticeid),
                  ),
                ),
              )
          ).map((r) => r.noticeid)
        : [],
    );
    const en = ctx.lang === 'en-US';
    return {
      total,
      rows: rows.map((r) => ({
        noticeid: r.noticeid,
        kind: r.kind as 'critical' | 'escalated',
        caseid: r.caseid,
        level: r.level as WarningLevel,
        text:
          r.kind === 'escalated'
            ? en
              ? `Critical case ${r.caseid} not acknowledged in time`
              : `危机个案 ${r.caseid} 超时未确认，已升级`
            : en
              ? `New critical warning in case ${r.caseid}`
              : `个案 ${r.caseid} 有新的危机预警`,
        read: read.has(r.noticeid),
        createdat: iso(r.createdat),
      })),
    };
  },

  'as.m.warning.markNotificationsRead': async ({ caseid }, ctx) => {
    if (caseid) await caseInScope(ctx, ctx.db, caseid);
    const ids = (
      await ctx.db
        .select({ id: warnNotice.noticeid })
        .from(warnNotice)
        .where(and(unreadWhere(ctx), caseid ? eq(warnNotice.caseid, caseid) : undefined))
    ).map((r) => r.id);
    if (ids.length)
      await ctx.db
        .insert(warnNoticeRead)
        .values(ids.map((noticeid) => ({ noticeid, reader: readerOf(ctx), readat: ctx.now() })))
        .onConflictDoNothing();
    return { unread: await unreadCount(ctx) };
  },
} satisfies HandlerMap;
