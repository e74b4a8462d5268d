import { and, eq, lt, sql } from 'drizzle-orm';
import type { AnswerInput, FormDefinition, LocalText, RespondentSession, ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx, RespondentCaller } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { AppError, conflict, invalid, notFound } from '../../http/errors.js';
import { DAY_MS, newId, placeholderRow, preparedOnce, rowValues } from '../../kit/index.js';
import type { JobHandlers } from '../../kit/jobs/index.js';
import { openAnswers, sealAnswers } from '../../kit/crypt/index.js';
import { readPngUpload } from '../../kit/upload/image.js';
import { accountNames, admitLinkEntry } from '../accounts/index.js';
import { appsOf } from '../apps/index.js';
import { createPerson, personArchive, personBriefs, updatePersonArchive } from '../persons/index.js';
import { planNames, stageBriefs, stageFormcodes, stagesOfAccount } from '../plans/index.js';
import { conventionChoices, scoreSheet, ScoringError, archiveFormOf, formBriefs, loadCurrentDefinitions, loadDefinition, formsWithoutItemText, lacksItemText, questionsOf } from '../scales/index.js';
import { type CodeState, loadCodeState, readWithToken } from './code-state.js';
import { answerableForms, insertCode } from './codes.js';
import { entrySettingsOf, resolveEntryToken, type EntrySettings } from './entry.js';
import { createRespondentSession } from './respondent-auth.js';
import { assertCodeOpen } from './window.js';
import { assessCode, assessProgress, assessment, codeAttempt } from './tables.js';
import { summaryOf, withoutTexts, withTexts } from './summary.js';
import { assessmentHooks } from './hooks.js';
import { assertStandingAllows, personConsent } from '../consent/index.js';

/**
 * The respondent channel (DESIGN §9): a person answers on a phone with a one-time code or through
 * the institution's QR link. Every step is kept on the server (consent, archive, answers so far),
 * so closing the phone and coming back resumes where it stopped.
 */

type CodeRow = typeof assessCode.$inferSelect;

/** Shown when an institution has not written its own consent (the entry settings of issue 10). */
const DEFAULT_CONSENT: LocalText = {
  zh: '本测评用于了解您近期的心理状况，答案仅供本机构的专业人员查看，将依法保密。测评不是诊断；如结果提示需要关注，工作人员可能会与您联系。请根据最近两周的真实感受作答。您可以随时停止。签名即表示您已阅读并同意以上内容。',
  en: 'This assessment helps us understand how you have been feeling recently. Only the professional staff of this institution see your answers, which are kept confidential as the law requires. It is not a diagnosis; if the result suggests you may need support, staff may contact you. Please answer by how you really felt over the last two weeks. You may stop at any time. By signing you confirm that you have read and agree to this.',
};

/** Always shown after a critical answer (e.g. PHQ-9 item 9), whatever the institution's result setting. */
const CRISIS_TEXT: LocalText = {
  zh: '您的回答提示您最近可能有伤害自己的想法。您并不孤单，帮助就在身边：请尽快告诉一位您信任的人，或拨打全国心理援助热线 12356（24小时）。如有紧急危险，请立即拨打 120 或 110。',
  en: 'Your answers suggest you may recently have had thoughts of harming yourself. You are not alone and help is close: please tell someone you trust as soon as you can, or call the national mental-health helpline 12356 (24 hours). If you are in immediate danger, call 120 or 110 now.',
};

const notInPlan = () => notFound({ zh: '该量表不在您的测评中', en: 'This form is not part of your assessment' });
const alreadySubmitted = () => conflict({ zh: '该量表已提交，不能重复提交', en: 'This form has already been submitted' });

// ---------- code entry rate limit ----------

