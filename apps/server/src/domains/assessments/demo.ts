import { DEFAULT_WARNING_SETTINGS, type FormDefinition, type ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { newId, todayIn } from '../../kit/index.js';
import { sealAnswers } from '../../kit/crypt/index.js';
import { DEMO_PERSONS, demoPeople } from '../persons/index.js';
import { planFormcodes, stageFormcodes, usePlanCounts } from '../plans/index.js';
import { scoreSheet, screeningSeverity, seededRandom, severitySheet, loadCurrentDefinitions } from '../scales/index.js';
import { answerableForms, newAssessCode } from './codes.js';
import { reportColumns } from './respondent.js';
import { withoutTexts } from './summary.js';
import { assessCode, assessment } from './tables.js';
import { indicatorRows, storeIndicators } from '../reports/index.js';
import { assessmentHooks } from './hooks.js';

/**
 * Demo reports: every demo person answered one to three assessments of their population's plan
 * (or stage) between registering and today, so lists, archives and trend charts have months of
 * real-looking data on first start. Sheets are scored by the same engine as a respondent's
 * submission, and authorised plans use their count like any code given in the console.
 *
 * Answers follow a screening population (scoring/sheets.ts screeningSeverity): each person has
 * a standing risk, each visit a severity drawn from it, and both forms of a visit are answered to
 * that severity, so about one report in six reads mild or worse and warnings are a minority.
 */
const WHAT: Record<string, { plancode: string | null; stagecodes: string[] }> = {
  I0001: { plancode: 'PL-S1', stagecodes: ['ST-S1'] },
  I0002: { plancode: 'PL-M1', stagecodes: ['ST-M1', 'ST-M2', 'ST-M3', 'ST-M4'] },
  I0003: { plancode: 'PL-E1', stagecodes: ['ST-E1'] },
  // The working adults' institution answers its provider's annual check-up stage directly.
  I0004: { plancode: null, stagecodes: ['ST-W1'] },
};

export async function seedDemoReports(db: DbOrTx, now: Date, cusercodes: string[]) {
  const people = demoPeople(now);
  const rand = seededRandom(20261123);
  const codes: (typeof assessCode.$inferInsert)[] = [];
  const reports: (typeof assessment.$inferInsert)[] = [];
  const indicators: Parameters<typeof storeIndicators>[1] = [];
  const defs = new Map<string, FormDefinition>();
  const formsOf = new Map<string, string[]>();

  for (const [i, cusercode] of cusercodes.entries()) {
    const p = people[i]!;
    const what = WHAT[p.musercode];
    if (!what || !DEMO_PERSONS.some((d) => d.musercode === p.musercode)) continue;
    const risk = rand();
    const visits = 1 + Math.floor(rand() * 3);
    // The history ends one escalation window before the seed: every demo case's escalation clock
    // has run out when the console first opens, so no live "not acknowledged" notice appears
    // minutes into a demo (or over a browser test's buttons).
    const span = Math.max(0, now.getTime() - DEFAULT_WARNING_SETTINGS.escalateminutes * 60_000 - p.now.getTime());
    const times = Array.from({ length: visits }, () => p.now.getTime() + Math.floor(span * rand())).sort((a, b) => a - b);
    for (const [k, t] of times.entries()) {
      const stagecode = what.stagecodes[Math.min(k, what.stagecodes.length - 1)]!;
      const at = new Date(t);
      const key = `${what.plancode}:${stagecode}`;
      if (!formsOf.has(key))
        formsOf.set(key, await answerableForms(db, what.plancode ? await planFormcodes(db, what.plancode, stagecode) : await stageFormcodes(db, stagecode), 'zh-CN'));
      const formcodes = formsOf.get(key)!;
      const severity = screeningSeverity(risk, rand);
      const missing = formcodes.filter((f) => !defs.has(f));
      if (missing.length) for (const [f, d] of await loadCurrentDefinitions(db, missing)) defs.set(f, d);
      const assesscode = newAssessCode();
      codes.push({ assesscode, musercode: p.musercode, cusercode, plancode: what.plancode, stagecode, authid: null, formcodes, status: 'finished', createdby: 'demo', createdat: at, startedat: at, finishedat: at });
      for (const [n, formcode] of formcodes.entries()) {
        const def = defs.get(formcode)!;
        const { answers } = severitySheet(def, severity, rand);
        const score = scoreSheet(def, { answers });
        const assessid = newId('A');
        indicators.push(...indicatorRows(assessid, def, score));
        reports.push({
          assessid,
          formcode,
          version: def.version,
          musercode: p.musercode,
          cusercode,
          assesscode,
          plancode: what.plancode ?? '',
          stagecode,
          appid: p.appid,
          answers: sealAnswers(answers),
          scores: withoutTexts(score),
          ...reportColumns(score),
          createdat: new Date(t + n * 4 * 60_000),
        });
      }
    }
  }
  reliableChangeDemo(now, people, cusercodes, defs.get('SCL90') ?? (await loadCurrentDefinitions(db, ['SCL90'])).get('SCL90'), codes, reports, indicators);
  // Each code uses one count of an authorised plan, as in the console: taken per institution at once.
  const perInstitution = new Map<string, (typeof codes)[number][]>();
  for (const c of codes) if (c.plancode) perInstitution.set(`${c.plancode} ${c.musercode}`, [...(perInstitution.get(`${c.plancode} ${c.musercode}`) ?? []), c]);
  for (const [key, list] of perInstitution) {
    const [plancode, musercode] = key.split(' ') as [string, string];
    const authid = await usePlanCounts(db, plancode, musercode, todayIn(now), list.length);
    for (const c of list) c.authid = authid;
  }
  for (let i = 0; i < codes.length; i += 500) await db.insert(assessCode).values(codes.slice(i, i + 500));
  for (let i = 0; i < reports.length; i += 300) await db.insert(assessment).values(reports.slice(i, i + 300));
  await storeIndicators(db, indicators);
  // Warnings and cases come from the same triggers as a real submission's (the last 14 days' reports).
  await assessmentHooks().warnings.forReports(db, reports.map((r) => ({ assessid: r.assessid, musercode: r.musercode, cusercode: r.cusercode ?? null, formcode: r.formcode, stagecode: r.stagecode ?? '', createdat: r.createdat as Date, score: r.scores as ScoreResult })), new Date(now.getTime() - 14 * 86_400_000));
  return { codes: codes.length, reports: reports.length };
}


/** SCL-90 answers (1-5 per item): items up to `twos` at 2, up to `threes` at 3, the rest 1. */
const scl90Answers = (twos: number, threes: number) => Array.from({ length: 90 }, (_, i) => ({ no: i + 1, option: i < threes ? 3 : i < twos ? 2 : 1 }));

/**
 * Issue 31: one working adult of I0004 answered the SCL-90 at the annual check-up and again six
 * weeks later: total 120 then 172, a reliable deterioration against the 1986 national norm
 * (RCI 6.71) that crosses the screening cut-off of 160, so the report reads against the norm and
 * the worsening warning is raised by the same trigger as a real submission's.
 */
function reliableChangeDemo(
  now: Date,
  people: ReturnType<typeof demoPeople>,
  cusercodes: string[],
  def: FormDefinition | undefined,
  codes: (typeof assessCode.$inferInsert)[],
  reports: (typeof assessment.$inferInsert)[],
  indicators: Parameters<typeof storeIndicators>[1],
) {
  const i = people.findIndex((p, k) => p.musercode === 'I0004' && cusercodes[k]);
  if (!def || i < 0) return;
  const p = people[i]!;
  const cusercode = cusercodes[i]!;
  const visits = [
    { days: 45, answers: scl90Answers(30, 0) },
    { days: 3, answers: scl90Answers(76, 6) },
  ];
  for (const v of visits) {
    const at = new Date(now.getTime() - v.days * 86_400_000);
    const assesscode = newAssessCode();
    codes.push({ assesscode, musercode: p.musercode, cusercode, plancode: null, stagecode: 'ST-W1', authid: null, formcodes: ['SCL90'], status: 'finished', createdby: 'demo', createdat: at, startedat: at, finishedat: at });
    const score = scoreSheet(def, { answers: v.answers });
    const assessid = newId('A');
    indicators.push(...indicatorRows(assessid, def, score));
    reports.push({
      assessid,
      formcode: 'SCL90',
      version: def.version,
      musercode: p.musercode,
      cusercode,
      assesscode,
      plancode: '',
      stagecode: 'ST-W1',
      appid: p.appid,
      answers: sealAnswers(v.answers),
      scores: withoutTexts(score),
      ...reportColumns(score),
      createdat: at,
    });
  }
}
