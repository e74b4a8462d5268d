import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';

/**
 * The custom report (定制报告, SPEC §1, app 000000005; issue 31 §4). An institution, or a provider
 * for the institutions it serves, designs a report template for one or more forms: the header
 * (title, name, logo from the file store), which sections appear and in what order, its own text
 * per indicator band, a sign-off line, and which parts the respondent may see.
 *
 * Templates are versioned: every save makes a new version and an old version never changes. A plan
 * of app 000000005 picks a template (setPlanTemplate); its reports keep the template's version
 * current when they are scored (older reports: when first shown or printed) whatever is saved
 * later. The report's page, its printable document, its PDF and the respondent's result follow it.
 */

/** The menu code of the designer page (menus.ts reportTemplates). */
export const REPORT_TEMPLATE_CODE = '0018021';
const ACCESS = codes(REPORT_TEMPLATE_CODE);

/** The sections a template may show, in the order the template lists them. */
export const reportSections = ['summary', 'indicators', 'norms', 'trend', 'answers', 'advice', 'comments', 'signoff'] as const;
export const reportSection = z.enum(reportSections);
export type ReportSection = z.infer<typeof reportSection>;

/** The parts of the result a respondent may be shown (the crisis text is shown whatever the template says). */
export const respondentParts = ['summary', 'indicators', 'bandtext', 'advice'] as const;
export const respondentPart = z.enum(respondentParts);
export type RespondentPart = z.infer<typeof respondentPart>;

const uniqueList = <T extends z.ZodType>(item: T, min: number, max: number) =>
  z
    .array(item)
    .min(min)
    .max(max)
    .refine((l) => new Set(l).size === l.length, 'no item twice');

/**
 * The template's own text for one band of one indicator (its code within the forms, e.g. `total`
 * or a factor's code), replacing the form's interpretation of that band in reports it renders.
 */
export const templateBandText = z.strictObject({
  indicator: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'an indicator code'),
  level: z.int().min(0).max(4),
  text: requiredText(1000),
});
export type TemplateBandText = z.infer<typeof templateBandText>;

/** What a template version holds. */
export const templateBody = z.strictObject({
  name: requiredText(64),
  /** The document's title; empty: the default title. */
  title: text(64),
  /** The name in the header; empty: the institution's name. */
  headername: text(100),
  /** An image of the file store (use 'image'), shown in the header; null: none. */
  logofileid: idString.nullable(),
  formcodes: uniqueList(idString, 1, 20),
  sections: uniqueList(reportSection, 1, reportSections.length),
  respondent: uniqueList(respondentPart, 0, respondentParts.length),
  bandtexts: z
    .array(templateBandText)
    .max(200)
    .refine((l) => new Set(l.map((b) => `${b.indicator}\u0000${b.level}`)).size === l.length, 'one text per indicator band'),
  /** The sign-off line (who signs, e.g. "评估人：＿＿＿＿"); empty: the default words. */
  signoff: text(200),
});
export type TemplateBody = z.infer<typeof templateBody>;

export const templateRow = z.object({
  templateid: z.string(),
  musercode: z.string(),
  name: z.string(),
  version: z.int(),
  formcodes: z.array(z.string()),
  /** Names of the plans that use it. */
  plans: z.array(z.string()),
  updatedat: z.string(),
});
export type TemplateRow = z.infer<typeof templateRow>;

export const templateDetail = z.object({
  templateid: z.string(),
  musercode: z.string(),
  version: z.int(),
  body: templateBody,
  versions: z.array(z.object({ version: z.int(), createdby: z.string(), createdat: z.string(), reports: z.int() })),
  plancodes: z.array(z.string()),
});
export type TemplateDetail = z.infer<typeof templateDetail>;

const bodyIds = { formcodes: 'form', logofileid: 'file' } as const;

export const reportTemplateActions = {
  'as.m.reportTemplate.getPage': action({
    access: ACCESS,
    kind: 'json',
    op: 'list',
    summary: 'The report templates of the accounts in the caller’s scope, newest first, with their current version, forms and the plans using them.',
    input: z.strictObject({ ...pageFields, name: text(64).optional() }),
    output: pageOf(templateRow),
  }),
  'as.m.reportTemplate.get': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary: 'One template in scope: the body of its current version (or of `version`), its versions with how many reports each rendered, and the plans using it.',
    input: z.strictObject({ templateid: idString, version: z.int().min(1).max(100000).optional() }),
    output: templateDetail,
    ids: { templateid: 'reporttemplate' },
  }),
  'as.m.reportTemplate.insert': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Creates a template (version 1) owned by the caller’s account, or by `musercode` (an institution in the caller’s scope, for a provider). Names are unique per account; the logo must be an image of the owner.',
    input: templateBody.extend({ musercode: idString.optional() }),
    output: z.object({ templateid: z.string(), version: z.int() }),
    ids: { musercode: 'muser', ...bodyIds },
    unique: ['name'],
  }),
  'as.m.reportTemplate.update': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Saves a template as a new version; earlier versions stay as they were, and reports already rendered keep theirs.',
    input: templateBody.extend({ templateid: idString }),
    output: z.object({ version: z.int() }),
    ids: { templateid: 'reporttemplate', ...bodyIds },
  }),
  'as.m.reportTemplate.delete': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Deletes a template no report was rendered with (refused otherwise: those reports keep it); plans using it go back to the standard report.',
    input: z.strictObject({ templateid: idString }),
    output: z.null(),
    ids: { templateid: 'reporttemplate' },
  }),
  'as.m.reportTemplate.preview': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary: 'The printable document a template body makes, for a sample report or for a report in scope (`reportid`, audited), in the caller’s language; `musercode`: the template’s owner in scope (whose logo it may show; default the caller). Nothing is stored.',
    input: z.strictObject({ body: templateBody, reportid: idString.optional(), musercode: idString.optional() }),
    output: z.object({ html: z.string() }),
    ids: { 'body.formcodes': 'form', 'body.logofileid': 'file', reportid: 'report', musercode: 'muser' },
  }),
  'as.m.reportTemplate.getFormOptions': action({
    access: ACCESS,
    kind: 'json',
    op: 'list',
    summary: 'The enabled forms the caller may put in a template (built-in and its own), each with its indicators’ codes, names and band levels, for the band texts.',
    input: z.strictObject({}),
    output: z.array(
      z.object({
        formcode: z.string(),
        formname: z.string(),
        indicators: z.array(z.object({ code: z.string(), name: z.string(), levels: z.array(z.int()) })),
      }),
    ),
  }),
  'as.m.reportTemplate.setPlanTemplate': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'A plan of app 000000005 (custom report) in the caller’s scope picks a template of its owner’s scope, or none (null: the standard report).',
    input: z.strictObject({ plancode: idString, templateid: idString.nullable() }),
    output: z.null(),
    ids: { plancode: 'plan', templateid: 'reporttemplate' },
  }),
};