/**
 * Code entries are recorded per address (under a transaction lock on it, so parallel entries are
 * counted in order), in flight (`ok` null) until answered: then "ok", or a failure when the answer is
 * that the code does not exist. Only wrong codes count: a class of forty behind one school address
 * entering valid codes, or meeting "already used" and "out of stock", is never slowed; guessing codes
 * is. Entries in flight count too, beyond a room's worth (codeEntriesInFlightPerAddress), so a burst
 * of parallel guesses tries at most that many more codes than the limit before its failures count.
 *
 * Here the entry is recorded (in flight) and the address's failed and in-flight entries before it counted,
 * in one round trip under the address's lock (migration 0043, code_entry_begin); refused beyond
 * the limit. That transaction commits without waiting for its WAL flush: an address's entries queue
 * on its lock, which was held through every flush (25 ms a sign-in at 50 entries in flight from
 * one school address).
 */
async function beginEntry(ctx: Ctx): Promise<{ id: number; refused: boolean }> {
  const since = new Date(ctx.now().getTime() - ctx.config.codeFailureWindowMinutes * 60_000);
  const res = await ctx.db.execute(
    sql`select attempt, failed, in_flight from code_entry_begin(${ctx.ip}, ${ctx.now().toISOString()}::timestamptz, ${since.toISOString()}::timestamptz)`,
  );
  const row = (res as unknown as { rows: { attempt: string | number; failed: string | number; in_flight: string | number }[] }).rows[0]!;
  const failed = Number(row.failed);
  const { codeFailuresPerAddress: limit, codeEntriesInFlightPerAddress: room } = ctx.config;
  return { id: Number(row.attempt), refused: failed >= limit || failed + Number(row.in_flight) >= limit + room };
}

/** Settling an entry commits without waiting for its flush, as its start did (a rate limit's bookkeeping). Prepared: every code entry settles. */
const settleEntry = preparedOnce('code_entry_settle', (db, name) =>
  db
    .update(codeAttempt)
    .set({ ok: sql`${sql.placeholder('ok')}::boolean` })
    .where(and(eq(codeAttempt.id, sql.placeholder('id')), sql`set_config('synchronous_commit', 'off', true) is not null`))
    .prepare(name),
);

const tooManyWrongCodes = () =>
  new AppError('rateLimited', { zh: '测评码输入错误次数过多，请稍后再试', en: 'Too many wrong codes from this address; please try again later' }, 429);

/**
 * Code entries are kept a day, or the failure window if longer: only that window counts them, and
 * an address is personal data, not kept past its use. Without this the table only grew.
 */
export const codeEntryJobs: JobHandlers = {
  'assessments.pruneCodeEntries': {
    every: DAY_MS,
    async run(_payload, ctx) {
      const kept = Math.max(DAY_MS, ctx.config.codeFailureWindowMinutes * 60_000);
      await ctx.db.delete(codeAttempt).where(lt(codeAttempt.at, new Date(ctx.now().getTime() - kept)));
    },
  },
};

/** A wrong code: a code, link token, task or roster entry that does not exist answers "not found". */
const isWrongCode = (e: unknown) => e instanceof AppError && e.codeName === 'notFound';

/**
 * Runs a code entry under the limit (also the QR registration, shop, content and task sign-in).
 * Its attempt stays a failure only when the entry answers that the code does not exist; success,
 * any other refusal, and a refusal by the limit itself (which tried no code) do not count.
 */
export async function limitedEntry<T>(ctx: Ctx, run: () => Promise<T>): Promise<T> {
  const { id, refused } = await beginEntry(ctx);
  const settle = (ok: boolean) => settleEntry(ctx.db).execute({ id, ok });
  if (refused) {
    await settle(true);
    throw tooManyWrongCodes();
  }
  try {
    const out = await run();
    await settle(true);
    return out;
  } catch (e) {
    await settle(!isWrongCode(e));
    throw e;
  }
}

// ---------- where a respondent stands ----------

const textOf = (t: LocalText, lang: Ctx['lang']) => (lang === 'en-US' && t.en ? t.en : t.zh);
const plain = (s: string): LocalText => ({ zh: s, en: s });

