import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Lang, RespondentWritten, ScoreResult, WrittenSections } from '@xinli/contract';
import type { DbOrTx } from '../../../db/database.js';
import { enqueue, JobFailure, type JobDefinition } from '../../../kit/jobs/index.js';
import { todayIn } from '../../../kit/index.js';
import { withTexts } from '../../assessments/index.js';
import { appName, personBriefs } from '../../persons/index.js';
import { formBriefs, loadDefinition } from '../../scales/index.js';
import { writeByLlm } from './llm.js';
import { buildProfile, type SourceReport } from './profile.js';
import { RULES_MODEL, writeByRules } from './rules.js';
import { writtenReport, type WrittenReportRow } from './tables.js';
import { report } from '../tables.js';

export const WRITTEN_JOB = 'written-report';
/** One automatic retry for a passing endpoint fault; after that staff retry by hand. */
const ATTEMPTS = 2;

/** A person's current results: every report not voided, with the texts of the version it was scored on. */
export async function currentReports(db: DbOrTx, cusercode: string, lang: Lang): Promise<SourceReport[]> {
  const rows = await db
    .select()
    .from(report)
    .where(and(eq(report.cusercode, cusercode), eq(report.voided, 0)))
    .orderBy(asc(report.createdat), asc(report.assessid));
  const forms = await formBriefs(db, [...new Set(rows.map((r) => r.formcode))], lang);
  const defs = new Map<string, Awaited<ReturnType<typeof loadDefinition>>>();
  const out: SourceReport[] = [];
  for (const r of rows) {
    const key = `${r.formcode}\u0000${r.version}`;
    if (!defs.has(key)) defs.set(key, await loadDefinition(db, r.formcode, r.version));
    out.push({
      reportid: r.assessid,
      formcode: r.formcode,
      formname: forms.get(r.formcode)?.formname ?? r.formcode,
      createdat: r.createdat,
      mentalstate: r.mentalstate,
      score: withTexts(r.scores as ScoreResult, defs.get(key)!),
    });
  }
  return out;
}

/** Current (not voided) report counts and newest times of persons. */
export async function currentReportCounts(db: DbOrTx, cusercodes: string[]): Promise<Map<string, number>> {
  if (!cusercodes.length) return new Map();
  const rows = await db
    .select({ cusercode: report.cusercode, n: sql<number>`count(*)::int` })
    .from(report)
    .where(and(inArray(report.cusercode, cusercodes), eq(report.voided, 0)))
    .groupBy(report.cusercode);
  return new Map(rows.map((r) => [r.cusercode!, Number(r.n)]));
}

export interface NewWritten {
  musercode: string;
  cusercode: string;
  writer: 'rules' | 'llm';
  model: string;
  lang: 'zh-CN' | 'en-US';
  createdby: string;
  now: Date;
}

/**
 * Queues a written report and its job, in the caller's transaction. Answers null when the person
 * already has one queued or being written (the partial unique index decides, whatever the race).
 */
export async function queueWritten(tx: DbOrTx, w: NewWritten, writtenid: string): Promise<string | null> {
  const [row] = await tx
    .insert(writtenReport)
    .values({
      writtenid,
      musercode: w.musercode,
      cusercode: w.cusercode,
      state: 'queued',
      writer: w.writer,
      model: w.model,
      lang: w.lang,
      createdby: w.createdby,
      createdat: w.now,
    })
    .onConflictDoNothing()
    .returning({ writtenid: writtenReport.writtenid });
  if (!row) return null;
  await attachJob(tx, writtenid, w.now);
  return writtenid;
}

/** A new job for a written report (first try or a retry by hand). */
export async function attachJob(tx: DbOrTx, writtenid: string, now: Date): Promise<void> {
  const { id } = await enqueue(tx, WRITTEN_JOB, { writtenid }, { now, maxAttempts: ATTEMPTS });
  await tx.update(writtenReport).set({ jobid: id }).where(eq(writtenReport.writtenid, writtenid));
}

const stillWriting = (writtenid: string) => and(eq(writtenReport.writtenid, writtenid), eq(writtenReport.state, 'writing'));

/**
 * The background job that writes one report: it reads the person's current results, builds the
 * de-identified profile, asks the writer, and stores the text as a draft in one update. Until that
 * update nothing of the text is stored, so a failure never leaves half a report.
 */
export const writtenReportJob: JobDefinition<{ writtenid: string }> = {
  lane: 'long',
  async run({ writtenid }, ctx) {
    const [row] = await ctx.db.select().from(writtenReport).where(eq(writtenReport.writtenid, writtenid));
    // Deleted with its person, or no longer waiting (nothing to do).
    if (!row || (row.state !== 'queued' && row.state !== 'writing')) return;
    await ctx.db.update(writtenReport).set({ state: 'writing' }).where(eq(writtenReport.writtenid, writtenid));
    try {
      await ctx.progress(10);
      const { sections, used, model } = await compose(ctx.db, row, todayIn(ctx.now()), ctx.config.aiReport, ctx.signal);
      await ctx.progress(90);
      const sources = used.map((r) => ({ reportid: r.reportid, formname: r.formname, createdat: r.createdat.toISOString() }));
      await ctx.db
        .update(writtenReport)
        .set({ state: 'draft', sections, sources, model, writtenat: ctx.now(), error: null })
        .where(stillWriting(writtenid));
    } catch (err) {
      // Back to waiting while the job may still retry; `failed` below settles it after the last attempt.
      await ctx.db
        .update(writtenReport)
        .set({ state: 'queued', error: err instanceof JobFailure ? err.message : 'the writer failed' })
        .where(stillWriting(writtenid));
      throw err;
    }
  },
  async failed({ writtenid }, ctx, error) {
    await ctx.db
      .update(writtenReport)
      .set({ state: 'failed', error: error.slice(0, 500) })
      .where(and(eq(writtenReport.writtenid, writtenid), inArray(writtenReport.state, ['queued', 'writing'])));
  },
};

async function compose(
  db: DbOrTx,
  row: WrittenReportRow,
  today: string,
  llm: Parameters<typeof writeByLlm>[1] | null,
  signal: AbortSignal,
): Promise<{ sections: WrittenSections; used: SourceReport[]; model: string }> {
  const person = (await personBriefs(db, [row.cusercode])).get(row.cusercode);
  if (!person || person.deleted) throw new JobFailure('the person no longer exists', false);
  const reports = await currentReports(db, row.cusercode, row.lang);
  if (!reports.length) throw new JobFailure('the person has no current results', false);
  const facts = { appid: person.appid, population: appName(person.appid, row.lang), gender: person.gender, birthdate: person.birthdate };
  const { input, used } = buildProfile(facts, reports, row.lang, today);
  if (row.writer === 'rules') return { sections: writeByRules(input), used, model: RULES_MODEL };
  if (!llm) throw new JobFailure('the AI writer is not configured on this server', false);
  return { sections: await writeByLlm(input, llm, signal), used, model: llm.model };
}

/** What the respondent sees: the person-facing part of the person's latest approved written report, or null. */
export async function approvedForPerson(db: DbOrTx, cusercode: string): Promise<RespondentWritten | null> {
  const [row] = await db
    .select()
    .from(writtenReport)
    .where(and(eq(writtenReport.cusercode, cusercode), eq(writtenReport.state, 'approved')))
    .orderBy(desc(writtenReport.approvedat), desc(writtenReport.writtenid))
    .limit(1);
  if (!row?.sections || !row.approvedat) return null;
  return { message: row.sections.personmessage, steps: row.sections.personsteps, lang: row.lang, approvedat: row.approvedat.toISOString() };
}
