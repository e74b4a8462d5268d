import { and, asc, eq, isNull } from 'drizzle-orm';
import { allMenuCodes, type EntityName } from '@xinli/contract';
import type { Db } from '../../db/database.js';
import { dept, role, sysuser } from '../../domains/system/tables.js';
import { form, quotaOption } from '../../domains/scales/tables.js';
import { createForm, loadDefinition } from '../../domains/scales/store.js';
import { examCategory, examStage, plan, planAuthorize, planForm, planStage } from '../../domains/plans/tables.js';
import { assessCode, assessment } from '../../domains/assessments/tables.js';
import { reportColumns } from '../../domains/assessments/respondent.js';
import { withoutTexts } from '../../domains/assessments/summary.js';
import { scoreSheet } from '../../domains/scales/scoring/index.js';
import { cuser } from '../../domains/persons/tables.js';
import { identityColumns } from '../../domains/persons/identity.js';
import { warnCase } from '../../domains/warnings/tables.js';
import { registration } from '../../domains/consultation/tables.js';
import { writtenReport } from '../../domains/reports/written/tables.js';
import { reportExport } from '../../domains/reports/document/tables.js';
import { reportTemplate, reportTemplateVersion } from '../../domains/reports/custom/tables.js';
import { task, taskPerson, taskTeam, team, teamMember } from '../../domains/tasks/tables.js';
import { storedFile } from '../../domains/files/tables.js';
import { article } from '../../domains/content/tables.js';
import { goods, orderEvent, shopOrder } from '../../domains/orders/tables.js';
import { buyerPhoneColumns } from '../../domains/orders/contact.js';
import { course, track } from '../../domains/content/media-tables.js';
import { auditLog } from '../../domains/audit/tables.js';
import { TEST_EPOCH, testDay } from '../harness.js';
import { createHash } from 'node:crypto';

/**
 * One entry per entity whose ids travel in action inputs (the contract's `ids`). The tenant
 * sweep asks an entry for an object OWNED by a given institution, creating it when missing, and
 * calls every action that takes such an id with another institution's object: the answer must
 * be "not found". The sweep seeds every entry for each institution of its world, so all of them
 * hold the same shape of data.
 *
 * Adding an entity to the contract's EntityName (or using one in `ids` for the first time) means
 * adding its entry here; the metadata test names the missing entry.
 *
 * - owned(make): make(db, musercode) returns the id of an object of that institution. It must
 *   be idempotent (find or create): write actions under test may delete the object, and the
 *   sweep calls make again before each action. Ids should be distinctive strings: the sweep
 *   looks for another institution's ids anywhere in an answer.
 * - shared(reason, make): ids of reference data every institution sees alike; nothing to isolate.
 */
export type EntityFixture =
  { kind: 'owned'; make(db: Db, musercode: string): Promise<string> } | { kind: 'shared'; reason: string; make(db: Db): Promise<string> };

const owned = (make: (db: Db, musercode: string) => Promise<string>): EntityFixture => ({ kind: 'owned', make });
const shared = (reason: string, make: (db: Db) => Promise<string>): EntityFixture => ({ kind: 'shared', reason, make });

/** Fixture ids carry the owner, so two institutions' objects never share an id. */
const sweepId = (prefix: string, musercode: string) => `sw${prefix}${musercode}`;

/** The app every fixture belongs to. */
export const SWEEP_APP = '000000002';

export async function firstCategory(db: Db, appid: string): Promise<string> {
  const [row] = await db
    .select({ id: examCategory.categoryid })
    .from(examCategory)
    .where(eq(examCategory.appid, appid))
    .orderBy(asc(examCategory.sort))
    .limit(1);
  if (!row) throw new Error(`the sweep needs an exam category of app ${appid} in the reference data`);
  return row.id;
}

/**
 * A scale of the institution: a copy of the first built-in library scale that has score bands,
 * written by the scales domain's own createForm, its first band under a known id.
 */