/** The respondent's code where it stands: as their token was resolved in this request, else read. */
export async function codeStateOf(db: DbOrTx, r: RespondentCaller): Promise<CodeState> {
  const state = readWithToken(r) ?? (await loadCodeState(db, r.assesscode));
  if (!state) throw new AppError('identityInvalid', { zh: '该测评已被撤回', en: 'This assessment has been withdrawn' });
  return state;
}

export async function codeOf(db: DbOrTx, r: RespondentCaller): Promise<CodeRow> {
  return (await codeStateOf(db, r)).code;
}

const personOf = async (db: DbOrTx, cusercode: string) => (await personBriefs(db, [cusercode])).get(cusercode);
type Person = Awaited<ReturnType<typeof personOf>>;

/**
 * The respondent's code, once their consent allows answering (issue 30 §4): every step of the
 * assessment but reading where they stand and their results is refused (422) without it. With
 * their person, read here for consent and handed on to the step.
 */
async function answerableCode(ctx: Ctx): Promise<CodeState & { person: Person }> {
  const state = await codeStateOf(ctx.db, ctx.respondent!);
  const { cusercode, musercode } = state.code;
  // The consent is read beside the person, not after: it waits for the birth date only at its end.
  const reading = personOf(ctx.db, cusercode);
  const [person, { standing }] = await Promise.all([reading, personConsent(ctx.db, musercode, { cusercode, birthdate: reading.then((p) => p?.birthdate ?? null) }, ctx.now())]);
  assertStandingAllows(standing);
  return { ...state, person };
}

async function reportsOfCode(db: DbOrTx, assesscode: string): Promise<Map<string, string>> {
  const rows = await db.select({ formcode: assessment.formcode, reportid: assessment.assessid }).from(assessment).where(eq(assessment.assesscode, assesscode));
  return new Map(rows.map((r) => [r.formcode, r.reportid]));
}

type Briefs = Awaited<ReturnType<typeof formBriefs>>;

/** Where the respondent stands; `briefs` and `known`: the code's form briefs and its person when the step has read them already. */
async function sessionOf(ctx: Ctx, { code, reports, saved }: CodeState, briefs?: Briefs, known?: Person): Promise<RespondentSession> {
  const db = ctx.db;
  const person = known ?? (await personOf(db, code.cusercode));
  const appid = person?.appid ?? '';
  const [names, plans, stages, forms, settings, archive, { notice, standing }] = await Promise.all([
    accountNames(db, [code.musercode]),
    planNames(db, [code.plancode ?? '']),
    stageBriefs(db, [code.stagecode]),
    briefs ?? formBriefs(db, code.formcodes, ctx.lang),
    entrySettingsOf(db, code.musercode),
    archiveFormOf(db, code.musercode, appid),
    personConsent(db, code.musercode, { cusercode: code.cusercode, birthdate: person?.birthdate ?? null }, ctx.now()),
  ]);
  return {
    assesscode: code.assesscode,
    insname: names.get(code.musercode) ?? '',
    planname: plans.get(code.plancode ?? '') ?? stages.get(code.stagecode)?.stagename ?? '',
    appid,
    realname: person?.realname ?? '',
    consent: { text: settings?.consent ? plain(settings.consent) : DEFAULT_CONSENT, signed: !!code.signedat },
    privacy: { notice: notice.text, version: notice.version, agreed: standing.agreed, minor: standing.minor, guardian: standing.guardian, withdrawn: standing.withdrawn },
    archive: archive ? { formcode: archive.formcode, formname: textOf(archive.definition.formname, ctx.lang), done: !!code.archivedat } : null,
    forms: code.formcodes.map((formcode) => {
      const b = forms.get(formcode);
      const reportid = reports.get(formcode) ?? null;
      return {
        formcode,
        formname: b?.formname ?? formcode,
        formtype: b?.formtype ?? '01',
        questioncount: b?.questioncount ?? 0,
        status: reportid ? ('done' as const) : ('todo' as const),
        savedcount: reportid ? 0 : (saved.get(formcode) ?? 0),
        reportid,
      };
    }),
    finished: code.status === 'finished',
  };
}

