import { and, desc, eq, inArray } from 'drizzle-orm';
import type { GroupSummary } from '@xinli/contract';
import type { DbOrTx } from '../../../db/database.js';
import { iso } from '../../../kit/index.js';
import { enqueue, JobFailure, type JobDefinition } from '../../../kit/jobs/index.js';
import { task } from '../tables.js';
import { buildGroupReport, targetOf } from './data.js';
import { groupSummary, type GroupSummaryRow } from './tables.js';
import { GROUP_RULES_MODEL, groupWriterInput, writeGroupByLlm, writeGroupByRules } from './writer.js';

export const GROUP_SUMMARY_JOB = 'group-summary';
/** One automatic retry for a passing endpoint fault, as the individual report. */
const ATTEMPTS = 2;

const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

/** The latest summary of a task and team ('' for the whole task), or null. */
export async function latestSummary(db: DbOrTx, taskid: string, teamid: string): Promise<GroupSummaryRow | null> {
  const [row] = await db
    .select()
    .from(groupSummary)
    .where(and(eq(groupSummary.taskid, taskid), eq(groupSummary.teamid, teamid)))
    .orderBy(desc(groupSummary.createdat), desc(groupSummary.summaryid))
    .limit(1);
  return row ?? null;
}

export const summaryOut = (r: GroupSummaryRow): GroupSummary => ({
  summaryid: r.summaryid,
  state: r.state,
  writer: r.writer,
  model: r.model,
  lang: r.lang,
  sections: r.sections,
  error: r.error,
  createdat: iso(r.createdat),
  createdby: r.createdby,
  writtenat: isoOrNull(r.writtenat),
  approvedat: isoOrNull(r.approvedat),
  approvedby: r.approvedby,
});

/** Queues a summary and its job in the caller's transaction; null when one is already queued or being written. */
export async function queueSummary(tx: DbOrTx, row: typeof groupSummary.$inferInsert, now: Date): Promise<string | null> {
  const [made] = await tx.insert(groupSummary).values(row).onConflictDoNothing().returning({ summaryid: groupSummary.summaryid });
  if (!made) return null;
  const { id } = await enqueue(tx, GROUP_SUMMARY_JOB, { summaryid: made.summaryid }, { now, maxAttempts: ATTEMPTS });
  await tx.update(groupSummary).set({ jobid: id }).where(eq(groupSummary.summaryid, made.summaryid));
  return made.summaryid;
}

const stillWriting = (summaryid: string) => and(eq(groupSummary.summaryid, summaryid), eq(groupSummary.state, 'writing'));

/**
 * The job that writes one summary: the group report's figures as they are now, reduced to the
 * writer's aggregates, then the text stored as a draft in one update (never half a text).
 */
export const groupSummaryJob: JobDefinition<{ summaryid: string }> = {
  lane: 'long',
  async run({ summaryid }, ctx) {
    const [row] = await ctx.db.select().from(groupSummary).where(eq(groupSummary.summaryid, summaryid));
    if (!row || (row.state !== 'queued' && row.state !== 'writing')) return;
    await ctx.db.update(groupSummary).set({ state: 'writing' }).where(eq(groupSummary.summaryid, summaryid));
    try {
      const [t] = await ctx.db.select().from(task).where(eq(task.taskid, row.taskid));
      if (!t) throw new JobFailure('the task no longer exists', false);
      const report = await buildGroupReport(ctx.db, await targetOf(ctx.db, t, row.teamid || null), row.lang);
      const input = groupWriterInput(report, row.lang);
      await ctx.progress(30);
      const llm = ctx.config.aiReport;
      if (row.writer === 'llm' && !llm) throw new JobFailure('the AI writer is not configured on this server', false);
      const sections = row.writer === 'llm' ? await writeGroupByLlm(input, llm!, ctx.config.aiMinCell, ctx.signal) : writeGroupByRules(input);
      await ctx.db
        .update(groupSummary)
        .set({ state: 'draft', sections, model: row.writer === 'llm' ? llm!.model : GROUP_RULES_MODEL, writtenat: ctx.now(), error: null })
        .where(stillWriting(summaryid));
    } catch (err) {
      await ctx.db
        .update(groupSummary)
        .set({ state: 'queued', error: err instanceof JobFailure ? err.message : 'the writer failed' })
        .where(stillWriting(summaryid));
      throw err;
    }
  },
  async failed({ summaryid }, ctx, error) {
    await ctx.db
      .update(groupSummary)
      .set({ state: 'failed', error: error.slice(0, 500) })
      .where(and(eq(groupSummary.summaryid, summaryid), inArray(groupSummary.state, ['queued', 'writing'])));
  },
};