async function ownForm(db: Db, musercode: string): Promise<string> {
  const formcode = sweepId('F', musercode);
  const [exists] = await db.select({ f: form.formcode }).from(form).where(eq(form.formcode, formcode));
  if (exists) return formcode;
  const [source] = await db
    .select({ formcode: form.formcode, version: form.version, quotacode: quotaOption.quotacode })
    .from(form)
    .innerJoin(quotaOption, and(eq(quotaOption.formcode, form.formcode), eq(quotaOption.version, form.version)))
    .where(isNull(form.musercode))
    .orderBy(asc(form.formcode))
    .limit(1);
  if (!source) throw new Error('the sweep copies a built-in scale with score bands; the library has none');
  const def = await loadDefinition(db, source.formcode, source.version);
  // Bands of a deleted earlier copy would clash with the new ones' ids.
  await db.delete(quotaOption).where(eq(quotaOption.formcode, formcode));
  await db.transaction((tx) =>
    createForm(tx, formcode, musercode, def, new Date(TEST_EPOCH), new Map([[source.quotacode, [sweepId('O', musercode)]]])),
  );
  return formcode;
}

async function sweepPlan(db: Db, musercode: string): Promise<string> {
  const plancode = sweepId('P', musercode);
  await db
    .insert(plan)
    .values({ plancode, musercode, planname: `sweep ${musercode}`, appid: SWEEP_APP })
    .onConflictDoNothing();
  return plancode;
}

/** Assessment codes are upper-case (what a respondent types is upper-cased before the lookup). */
async function sweepCode(db: Db, musercode: string): Promise<string> {
  const assesscode = `SWK${musercode}`.toUpperCase();
  const cusercode = await entities.person!.make(db, musercode);
  const plancode = await sweepPlan(db, musercode);
  // The plan gives GAD-7 on its own and in the institution's sweep stage, so a code can be given for either.
  const stagecode = await entities.stage!.make(db, musercode);
  await db.insert(planStage).values({ plancode, stagecode }).onConflictDoNothing();
  await db
    .insert(planForm)
    .values([
      { plancode, formcode: 'GAD7' },
      { plancode, stagecode, formcode: 'GAD7' },
    ])
    .onConflictDoNothing();
  await db
    .insert(assessCode)
    .values({ assesscode, musercode, cusercode, plancode, formcodes: ['GAD7'], createdat: new Date(TEST_EPOCH) })
    .onConflictDoNothing();
  return assesscode;
}

async function sweepPerson(db: Db, musercode: string): Promise<string> {
  const cusercode = sweepId('C', musercode);
  await db
    .insert(cuser)
    .values({
      cusercode,
      musercode,
      appid: SWEEP_APP,
      realname: `sweep ${musercode}`,
      gender: '01',
      // Sealed as every writer of persons seals it (persons/identity.ts).
      ...identityColumns({ phonenumber: '13800138000', idcard: null }),
    })
    .onConflictDoUpdate({ target: cuser.cusercode, set: { deletedat: null, deletedby: null } });
  return cusercode;
}

async function sweepTeam(db: Db, musercode: string): Promise<string> {
  const teamid = sweepId('TM', musercode);
  await db
    .insert(team)
    .values({
      teamid,
      musercode,
      kind: 'class',
      appid: SWEEP_APP,
      school: `sweep ${musercode}`,
      year: '2026',
      term: '1',
      grade: '7',
      classname: '1',
    })
    .onConflictDoUpdate({ target: team.teamid, set: { deletedat: null } });
  const cusercode = await sweepPerson(db, musercode);
  await db.insert(teamMember).values({ teamid, cusercode, studentno: 'SW001' }).onConflictDoNothing();
  return teamid;
}