/**
 * The last guard against a form without its item text (a code given before the rule, or a form
 * whose text was taken out since): the respondent is told to ask the institution, nothing is
 * shown or scored. Staff get the full reason when they give the plan.
 */
const TEXTLESS_FOR_RESPONDENT = {
  zh: '本次测评中有量表缺少题目文字，暂时不能作答。请联系为你安排测评的机构。',
  en: 'A questionnaire of this assessment is missing its question text, so it cannot be answered yet. Please contact the institution that arranged it.',
};
/** The code's form briefs, refused when one lacks its item text (the briefs then also serve where the respondent stands). */
async function answerableBriefs(ctx: Ctx, formcodes: string[]): Promise<Briefs> {
  const briefs = await formBriefs(ctx.db, formcodes, ctx.lang);
  if ([...briefs.values()].some((b) => b.textless)) invalid(TEXTLESS_FOR_RESPONDENT);
  return briefs;
}

/** The form's current definition, if it is one of the code's forms (and carries its item text). */
async function formOfCode(ctx: Ctx, code: CodeRow, formcode: string): Promise<FormDefinition> {
  if (!code.formcodes.includes(formcode)) return notInPlan();
  const def = (await loadCurrentDefinitions(ctx.db, [formcode])).get(formcode);
  if (def && lacksItemText(def)) invalid(TEXTLESS_FOR_RESPONDENT);
  return def ?? notInPlan();
}

/** Answers to save: each names a question of the form and fits it; a partial sheet is fine. */
function checkPartial(def: FormDefinition, answers: AnswerInput[]) {
  const bad: number[] = [];
  for (const a of answers) {
    const q = def.questions.find((x) => x.no === a.no);
    const n = q?.options.length ?? 0;
    const ok =
      !!q &&
      (q.type === 1
        ? a.option !== undefined && a.option >= 1 && a.option <= n && a.options === undefined
        : q.type === 2
          ? !!a.options && a.options.every((o) => o >= 1 && o <= n) && a.option === undefined
          : a.text !== undefined && a.option === undefined && a.options === undefined);
    if (!ok) bad.push(a.no);
  }
  if (bad.length) invalid({ zh: `答案无效：第${bad.join('、')}题`, en: `Invalid answers: question${bad.length > 1 ? 's' : ''} ${bad.join(', ')}` });
}

/** The sheet scored with the institution's scoring convention for the form (issue 31 §1). */
function scored(def: FormDefinition, answers: AnswerInput[], conventions: Map<string, string>): ScoreResult {
  const convention = conventions.get(def.formcode);
  try {
    return scoreSheet(def, { answers }, { convention });
  } catch (e) {
    if (e instanceof ScoringError) return invalid(e.msg);
    throw e;
  }
}

/** The report columns kept beside the full score (lists filter and sort on them). */
export function reportColumns(score: ScoreResult) {
  const levels = score.indicators.filter((i) => i.level !== null);
  const top = levels.reduce<(typeof levels)[number] | null>((m, i) => (m === null || (i.level ?? 0) > (m.level ?? 0) ? i : m), null);
  return {
    mentalstate: score.mentalState,
    level: top?.level ?? null,
    colour: top?.colour ?? null,
    warning: score.warnings.length ? 1 : 0,
    voided: score.voided ? 1 : 0,
  };
}

/** The code's row, locked to the transaction's end. */
const lockCode = preparedOnce('code_lock', (db, name) =>
  db.select({ assesscode: assessCode.assesscode }).from(assessCode).where(eq(assessCode.assesscode, sql.placeholder('code'))).for('update').prepare(name),
);

/**
 * After a report is stored: the form's saved answers go, and the code is finished once each of its
 * forms has a report, in one statement. Under the code's row lock and after this report's insert,
 * so the count sees every report of the code (another submission of it locked and committed first).
 */
