import { z } from 'zod';
import { action, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';
import { indicatorCode, localText } from '../scales/definition.js';

/**
 * Norms (常模, issue 31 §2 and §3): per instrument and population, the mean and SD of each scale
 * or factor with the sample, year and source; and the published reliability that the reliable
 * change index (Jacobson & Truax 1991) needs, with its source, the clinical cut-off and which
 * direction is worse. The super account maintains them (the menu code alone does not suffice:
 * the handlers refuse every other account); every institution reads them, and reports, trends
 * and the worsening warning use the form's default norm.
 */

/** The norm page's permission code (scale management, 计划管理 > 常模库). */
export const NORMS_CODE = '00055';

/** One scale or factor of a norm: the indicator code of the form, the norm mean and SD. */
export const normScale = z.strictObject({
  code: indicatorCode,
  mean: z.number().finite().min(-10000).max(10000),
  sd: z.number().finite().gt(0).max(10000),
});

/**
 * How change is judged on one indicator of the form: the published reliability r (test–retest or
 * internal consistency) and its source; the clinical cut-off (a score beyond it is in the
 * clinical range; null: none) and whether a higher score is worse (true for symptom scales).
 */
export const normChangeRule = z.strictObject({
  code: indicatorCode,
  reliability: z.number().gt(0).lt(1),
  reliabilitysource: requiredText(500),
  cutoff: z.number().finite().nullable(),
  higherworse: z.boolean(),
});
export type NormChangeRule = z.infer<typeof normChangeRule>;

const normFields = {
  formcode: idString,
  name: localText(100),
  /** The population sampled (e.g. "全国成人"). */
  population: localText(100),
  samplesize: z.int().min(1).max(100_000_000),
  year: z.int().min(1900).max(2100),
  source: requiredText(500),
  scales: z.array(normScale).min(1).max(60),
  change: normChangeRule.nullable(),
  /** 1: the norm reports and trends of the form use (one per form). */
  isdefault: flag,
};

export const normRow = z.object({
  normid: z.string(),
  formcode: z.string(),
  formname: z.string(),
  name: z.object({ zh: z.string(), en: z.string() }),
  population: z.object({ zh: z.string(), en: z.string() }),
  samplesize: z.int(),
  year: z.int(),
  source: z.string(),
  scales: z.array(z.object({ code: z.string(), name: z.string(), mean: z.number(), sd: z.number() })),
  change: z.object({ code: z.string(), reliability: z.number(), reliabilitysource: z.string(), cutoff: z.number().nullable(), higherworse: z.boolean() }).nullable(),
  isdefault: z.int(),
  /** True for the norms the platform ships (built-in instruments); the super account may still edit them. */
  builtin: z.boolean(),
  updatedat: z.string(),
});
export type NormRow = z.infer<typeof normRow>;

/** A report's factors against its form's default norm: z = (x − mean) / SD, T = 50 + 10z. */
export const reportNorm = z.object({
  normid: z.string(),
  name: z.string(),
  population: z.string(),
  samplesize: z.int(),
  year: z.int(),
  source: z.string(),
  rows: z.array(
    z.object({ code: z.string(), name: z.string(), score: z.number(), mean: z.number(), sd: z.number(), z: z.number(), t: z.number() }),
  ),
});
export type ReportNorm = z.infer<typeof reportNorm>;

/** improved / deteriorated: |RCI| ≥ 1.96 in that direction; unchanged: within the index. */
export const changeLabel = z.enum(['improved', 'deteriorated', 'unchanged']);
export type ChangeLabel = z.infer<typeof changeLabel>;

/** The change from the previous report of the person and form to this one. */
export const reliableChange = z.object({
  code: z.string(),
  from: z.number(),
  to: z.number(),
  /** The reliable change index, two decimals. */
  rci: z.number(),
  label: changeLabel,
  /** 'into' / 'out of' the clinical range across the cut-off (clinically significant); null: no crossing. */
  crossing: z.enum(['into', 'out']).nullable(),
  cutoff: z.number().nullable(),
  reliability: z.number(),
  reliabilitysource: z.string(),
  sd: z.number(),
});
export type ReliableChange = z.infer<typeof reliableChange>;

export const normActions = {
  'as.m.assess.norm.getNormPage': action({
    access: codes(NORMS_CODE, '00003'),
    kind: 'json',
    op: 'list',
    summary: 'Norms of the instruments (every institution reads them), by form; the form’s default norm first, then newest.',
    input: z.strictObject({ formcode: text(40).optional(), ...pageFields }),
    output: pageOf(normRow),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.norm.insertNorm': action({
    access: codes(NORMS_CODE),
    kind: 'json',
    op: 'write',
    summary:
      'Add a norm of a built-in or institution form (super account only): every scale code must be an indicator of the form; isdefault 1 makes it the form’s default.',
    input: z.strictObject(normFields),
    output: z.object({ normid: z.string() }),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.norm.updateNorm': action({
    access: codes(NORMS_CODE),
    kind: 'json',
    op: 'write',
    summary: 'Change a norm (super account only); the form stays.',
    input: z.strictObject({ normid: idString, ...normFields }),
    output: z.null(),
    ids: { normid: 'norm', formcode: 'form' },
  }),
  'as.m.assess.norm.deleteNorm': action({
    access: codes(NORMS_CODE),
    kind: 'json',
    op: 'write',
    summary: 'Delete a norm (super account only). Reports then read the form’s next default, or show no norm.',
    input: z.strictObject({ normid: idString }),
    output: z.null(),
    ids: { normid: 'norm' },
  }),
};