export const entities: Partial<Record<EntityName, EntityFixture>> = {
  muser: owned(async (_db, musercode) => musercode),

  dept: owned(async (db, musercode) => {
    const deptid = sweepId('D', musercode);
    await db
      .insert(dept)
      .values({ deptid, musercode, parentid: null, deptname: `sweep ${musercode}` })
      .onConflictDoNothing();
    return deptid;
  }),

  role: owned(async (db, musercode) => {
    const roleid = sweepId('R', musercode);
    await db
      .insert(role)
      .values({ roleid, musercode, rolename: `sweep ${musercode}`, rolekey: 'sweep' })
      .onConflictDoNothing();
    return roleid;
  }),

  sysuser: owned(async (db, musercode) => {
    const userid = sweepId('U', musercode);
    // Not a usable sign-in: the hash is no argon2 string, so no password verifies against it.
    await db
      .insert(sysuser)
      .values({
        userid,
        musercode,
        sysusername: `sw_${musercode.toLowerCase()}_staff`,
        pwdhash: 'sweep-no-login',
        realname: `sweep ${musercode}`,
      })
      // An earlier action of the sweep may have disabled the user: healed back to usable.
      .onConflictDoUpdate({ target: sysuser.userid, set: { enabled: 1 } });
    return userid;
  }),

  form: owned(ownForm),

  // The first band of the institution's scale (ownForm gives it this id); recreated with the scale.
  quotaoption: owned(async (db, musercode) => {
    const formcode = await ownForm(db, musercode);
    const optionid = sweepId('O', musercode);
    const [band] = await db
      .select({ id: quotaOption.optionid })
      .from(quotaOption)
      .where(and(eq(quotaOption.formcode, formcode), eq(quotaOption.optionid, optionid)));
    if (!band) {
      await db.delete(form).where(eq(form.formcode, formcode));
      await ownForm(db, musercode);
    }
    return optionid;
  }),

  stage: owned(async (db, musercode) => {
    const stagecode = sweepId('S', musercode);
    const categoryid = await firstCategory(db, SWEEP_APP);
    await db
      .insert(examStage)
      .values({ stagecode, musercode, appid: SWEEP_APP, categoryid, stagename: `sweep ${musercode}` })
      .onConflictDoNothing();
    return stagecode;
  }),

  plan: owned(sweepPlan),

  // An authorisation belongs to the side that granted it (the plan's owner): here the
  // institution's own sweep plan, authorised to itself.
  planauth: owned(async (db, musercode) => {
    const authid = sweepId('A', musercode);
    const plancode = await sweepPlan(db, musercode);
    await db
      .insert(planAuthorize)
      .values({ authid, plancode, musercode, count: 10, startdate: testDay(-30), enddate: testDay(365), grantedby: musercode })
      .onConflictDoNothing();
    return authid;
  }),

  // A person of the institution; a swept delete only marks it deleted, so make brings it back.
  person: owned(sweepPerson),

  // A given assessment of the institution's person and plan (one form, GAD-7), not yet opened.
  assesscode: owned(sweepCode),

  // A report on that assessment, scored by the engine like a real submission.
  report: owned(async (db, musercode) => {
    const assessid = sweepId('RP', musercode);
    const [exists] = await db.select({ id: assessment.assessid }).from(assessment).where(eq(assessment.assessid, assessid));
    if (exists) return assessid;
    const assesscode = await sweepCode(db, musercode);
    const [head] = await db.select({ version: form.version }).from(form).where(eq(form.formcode, 'GAD7'));
    const def = await loadDefinition(db, 'GAD7', head!.version);
    const answers = def.questions.map((q) => ({ no: q.no, option: 2 }));
    const score = scoreSheet(def, { answers });
    await db.insert(assessment).values({
      assessid,
      formcode: 'GAD7',
      version: head!.version,
      musercode,
      cusercode: sweepId('C', musercode),
      assesscode,
      plancode: sweepId('P', musercode),
      appid: SWEEP_APP,
      answers,
      scores: withoutTexts(score),
      ...reportColumns(score),
      createdat: new Date(TEST_EPOCH),
    });
    return assessid;
  }),

  // An open warning case of the institution's person; a swept close is undone by reopening it.
  case: owned(async (db, musercode) => {
    const caseid = sweepId('WC', musercode);
    const person = entities.person!;
    const cusercode = person.kind === 'owned' ? await person.make(db, musercode) : '';
    const at = new Date(TEST_EPOCH);
    await db
      .insert(warnCase)
      .values({ caseid, musercode, cusercode, state: 'open', level: 'attention', openedat: at, lastwarningat: at })
      .onConflictDoUpdate({ target: warnCase.caseid, set: { state: 'open', outcome: null, closedat: null } });
    return caseid;
  }),

  // A consultation registration of the institution's person (built-in form); a swept state change or case is undone.
  registration: owned(async (db, musercode) => {
    const regid = sweepId('RG', musercode);
    const person = entities.person!;
    const cusercode = person.kind === 'owned' ? await person.make(db, musercode) : '';
    const at = new Date(TEST_EPOCH);
    await db
      .insert(registration)
      .values({
        regid,
        musercode,
        cusercode,
        formcode: 'REG_CONSULT',
        version: 1,
        answers: [{ no: 3, value: 1 }],
        source: 'staff',
        createdat: at,
        updatedat: at,
      })
      .onConflictDoUpdate({ target: registration.regid, set: { state: 'new', caseid: '', cusercode } });
    return regid;
  }),

  // A draft written report (AI individual report) of the institution's person; a swept approve,
  // withdraw or retry changes its state, so make puts it back to a draft.
  writtenreport: owned(async (db, musercode) => {
    const writtenid = sweepId('WR', musercode);
    const sections = {
      summary: 'sweep',
      findings: [],
      risk: { level: 'none' as const, text: 'sweep' },
      staffsteps: [],
      personmessage: 'sweep',
      personsteps: [],
    };
    const cusercode = await sweepPerson(db, musercode);
    await db
      .insert(writtenReport)
      .values({
        writtenid,
        musercode,
        cusercode,
        state: 'draft',
        writer: 'rules',
        model: 'rules-1',
        lang: 'zh-CN',
        sections,
        createdby: musercode,
        createdat: new Date(TEST_EPOCH),
        writtenat: new Date(TEST_EPOCH),
      })
      .onConflictDoUpdate({
        target: writtenReport.writtenid,
        set: { state: 'draft', sections, error: null, approvedat: null, approvedby: null },
      });
    return writtenid;
  }),

  // A finished background PDF export asked for by the account itself (its file long gone).
  reportexport: owned(async (db, musercode) => {
    const exportid = sweepId('RX', musercode);
    await db
      .insert(reportExport)
      .values({
        exportid,
        musercode,
        createdby: musercode,
        kind: 'job',
        state: 'done',
        slot: 0,
        lang: 'zh-CN',
        reportids: [],
        scope: [musercode],
        filename: 'sweep.zip',
        createdat: new Date(TEST_EPOCH),
        finishedat: new Date(TEST_EPOCH),
      })
      .onConflictDoUpdate({ target: reportExport.exportid, set: { state: 'done', filekey: null } });
    return exportid;
  }),

  // A custom report template of the institution (version 1) for its own form; a swept delete is undone.
  reporttemplate: owned(async (db, musercode) => {
    const templateid = sweepId('RT', musercode);
    const formcode = await ownForm(db, musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(reportTemplate)
      .values({ templateid, musercode, name: `sweep template ${musercode}`, version: 1, createdat: at, updatedat: at })
      .onConflictDoNothing();
    const body = {
      name: `sweep template ${musercode}`,
      title: '',
      headername: '',
      logofileid: null,
      formcodes: [formcode],
      sections: ['summary' as const, 'indicators' as const],
      respondent: [],
      bandtexts: [],
      signoff: '',
    };
    await db
      .insert(reportTemplateVersion)
      .values({ versionid: sweepId('RV', musercode), templateid, version: 1, body, createdby: musercode, createdat: at })
      .onConflictDoNothing();
    return templateid;
  }),

  // A class of the institution with the sweep person on its roster; a swept delete is undone.
  team: owned(sweepTeam),

  // A task of the institution's sweep plan for its sweep team, running over the whole test window.
  task: owned(async (db, musercode) => {
    const taskid = sweepId('TK', musercode);
    const teamid = await sweepTeam(db, musercode);
    const plancode = await sweepPlan(db, musercode);
    await db
      .insert(task)
      .values({
        taskid,
        musercode,
        taskname: `sweep ${musercode}`,
        plancode,
        taskcode: `SWT${musercode}`.toUpperCase(),
        startat: new Date(TEST_EPOCH - 86_400_000),
        endat: new Date(TEST_EPOCH + 365 * 86_400_000),
      })
      .onConflictDoNothing();
    await db.insert(taskTeam).values({ taskid, teamid }).onConflictDoNothing();
    // The sweep person was given the task (a code of its own, not yet opened); a swept removal is undone.
    const assesscode = `SWTK${musercode}`.toUpperCase();
    const cusercode = await sweepPerson(db, musercode);
    await db
      .insert(assessCode)
      .values({ assesscode, musercode, cusercode, plancode, formcodes: ['GAD7'], createdat: new Date(TEST_EPOCH) })
      .onConflictDoNothing();
    await db.insert(taskPerson).values({ taskid, cusercode, teamid, studentno: 'SW001', assesscode }).onConflictDoNothing();
    return taskid;
  }),

  // An uploaded picture of the institution (its record; the sweep never reads the bytes); a swept delete is undone.
  file: owned(async (db, musercode) => {
    const fileid = sweepId('FL', musercode);
    const key = `${createHash('sha256').update(musercode).digest('hex').slice(0, 32)}.png`;
    await db
      .insert(storedFile)
      .values({
        fileid,
        musercode,
        use: 'image',
        filename: 'sweep.png',
        key,
        contenttype: 'image/png',
        size: 100,
        status: 'ready',
        createdby: musercode,
        createdat: new Date(TEST_EPOCH),
      })
      .onConflictDoNothing();
    return fileid;
  }),

  // A published article of the institution; a swept withdraw or delete is undone.
  article: owned(async (db, musercode) => {
    const articleid = sweepId('AR', musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(article)
      .values({
        articleid,
        musercode,
        title: `sweep ${musercode}`,
        content: '<p>sweep</p>',
        published: 1,
        publishedat: at,
        createdby: musercode,
        createdat: at,
        updatedat: at,
      })
      .onConflictDoUpdate({ target: article.articleid, set: { published: 1, publishedat: at } });
    return articleid;
  }),

  // Goods of the institution, on sale with stock; a swept delete or delisting is undone.
  goods: owned(async (db, musercode) => {
    const goodsid = sweepId('GD', musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(goods)
      .values({ goodsid, musercode, goodsname: `sweep ${musercode}`, price: 100, stock: 1000, status: 1, createdat: at, updatedat: at })
      .onConflictDoUpdate({ target: goods.goodsid, set: { status: 1, stock: 1000 } });
    return goodsid;
  }),

  // A paid order of the institution's sweep goods; a swept refund or cancel is undone.
  order: owned(async (db, musercode) => {
    const orderid = sweepId('OR', musercode);
    const goodsid = await entities.goods!.make(db, musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(shopOrder)
      .values({
        orderid,
        musercode,
        goodsid,
        goodsname: 'sweep',
        quantity: 1,
        unitprice: 100,
        amount: 100,
        status: 3,
        buyername: '测试',
        ...buyerPhoneColumns('13800000000'),
        provider: 'sandbox',
        providerref: `swPY${musercode}`,
        tokenhash: createHash('sha256').update(orderid).digest('hex'),
        expiresat: at,
        createdat: at,
        paidat: at,
        updatedat: at,
      })
      .onConflictDoUpdate({ target: shopOrder.orderid, set: { status: 3, refunded: 0 } });
    await db.insert(orderEvent).values({ orderid, seq: 1, fromstatus: null, tostatus: 3, by: 'sweep', at }).onConflictDoNothing();
    return orderid;
  }),

  // A track of the institution playing its sweep file (as audio); a swept delete or disabling is undone.
  track: owned(async (db, musercode) => {
    const trackid = sweepId('TR', musercode);
    const audiofileid = await entities.file!.make(db, musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(track)
      .values({ trackid, musercode, title: `sweep ${musercode}`, audiofileid, createdat: at, updatedat: at })
      .onConflictDoUpdate({ target: track.trackid, set: { enabled: 1 } });
    return trackid;
  }),

  // A course of the institution without lessons; a swept delete or disabling is undone.
  course: owned(async (db, musercode) => {
    const courseid = sweepId('CO', musercode);
    const at = new Date(TEST_EPOCH);
    await db
      .insert(course)
      .values({ courseid, musercode, title: `sweep ${musercode}`, createdat: at, updatedat: at })
      .onConflictDoUpdate({ target: course.courseid, set: { enabled: 1 } });
    return courseid;
  }),
  audit: owned(async (db, musercode) => {
    // An entry is named by its hash; one sweep entry per institution, found by its request id.
    const requestid = sweepId('AU', musercode);
    const [found] = await db.select({ hash: auditLog.hash }).from(auditLog).where(eq(auditLog.requestid, requestid));
    if (found) return found.hash;
    const [made] = await db
      .insert(auditLog)
      .values({ at: new Date(TEST_EPOCH), musercode, action: 'as.m.user.login', result: 'ok', requestid })
      .returning({ hash: auditLog.hash });
    return made!.hash;
  }),

  app: shared(
    'population apps (SPEC §1) are platform reference data; an institution is limited to its own apps by the handlers, not by ownership',
    async () => SWEEP_APP,
  ),

  norm: shared(
    'norms (issue 31) are platform reference data every institution reads alike; only the super account edits them (the handlers refuse every other caller)',
    async () => 'NMSCL90CN1986',
  ),

  menu: shared(
    'the menu table (SPEC §2) is the same for every account; what an account may grant is bounded by its own codes',
    async () => allMenuCodes()[0]!,
  ),
};

/** Where to add a missing entry; the metadata test prints it. */
export const ENTITIES_FILE = 'apps/server/src/test/sweep/entities.ts';