async function clearAndFinish(tx: DbOrTx, code: CodeRow, formcode: string, now: Date) {
  await finishCode(tx).execute({ code: code.assesscode, formcode, now: now.toISOString(), forms: code.formcodes.length });
}
const finishCode = preparedOnce('code_finish', (db, name) => {
  const code = sql.placeholder('code');
  const cleared = db.$with('cleared').as(
    db
      .delete(assessProgress)
      .where(and(eq(assessProgress.assesscode, code), eq(assessProgress.formcode, sql.placeholder('formcode'))))
      .returning({ assesscode: assessProgress.assesscode }),
  );
  return db
    .with(cleared)
    .update(assessCode)
    .set({ status: 'finished', finishedat: sql`${sql.placeholder('now')}::timestamptz` })
    .where(and(eq(assessCode.assesscode, code), sql`(select count(*) from ${assessment} where ${assessment.assesscode} = ${code}) >= ${sql.placeholder('forms')}`))
    .prepare(name);
});

/** What a submission stores of its report (the rest are the table's defaults). */
const REPORT_COLUMNS = ['assessid', 'formcode', 'version', 'musercode', 'cusercode', 'assesscode', 'plancode', 'stagecode', 'appid', 'answers', 'scores', 'mentalstate', 'level', 'colour', 'warning', 'voided', 'createdat'] as const;
type ReportRow = Pick<typeof assessment.$inferInsert, (typeof REPORT_COLUMNS)[number]>;

/** Stores a report unless its code already has one of the form (the unique index (assesscode, formcode) is the last word). */
const insertReport = preparedOnce('report_insert', (db, name) =>
  db
    .insert(assessment)
    .values(placeholderRow(REPORT_COLUMNS))
    .onConflictDoNothing({ target: [assessment.assesscode, assessment.formcode] })
    .returning({ id: assessment.assessid })
    .prepare(name),
);
const storeReport = async (tx: DbOrTx, row: ReportRow) => (await insertReport(tx).execute(rowValues(REPORT_COLUMNS, [row]))).length > 0;

/** Starts (or resumes) a code: marks it started and opens a respondent session (one statement). */
async function open(ctx: Ctx, db: DbOrTx, code: CodeRow): Promise<string> {
  return createRespondentSession(db, ctx.now(), code.assesscode, code.status === 'issued');
}

async function entryOf(ctx: Ctx, entrytoken: string): Promise<EntrySettings> {
  const entry = await resolveEntryToken(ctx.db, entrytoken);
  return entry ?? notFound({ zh: '二维码已失效，请向机构索取新的二维码', en: 'This QR code is no longer valid; please ask the institution for a new one' });
}

/**
 * The stages a QR entry offers for an app: the ones it names, else all the institution's (own or
 * given); never a stage holding a form without its item text (nobody could answer it).
 */
async function offeredStages(ctx: Ctx, entry: EntrySettings, appid: string) {
  const usable = (await stagesOfAccount(ctx.db, entry.musercode)).filter((s) => s.appid === appid).map((s) => s.stagecode);
  const chosen = entry.stagecodes.length ? usable.filter((s) => entry.stagecodes.includes(s)) : usable;
  const names = await stageBriefs(ctx.db, chosen);
  const offered: { stagecode: string; stagename: string }[] = [];
  for (const stagecode of chosen.filter((s) => names.has(s))) {
    if (!(await formsWithoutItemText(ctx.db, await stageFormcodes(ctx.db, stagecode))).length) offered.push({ stagecode, stagename: names.get(stagecode)!.stagename });
  }
  return offered;
}

/**
 * What the group tasks' sign-in has read already when it opens a code: the person (to match the
 * name), and the window of the task that gave the code, judged at this request's `now`.
 */
export interface KnownAtEntry {
  person: Person;
  taskChecked: true;
}

/**
 * Opens a code for its respondent (inside a limited entry): a session token and where they stand.
 * Also the group tasks' sign-in (as.c.task.login), which finds the code from number and name.
 */
