import { z } from 'zod';
import { action, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';
import { formDefinition } from '../scales/definition.js';
import { formBrief } from './scales.js';

/**
 * Exam categories, stages, plans and plan authorisations (SPEC §2 plan management 00001 with
 * plan library 00002; the stages page /period/periodManagement 00029).
 */

const appid = z.string().regex(/^[0-9]{9}$/);
const optionalAppid = z.union([appid, z.literal('')]).optional();
/** A real calendar date YYYY-MM-DD (2026-02-30 is refused, not stored). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(d)) && new Date(Date.parse(d)).toISOString().slice(0, 10) === d, 'not a calendar date');

/**
 * Stage lists feed the stage filter of many pages (individual and group assessment, archives,
 * plans, scales), so reading them needs any of these codes; changing stages needs 00029.
 */
const STAGE_READ = codes('00029', '00001', '00002', '00003', '00018', '00040', '00008');
const STAGE_WRITE = codes('00029');
/** Plans are kept in the plan library (00002); group assessment (00040) reads them for tasks. */
const PLAN_READ = codes('00002', '00001', '00040');
const PLAN_WRITE = codes('00002');
/**
 * The plans to give and their stages (the give dialog): also the /empower pages and archives that
 * give assessments to persons (SPEC §2), and follow-up (00017), whose rescreen gives one. Every
 * code that shows a give button must load what the dialog needs (web give-access.test.ts).
 */
const PLAN_PICK = codes('00002', '00001', '00040', '00018', '0000000011', '0000000022', '0000000033', '0000000044', '001801', '00017');

export const examCategoryRow = z.object({ categoryid: z.string(), appid: z.string(), categoryname: z.string(), sort: z.int() });

export const stageRow = z.object({
  stagecode: z.string(),
  stagename: z.string(),
  appid: z.string(),
  appname: z.string(),
  categoryid: z.string(),
  categoryname: z.string(),
  /** The owning institution or provider. */
  musercode: z.string(),
  insname: z.string(),
  description: z.string(),
  sort: z.int(),
  formcount: z.int(),
  /** False for a stage given to the caller's institution by its provider (read-only here). */
  editable: z.boolean(),
  createdat: z.string(),
});
export type StageRow = z.infer<typeof stageRow>;

export const planRow = z.object({
  plancode: z.string(),
  planname: z.string(),
  appid: z.string(),
  appname: z.string(),
  musercode: z.string(),
  insname: z.string(),
  description: z.string(),
  iscommon: flag,
  enabled: flag,
  stagecount: z.int(),
  formcount: z.int(),
  /** False for a plan authorised to the caller by another institution (read-only). */
  editable: z.boolean(),
  createdat: z.string(),
  updatedat: z.string(),
});
export type PlanRow = z.infer<typeof planRow>;

export const planAuthorizeRow = z.object({
  authid: z.string(),
  plancode: z.string(),
  planname: z.string(),
  /** The institution the plan is authorised to. */
  musercode: z.string(),
  insname: z.string(),
  count: z.int(),
  usedcount: z.int(),
  startdate: z.string(),
  enddate: z.string(),
  /** pending (before startdate), active, expired (after enddate) on the server's today. */
  status: z.enum(['pending', 'active', 'expired']),
  createdat: z.string(),
});

/** A plan's stage with the forms the plan gives in it. */
const planStageInput = z.strictObject({ stagecode: idString, formcodes: z.array(idString).max(100).optional() });
const planBody = {
  planname: requiredText(100),
  description: text(1000).optional(),
  iscommon: flag.optional(),
  /** Stages in order; a stage without formcodes takes the stage's own forms. */
  stages: z.array(planStageInput).max(50).default([]),
  /** Forms given outside any stage, in order. */
  formcodes: z.array(idString).max(100).default([]),
};

const planFormRow = formBrief.extend({ stagecode: z.string(), stagename: z.string(), sort: z.int() });

export const planActions = {
  'as.m.app.getExamCategoryList': action({
    access: STAGE_READ,
    kind: 'json',
    op: 'list',
    summary: 'Exam categories (groups of stages) of one app, or of every app when appid is empty.',
    input: z.strictObject({ appid: optionalAppid }),
    output: z.array(examCategoryRow),
  }),
  'as.m.app.exam.getExamStageList': action({
    access: STAGE_READ,
    kind: 'json',
    op: 'list',
    summary: 'Stages the caller may use (its scope’s own and those given to it), filtered by app, category, name or owner; paged.',
    input: z.strictObject({
      appid: optionalAppid,
      categoryid: text(64).optional(),
      stagename: text(64).optional(),
      musercode: z.union([idString, z.literal('')]).optional(),
      ...pageFields,
    }),
    output: pageOf(stageRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.app.exam.getExamStageListGroupByAppidCategoryid': action({
    access: STAGE_READ,
    kind: 'json',
    op: 'list',
    summary: 'The stages the caller may use, grouped by app and category (the stage picker tree).',
    input: z.strictObject({ appid: optionalAppid }),
    output: z.array(
      z.object({
        appid: z.string(),
        appname: z.string(),
        categoryid: z.string(),
        categoryname: z.string(),
        stages: z.array(z.object({ stagecode: z.string(), stagename: z.string(), sort: z.int() })),
      }),
    ),
  }),
  'as.m.app.exam.insertExamStage': action({
    access: STAGE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Create a stage of an app and category for the caller or an institution in scope, optionally with its forms.',
    input: z.strictObject({
      musercode: idString.optional(),
      appid,
      categoryid: idString,
      stagename: requiredText(64),
      description: text(500).optional(),
      sort: z.int().min(0).max(10_000).optional(),
      formcodes: z.array(idString).max(100).optional(),
    }),
    output: z.object({ stagecode: z.string() }),
    ids: { musercode: 'muser', formcodes: 'form' },
  }),
  'as.m.app.exam.updateExamStage': action({
    access: STAGE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Rename, re-describe, re-order or re-categorise a stage in scope (same app).',
    input: z.strictObject({
      stagecode: idString,
      stagename: requiredText(64).optional(),
      categoryid: idString.optional(),
      description: text(500).optional(),
      sort: z.int().min(0).max(10_000).optional(),
    }),
    output: z.null(),
    ids: { stagecode: 'stage' },
  }),
  'as.m.app.exam.deleteExamStage': action({
    access: STAGE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Delete a stage in scope; refused (conflict) while a plan uses it.',
    input: z.strictObject({ stagecode: idString }),
    output: z.null(),
    ids: { stagecode: 'stage' },
  }),
  'as.m.app.exam.getExamStageForms': action({
    access: STAGE_READ,
    kind: 'json',
    op: 'list',
    summary: 'The forms of a stage, in order.',
    input: z.strictObject({ stagecode: idString }),
    output: z.array(formBrief.extend({ sort: z.int() })),
    ids: { stagecode: 'stage' },
  }),
  'as.m.app.exam.updateExamStageForms': action({
    access: STAGE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Replace the forms of a stage in scope (order kept); every form must be built-in or the caller’s.',
    input: z.strictObject({ stagecode: idString, formcodes: z.array(idString).max(100) }),
    output: z.null(),
    ids: { stagecode: 'stage', formcodes: 'form' },
  }),
  'as.m.app.exam.deleteExamStageForms': action({
    access: STAGE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Remove the given forms from a stage in scope.',
    input: z.strictObject({ stagecode: idString, formcodes: z.array(idString).min(1).max(100) }),
    output: z.null(),
    ids: { stagecode: 'stage', formcodes: 'form' },
  }),
  'as.m.muser.addAppsAndStages': action({
    access: codes('00021', '00022'),
    kind: 'json',
    op: 'write',
    summary: 'Give an institution in scope more apps (from the caller’s own) and stages (the caller’s own); adds, never removes.',
    input: z.strictObject({
      musercode: idString,
      appids: z.array(appid).max(20).default([]),
      stagecodes: z.array(idString).max(200).default([]),
    }),
    output: z.null(),
    ids: { musercode: 'muser', stagecodes: 'stage' },
  }),
  'as.m.exam.getExamForms': action({
    access: codes('00040', '00018', '00029', '00002', '00003'),
    kind: 'json',
    op: 'list',
    summary: 'Enabled forms of a stage (stagecode) or of an app (appid: built-in and the caller’s forms for that app).',
    input: z
      .strictObject({ stagecode: idString.optional(), appid: appid.optional() })
      .refine((v) => !!v.stagecode !== !!v.appid, 'give exactly one of stagecode and appid'),
    output: z.array(formBrief),
    ids: { stagecode: 'stage' },
  }),

  'as.m.exam.plan.insertMUserExamPlan': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Create a plan (stages with forms, plus loose forms) for the caller or an institution in scope.',
    input: z.strictObject({ musercode: idString.optional(), appid, ...planBody }),
    output: z.object({ plancode: z.string() }),
    ids: { musercode: 'muser', formcodes: 'form', 'stages.stagecode': 'stage', 'stages.formcodes': 'form' },
  }),
  'as.m.exam.plan.getMUserExamPlanPage': action({
    access: PLAN_READ,
    kind: 'json',
    op: 'list',
    summary: 'Plans owned in the caller’s scope (or by one musercode), frequently used first; filters by name, app, iscommon.',
    input: z.strictObject({
      musercode: z.union([idString, z.literal('')]).optional(),
      planname: text(100).optional(),
      appid: optionalAppid,
      iscommon: flag.optional(),
      ...pageFields,
    }),
    output: pageOf(planRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.exam.plan.getMultipleMUserExamPlanPage': action({
    access: PLAN_PICK,
    kind: 'json',
    op: 'list',
    summary:
      'Plans usable by several institutions in scope: owned by each, or authorised to it (with count and dates); one row per institution and plan.',
    input: z.strictObject({
      musercodes: z.array(idString).min(1).max(50),
      planname: text(100).optional(),
      appid: optionalAppid,
      ...pageFields,
    }),
    output: pageOf(
      planRow.extend({
        /** The institution this row is about. */
        holder: z.string(),
        holdername: z.string(),
        origin: z.enum(['own', 'authorized']),
        count: z.int().nullable(),
        usedcount: z.int().nullable(),
        startdate: z.string().nullable(),
        enddate: z.string().nullable(),
      }),
    ),
    ids: { musercodes: 'muser' },
  }),
  'as.m.exam.plan.updateMUserExamPlan': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Change a plan in scope: name, description, enabled, and (when given) its stages and loose forms.',
    input: z.strictObject({
      plancode: idString,
      planname: requiredText(100).optional(),
      description: text(1000).optional(),
      enabled: flag.optional(),
      stages: z.array(planStageInput).max(50).optional(),
      formcodes: z.array(idString).max(100).optional(),
    }),
    output: z.null(),
    ids: { plancode: 'plan', formcodes: 'form', 'stages.stagecode': 'stage', 'stages.formcodes': 'form' },
  }),
  'as.m.exam.plan.deleteMUserExamPlan': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Delete a plan in scope; refused (conflict) while it is authorised to an institution.',
    input: z.strictObject({ plancode: idString }),
    output: z.null(),
    ids: { plancode: 'plan' },
  }),
  'as.m.exam.plan.getPlanForm': action({
    access: PLAN_READ,
    kind: 'json',
    op: 'list',
    summary: 'The forms of a plan (own or authorised to the caller), stage by stage, then loose forms.',
    input: z.strictObject({ plancode: idString }),
    output: z.array(planFormRow),
    ids: { plancode: 'plan' },
  }),
  'as.m.exam.plan.getPlanFormDetails': action({
    access: PLAN_READ,
    kind: 'json',
    op: 'read',
    summary: 'The forms of a plan with their full current definitions (questions, options, indicators).',
    input: z.strictObject({ plancode: idString }),
    output: z.array(z.object({ formcode: z.string(), stagecode: z.string(), sort: z.int(), definition: formDefinition })),
    ids: { plancode: 'plan' },
  }),
  'as.m.exam.plan.updatePlanIsCommon': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Mark a plan in scope as frequently used (1) or not (0).',
    input: z.strictObject({ plancode: idString, iscommon: flag }),
    output: z.null(),
    ids: { plancode: 'plan' },
  }),
  'as.m.exam.plan.getPlanStage': action({
    access: PLAN_PICK,
    kind: 'json',
    op: 'list',
    summary: 'The stages of a plan in order, each with the forms the plan gives in it.',
    input: z.strictObject({ plancode: idString }),
    output: z.array(
      z.object({
        stagecode: z.string(),
        stagename: z.string(),
        categoryid: z.string(),
        categoryname: z.string(),
        sort: z.int(),
        /** textless: the form has no item text, so this stage cannot be given (see formBrief). */
        forms: z.array(z.object({ formcode: z.string(), formname: z.string(), textless: z.boolean() })),
      }),
    ),
    ids: { plancode: 'plan' },
  }),
  'as.m.exam.plan.authorizePlan': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Authorise a plan in scope to another institution in scope for a number of assessments between two dates.',
    input: z
      .strictObject({
        plancode: idString,
        musercode: idString,
        count: z.int().min(1).max(10_000_000),
        startdate: isoDate,
        enddate: isoDate,
      })
      .refine((v) => v.startdate <= v.enddate, { message: 'enddate is before startdate', path: ['enddate'] }),
    output: z.object({ authid: z.string() }),
    ids: { plancode: 'plan', musercode: 'muser' },
  }),
  'as.m.exam.plan.getPlanAuthorizeList': action({
    access: PLAN_READ,
    kind: 'json',
    op: 'list',
    summary: 'Authorisations of plans the caller owns or received, optionally of one plan or one institution; paged.',
    input: z.strictObject({
      plancode: z.union([idString, z.literal('')]).optional(),
      musercode: z.union([idString, z.literal('')]).optional(),
      ...pageFields,
    }),
    output: pageOf(planAuthorizeRow),
    ids: { plancode: 'plan', musercode: 'muser' },
  }),
  'as.m.exam.plan.revokePlanAuthorize': action({
    access: PLAN_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Withdraw an authorisation of a plan the caller owns (the receiving side cannot).',
    input: z.strictObject({ authid: idString }),
    output: z.null(),
    ids: { authid: 'planauth' },
  }),
  'as.m.assess.getFormInfoByPlanCode': action({
    access: codes('00040', '00002', '00001', '00018'),
    kind: 'json',
    op: 'read',
    summary: 'A plan’s header and its forms (for creating a task from a plan).',
    input: z.strictObject({ plancode: idString }),
    output: z.object({ plancode: z.string(), planname: z.string(), appid: z.string(), forms: z.array(planFormRow) }),
    ids: { plancode: 'plan' },
  }),
};
