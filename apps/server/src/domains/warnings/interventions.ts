import { and, asc, count, desc, gte, lte, sql } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { paged } from '../../kit/index.js';
import { ownedBy } from '../accounts/index.js';
import { followRows } from './follow-ups.js';
import { followUp, warnCase } from './tables.js';

const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);

/** The intervention record (hospital statistics): follow-ups of a period, and the cases opened in it by state and outcome. */
export const interventionHandlers = {
  'as.m.hospital.statistic.getInterfereRecord': async ({ musercode, startdate, enddate, page, pageSize }, ctx) => {
    const scope = ownedBy(ctx, followUp.musercode, musercode || undefined);
    const where = and(
      scope,
      startdate ? gte(followUp.followdate, startdate) : undefined,
      enddate ? lte(followUp.followdate, enddate) : undefined,
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(followUp).where(where).$dynamic(),
      [desc(followUp.followdate), desc(followUp.createdat), asc(followUp.followid)],
      {
        page,
        pageSize,
      },
    );
    const caseScope = and(
      ownedBy(ctx, warnCase.musercode, musercode || undefined),
      startdate ? gte(warnCase.openedat, dayStart(startdate)) : undefined,
      enddate ? sql`${warnCase.openedat} < ${new Date(dayStart(enddate).getTime() + 86_400_000)}` : undefined,
    );
    const states = await ctx.db
      .select({ state: warnCase.state, level: warnCase.level, outcome: warnCase.outcome, n: count() })
      .from(warnCase)
      .where(caseScope)
      .groupBy(warnCase.state, warnCase.level, warnCase.outcome);
    const sum = (f: (s: (typeof states)[number]) => boolean) => states.filter(f).reduce((a, s) => a + Number(s.n), 0);
    const outcomes: Record<string, number> = {};
    for (const s of states) if (s.outcome) outcomes[s.outcome] = (outcomes[s.outcome] ?? 0) + Number(s.n);
    return {
      total,
      rows: await followRows(ctx, ctx.db, rows),
      cases: {
        total: sum(() => true),
        open: sum((s) => s.state !== 'closed'),
        closed: sum((s) => s.state === 'closed'),
        critical: sum((s) => s.level === 'critical'),
        outcomes,
      },
    };
  },
} satisfies HandlerMap;