export async function startAssessment(ctx: Ctx, assesscode: string, action: string, detail: Record<string, unknown> = {}, known?: KnownAtEntry) {
  const state = await loadCodeState(ctx.db, assesscode);
  if (!state) return notFound({ zh: '测评码不存在，请核对后重新输入', en: 'Unknown assessment code; please check it and try again' });
  const { code } = state;
  await assertCodeOpen(ctx.db, ctx.now(), code, known?.taskChecked);
  if (code.status === 'finished') return conflict({ zh: '该测评码已使用完毕', en: 'This assessment code has already been used' });
  const briefs = await answerableBriefs(ctx, code.formcodes);
  // One statement (open): atomic on its own, so no transaction around it.
  const token = await open(ctx, ctx.db, code);
  // The person the entry matched is the code's own (the task's roster row names both).
  const person = known && known.person?.cusercode === code.cusercode ? known.person : undefined;
  // The entry's audit row and the session's reads go together; the answer waits for both.
  const [session] = await Promise.all([
    sessionOf(ctx, { ...state, code: { ...code, status: code.status === 'issued' ? 'started' : code.status } }, briefs, person),
    ctx.audit({ musercode: code.musercode, action, result: 'ok', detail: { ...detail, assesscode } }),
  ]);
  return { ...session, token };
}

export const respondentHandlers = {
  'as.c.exam.start': async ({ assesscode }, ctx) => limitedEntry(ctx, () => startAssessment(ctx, assesscode, 'as.c.exam.start')),

  'as.c.exam.getEntry': async ({ entrytoken }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx, entrytoken);
      const apps = (await appsOf(ctx.db, entry.musercode)).filter((a) => entry.appids.includes(a.appid));
      return {
        insname: (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '',
        title: entry.title,
        welcome: entry.welcome,
        logourl: entry.logourl,
        apps: await Promise.all(
          apps.map(async (a) => ({ appid: a.appid, appname: a.appname, stages: (await offeredStages(ctx, entry, a.appid)).map((s) => ({ stagecode: s.stagecode, stagename: s.stagename })) })),
        ),
      };
    }),

  'as.c.exam.enter': async ({ entrytoken, appid, stagecode, realname, gender, birthdate, phone }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx, entrytoken);
      if (!entry.appids.includes(appid)) invalid({ zh: '该二维码不提供此人群的测评', en: 'This QR code does not offer assessments for this population' });
      if (!(await offeredStages(ctx, entry, appid)).some((s) => s.stagecode === stagecode)) notFound({ zh: '该测评阶段不可选', en: 'This assessment stage is not offered' });
      const formcodes = await answerableForms(ctx.db, await stageFormcodes(ctx.db, stagecode), ctx.lang);
      if (!formcodes.length) invalid({ zh: '该测评阶段没有可作答的量表', en: 'This stage has no form to answer' });
      const { code, token } = await ctx.db.transaction(async (tx) => {
        // Capped per address and per link (refused: nobody is registered), and recorded so staff can undo a burst.
        const admitted = await admitLinkEntry(tx, ctx, { entrytoken, musercode: entry.musercode });
        const { cusercode } = await createPerson(tx, { musercode: entry.musercode, appid, realname, gender, birthdate: birthdate ?? null, phonenumber: phone ?? null, source: 'qrcode', now: ctx.now() });
        await admitted.record(cusercode);
        const assesscode = await insertCode(tx, { musercode: entry.musercode, cusercode, plancode: null, stagecode, authid: null, formcodes, createdby: 'qrcode', now: ctx.now() });
        const [row] = await tx.select().from(assessCode).where(eq(assessCode.assesscode, assesscode));
        return { code: row!, token: await open(ctx, tx, row!) };
      });
      await ctx.audit({ musercode: entry.musercode, result: 'ok', detail: { cusercode: code.cusercode, assesscode: code.assesscode, stagecode } });
      // A code made just now: no reports, nothing saved.
      return { ...(await sessionOf(ctx, { code: { ...code, status: 'started' }, reports: new Map(), saved: new Map() })), token };
    }),

  'as.c.exam.getSession': async (_input, ctx) => sessionOf(ctx, await codeStateOf(ctx.db, ctx.respondent!)),

  'as.c.exam.sign': async ({ signature }, ctx) => {
    const { code } = await answerableCode(ctx);
    const png = readPngUpload(signature);
    await ctx.db.update(assessCode).set({ signature: png.toString('base64'), signedat: ctx.now() }).where(eq(assessCode.assesscode, code.assesscode));
    await ctx.audit({ musercode: code.musercode, result: 'ok', detail: { assesscode: code.assesscode, bytes: png.length } });
    return null;
  },

  'as.c.exam.getArchiveForm': async (_input, ctx) => {
    const { code, person } = await answerableCode(ctx);
    const form = person ? await archiveFormOf(ctx.db, code.musercode, person.appid) : null;
    if (!form) return null;
    return {
      formcode: form.formcode,
      formname: form.definition.formname,
      formtype: form.definition.formtype,
      version: form.version,
      instructions: form.definition.instructions,
      questions: questionsOf(form.definition),
      saved: await personArchive(ctx.db, code.cusercode),
    };
  },

  'as.c.exam.saveArchive': async ({ answers }, ctx) => {
    const { code } = await answerableCode(ctx);
    await ctx.db.transaction(async (tx) => {
      await updatePersonArchive(tx, code.cusercode, answers, ctx.now());
      await tx.update(assessCode).set({ archivedat: ctx.now() }).where(eq(assessCode.assesscode, code.assesscode));
    });
    await ctx.audit({ musercode: code.musercode, result: 'ok', detail: { assesscode: code.assesscode, cusercode: code.cusercode } });
    return null;
  },

  'as.c.exam.getForm': async ({ formcode }, ctx) => {
    const { code, reports } = await answerableCode(ctx);
    const def = await formOfCode(ctx, code, formcode);
    if (reports.has(formcode)) alreadySubmitted();
    const [progress] = await ctx.db.select().from(assessProgress).where(and(eq(assessProgress.assesscode, code.assesscode), eq(assessProgress.formcode, formcode)));
    return {
      formcode,
      formname: def.formname,
      formtype: def.formtype,
      version: def.version,
      instructions: def.instructions,
      questions: questionsOf(def),
      saved: openAnswers((progress?.answers ?? []) as AnswerInput[]),
    };
  },

  'as.c.exam.saveProgress': async ({ formcode, answers }, ctx) => {
    const { code } = await answerableCode(ctx);
    const def = await formOfCode(ctx, code, formcode);
    checkPartial(def, answers);
    return ctx.db.transaction(async (tx) => {
      // Locked so two saves of one respondent (two taps in flight) merge rather than overwrite.
      await lockCode(tx).execute({ code: code.assesscode });
      if ((await reportsOfCode(tx, code.assesscode)).has(formcode)) alreadySubmitted();
      const [old] = await tx.select().from(assessProgress).where(and(eq(assessProgress.assesscode, code.assesscode), eq(assessProgress.formcode, formcode)));
      const merged = new Map(openAnswers((old?.answers ?? []) as AnswerInput[]).map((a) => [a.no, a]));
      for (const a of answers) merged.set(a.no, a);
      const list = [...merged.values()].sort((a, b) => a.no - b.no);
      // Free-text answers are sealed at rest (kit/crypt).
      const stored = sealAnswers(list);
      await tx
        .insert(assessProgress)
        .values({ assesscode: code.assesscode, formcode, answers: stored, updatedat: ctx.now() })
        .onConflictDoUpdate({ target: [assessProgress.assesscode, assessProgress.formcode], set: { answers: stored, updatedat: ctx.now() } });
      return { savedcount: list.length };
    });
  },

  'as.c.exam.submit': async ({ formcode, answers }, ctx) => {
    const { code } = await codeStateOf(ctx.db, ctx.respondent!);
    const reportid = newId('A');
    // Read together, beside the respondent's standing (checked before anything is stored): no read
    // waits for another, and the kept ones confirm they are current once for all (kit/reference-reads.ts).
    const [{ reports, person }, def, conventions, basis] = await Promise.all([
      answerableCode(ctx),
      formOfCode(ctx, code, formcode),
      conventionChoices(ctx.db, code.musercode),
      assessmentHooks().warnings.basisOf(ctx.db, { assessid: reportid, musercode: code.musercode, cusercode: code.cusercode, formcode, createdat: ctx.now() }),
    ]);
    if (reports.has(formcode)) alreadySubmitted();
    const score = scored(def, answers, conventions);
    await ctx.db.transaction(async (tx) => {
      const [locked] = await lockCode(tx).execute({ code: code.assesscode });
      if (!locked) throw new AppError('identityInvalid', { zh: '该测评已被撤回', en: 'This assessment has been withdrawn' });
      const stored = await storeReport(tx, {
        assessid: reportid,
        formcode,
        version: def.version,
        musercode: code.musercode,
        cusercode: code.cusercode,
        assesscode: code.assesscode,
        plancode: code.plancode ?? '',
        stagecode: code.stagecode,
        appid: person?.appid ?? '',
        answers: sealAnswers(answers),
        scores: withoutTexts(score),
        ...reportColumns(score),
        createdat: ctx.now(),
      });
      if (!stored) alreadySubmitted();
      await assessmentHooks().reports.storeIndicators(tx, reportid, def, score);
      // A custom report keeps the template version of the day it was scored (issue 31 §4).
      await assessmentHooks().reports.keepTemplateVersion?.(tx, { reportid, appid: person?.appid ?? '', plancode: code.plancode ?? '', formcode }, ctx.now());
      await assessmentHooks().warnings.forReport(tx, { assessid: reportid, musercode: code.musercode, cusercode: code.cusercode, formcode, stagecode: code.stagecode, createdat: ctx.now(), score }, basis);
      await clearAndFinish(tx, code, formcode, ctx.now());
    });
    await ctx.audit({ musercode: code.musercode, result: 'ok', detail: { assesscode: code.assesscode, formcode, reportid, warning: score.warnings.length > 0 } });
    return { reportid };
  },

  'as.c.exam.getResult': async ({ reportid }, ctx) => {
    const code = await codeOf(ctx.db, ctx.respondent!);
    const [row] = await ctx.db.select().from(assessment).where(and(eq(assessment.assessid, reportid), eq(assessment.assesscode, code.assesscode)));
    if (!row) return notFound({ zh: '报告不存在', en: 'No such report' });
    const settings = await entrySettingsOf(ctx.db, code.musercode);
    const def = await loadDefinition(ctx.db, row.formcode, row.version);
    const score = withTexts(row.scores as ScoreResult, def);
    // A report staff have hidden (as.m.cuser.showOrHiddenReport) shows nothing; the crisis text stays.
    const shown = settings?.showresult === 1 && row.hidden === 0;
    const critical = score.warnings.some((w) => w.source === 'critical');
    const hotline = settings?.hotline ? { zh: `\n本机构心理援助电话：${settings.hotline}`, en: `\nThis institution’s helpline: ${settings.hotline}` } : { zh: '', en: '' };
    const result = {
      reportid,
      formname: def.formname,
      shown,
      mentalstate: shown ? row.mentalstate : null,
      indicators: shown ? summaryOf(score) : [],
      crisis: critical ? { zh: CRISIS_TEXT.zh + hotline.zh, en: CRISIS_TEXT.en + hotline.en } : null,
      written: await assessmentHooks().reports.approvedForPerson(ctx.db, code.cusercode),
    };
    const view = assessmentHooks().reports.respondentView;
    const report = { reportid, appid: row.appid, plancode: row.plancode, formcode: row.formcode, codes: score.indicators.map((i) => i.code) };
    return view ? view(ctx.db, report, ctx.now(), result) : result;
  },
} satisfies HandlerMap;
