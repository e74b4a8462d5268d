/**
 * The scale DEFINITION model: what a form (量表) is, as plain serialisable JSON.
 *
 * One definition carries everything needed to present and score a form: its questions and
 * options, its indicators ("quota": total and factor scores with a formula), the score bands of
 * each indicator ("quota options": score range -> level 0-4, colour, interpretation, advice,
 * warning), critical-item rules, validity rules, and how the overall mental state of a report
 * follows from the indicators. The server stores definitions in the database, the scale editor
 * edits them, and the scoring engine (apps/server/src/domains/scales/scoring) scores answer
 * sheets against them. Structural checks live here (zod); cross-reference checks (an indicator
 * reading an unknown item, gapped bands...) live in the engine's definition validator.
 *
 * Conventions
 * - Question numbers `no` start at 1; option positions start at 1 (the order shown).
 * - Option `score` is the FORWARD score of that option. A question with `reverse: true` is
 *   scored as (lowest option score + highest option score - score), so the editor can keep the
 *   printed order and flip one flag; per-option scores can express any other mapping.
 * - Band ranges are closed [min, max] at the indicator's `precision` (decimal places): the score
 *   is rounded to `precision` first, and consecutive bands meet exactly (next.min = max + 10^-precision).
 */
import { z } from 'zod';
import { LevelColours } from '../enums.js';

/** A user-visible text in Chinese (required) and English (may be empty until translated). */
export const localText = (max = 1000) => z.object({ zh: z.string().trim().min(1).max(max), en: z.string().trim().max(max) }).strict();
/** An optional longer text (instructions, interpretation, advice): both languages may be empty. */
export const longText = (max = 4000) => z.object({ zh: z.string().max(max), en: z.string().max(max) }).strict();
export type LocalText = { zh: string; en: string };

export const formCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/);
export const indicatorCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/);
export const questionNo = z.int().min(1).max(1000);
export const optionPosition = z.int().min(1).max(50);
/** A band level on the five-level report colour scale: 0 normal (green) .. 4 severe (dark red). */
export const bandLevel = z.int().min(0).max(4);
/** Overall mental state of a report (SPEC §3): 0 none, 1 good, 2 mild, 3 moderate, 4 severe. */
export const mentalStateValue = z.int().min(0).max(4);
const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const formTypeCode = z.enum(['01', '02', '03', '04']);
export const appIdCode = z.string().regex(/^[0-9]{9}$/);

/** One option of a choice question. */
export const optionDefinition = z
  .object({
    text: localText(500),
    /** Forward score of this option (before any reversal). */
    score: finite,
  })
  .strict();

/** One question. Choice questions (type 1 single, 2 multiple) have options; fill-ins (type 0) an input type. */
export const questionDefinition = z
  .object({
    no: questionNo,
    /** 0 fill-in, 1 single choice, 2 multiple choice (SPEC §3). */
    type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    /** Fill-in input type 0..8 (SPEC §3); only for type 0. */
    inputtype: z.int().min(0).max(8).optional(),
    required: z.boolean(),
    text: localText(1000),
    options: z.array(optionDefinition).max(50).default([]),
    /** Score the item reversed: lowest+highest option score minus the chosen option's score. */
    reverse: z.boolean().default(false),
    /**
     * Informative factor membership (an indicator code) shown by the editor. An indicator with no
     * explicit `items` reads the questions whose `factor` is its code.
     */
    factor: indicatorCode.optional(),
    /** Allowed range of a numeric fill-in (input types 1, 2, 7); numeric fill-ins may be scored. */
    range: z.object({ min: finite, max: finite }).strict().optional(),
  })
  .strict();

/** How an indicator's raw score is computed from its item scores. */
export const formulaDefinition = z.discriminatedUnion('op', [
  /** Sum of the item scores. */
  z.object({ op: z.literal('sum') }).strict(),
  /** Mean of the item scores (e.g. SCL-90 factor = factor total / item count). */
  z.object({ op: z.literal('mean') }).strict(),
  /** Sum of weight x item score; items without a weight count with weight 0. */
  z
    .object({
      op: z.literal('weightedSum'),
      weights: z.array(z.object({ no: questionNo, weight: finite }).strict()).min(1),
    })
    .strict(),
  /** Number of items whose score is at or above `value` (e.g. SCL-90 positive items: score >= 2). */
  z.object({ op: z.literal('countAtLeast'), value: finite }).strict(),
  /** Number of items whose score is below `value` (e.g. SCL-90 negative items: score < 2). */
  z.object({ op: z.literal('countBelow'), value: finite }).strict(),
  /** Mean of the item scores at or above `value`, 0 when none (e.g. SCL-90 positive-symptom mean, PSDI). */
  z.object({ op: z.literal('meanAtLeast'), value: finite }).strict(),
]);

/** Applied in order to the raw score, e.g. Zung standard score = int(raw x 1.25): linear{1.25,0} then int. */
export const transformDefinition = z.discriminatedUnion('op', [
  /** a * x + b */
  z.object({ op: z.literal('linear'), a: finite, b: finite }).strict(),
  /** Whole part (truncation toward zero). */
  z.object({ op: z.literal('int') }).strict(),
  /** Round half away from zero to `digits` decimal places. */
  z.object({ op: z.literal('round'), digits: z.int().min(0).max(6) }).strict(),
]);

/** A score band ("quota option"): closed range [min, max] -> level, colour, texts, warning. */
export const bandDefinition = z
  .object({
    min: finite,
    max: finite,
    /** Five-level scale 0 (normal, green) .. 4 (severe, dark red). */
    level: bandLevel,
    /** Display colour; defaults to LevelColours[level]. */
    colour: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
    /** Short band name (e.g. 轻度 / Mild). */
    label: localText(100),
    interpretation: longText(),
    advice: longText(),
    /** A score in this band raises a warning (预警). */
    raisesWarning: z.boolean().default(false),
    /** Where the cut-off comes from (shown with the rule). */
    source: z.string().max(500).optional(),
  })
  .strict();

/** An indicator ("quota"): a total or factor score with its formula, transforms and bands. */
export const indicatorDefinition = z
  .object({
    code: indicatorCode,
    name: localText(100),
    kind: z.enum(['total', 'factor']),
    /**
     * The questions it reads. Omitted: a factor reads the questions whose `factor` is its code; a
     * total reads every scored question (choice questions and numeric fill-ins).
     */
    items: z.array(questionNo).min(1).optional(),
    formula: formulaDefinition,
    transforms: z.array(transformDefinition).max(10).default([]),
    /** Decimal places the final score is rounded to (and band ranges are written in). */
    precision: z.int().min(0).max(4).default(0),
    bands: z.array(bandDefinition).max(20).default([]),
  })
  .strict();

/**
 * A critical item: the answer to one question raises a warning whatever the totals (e.g. PHQ-9
 * item 9 > 0). It fires when the item score is at least `minScore`, or when any of the option
 * positions in `options` is chosen; give one or both.
 */
export const criticalRuleDefinition = z
  .object({
    no: questionNo,
    minScore: finite.optional(),
    options: z.array(optionPosition).min(1).optional(),
    reason: localText(500),
    /** Where the rule comes from (shown with the rule). */
    source: z.string().max(500).optional(),
  })
  .strict();

/** The level of warning a screening rule raises (the warning levels of the warnings domain). */
export const screeningLevel = z.enum(['attention', 'critical']);

/** One condition of a screening rule: an indicator's score, or any factor's, above or at a value. */
export const screeningCondition = z.discriminatedUnion('kind', [
  /** The named indicator's score (e.g. SCL-90 total > 160, positive items > 43). */
  z.object({ kind: z.literal('indicator'), indicator: indicatorCode, op: z.enum(['gt', 'gte']), value: finite }).strict(),
  /** Any indicator of kind 'factor' (e.g. any SCL-90 factor >= 2, "other" included). */
  z.object({ kind: z.literal('anyFactor'), op: z.enum(['gt', 'gte']), value: finite }).strict(),
]);

/**
 * A screening rule: the sheet screens positive when ANY of its conditions holds, and then raises a
 * warning of the rule's level whatever the bands say (e.g. the Chinese SCL-90 rule). A void sheet
 * raises none.
 */
export const screeningRuleDefinition = z
  .object({
    name: localText(100),
    level: screeningLevel,
    conditions: z.array(screeningCondition).min(1).max(20),
    reason: localText(500),
    source: z.string().max(500).default(''),
  })
  .strict();

/**
 * A scoring convention: sources that disagree on a conversion or on cut-offs (SDS/SAS: truncate or
 * round raw x 1.25; cut-offs 53/63/73 or 50/60/70). The first convention of a form is its default
 * and should override nothing; an institution may choose another (its setting, applied at scoring
 * time). A convention replaces the transforms and/or bands of the indicators it names.
 */
export const conventionDefinition = z
  .object({
    code: indicatorCode,
    name: localText(200),
    source: z.string().max(500).default(''),
    indicators: z
      .array(
        z
          .object({
            code: indicatorCode,
            transforms: z.array(transformDefinition).max(10).optional(),
            bands: z.array(bandDefinition).max(20).optional(),
          })
          .strict(),
      )
      .max(20)
      .default([]),
  })
  .strict();

/** A validity rule: when the indicator's score meets the condition, the sheet is void (e.g. MHT lie scale >= 7). */
export const validityRuleDefinition = z
  .object({
    indicator: indicatorCode,
    op: z.enum(['gte', 'lte']),
    value: finite,
    message: localText(500),
  })
  .strict();

/**
 * How the overall mental state follows from the indicators: take the highest band level among
 * the designated indicators and map it through `levelToState` (index = level 0..4). No banded
 * designated indicator (or a void sheet) gives state 0 (none).
 */
export const mentalStateRuleDefinition = z
  .object({
    method: z.literal('maxLevel'),
    indicators: z.array(indicatorCode).min(1),
    levelToState: z
      .tuple([mentalStateValue, mentalStateValue, mentalStateValue, mentalStateValue, mentalStateValue])
      .default([1, 2, 3, 3, 4]),
  })
  .strict();

/** A whole form definition. */
export const formDefinition = z
  .object({
    formcode: formCode,
    formname: localText(100),
    /** 01 self-assessment, 02 user-archive scale, 03 registration form, 04 other-rated scale. */
    formtype: formTypeCode,
    /** Population apps the form serves (e.g. 000000001 maternity). */
    appids: z.array(appIdCode).max(10).default([]),
    instructions: longText(),
    /** Definition version; answer sheets record which version they were scored against. */
    version: z.int().min(1).max(1_000_000),
    /** Licence note: who holds the rights and what may be carried. */
    licence: longText(),
    /** Bibliographic source of the instrument and its scoring rules. */
    source: z.string().max(2000),
    /** Whether the item texts are the instrument's real wording (false: placeholder labels). */
    fulltext: z.boolean(),
    questions: z.array(questionDefinition).max(500),
    indicators: z.array(indicatorDefinition).max(100).default([]),
    critical: z.array(criticalRuleDefinition).max(100).default([]),
    validity: z.array(validityRuleDefinition).max(20).default([]),
    screening: z.array(screeningRuleDefinition).max(20).default([]),
    conventions: z.array(conventionDefinition).max(10).default([]),
    mentalState: mentalStateRuleDefinition.optional(),
  })
  .strict();

export type OptionDefinition = z.infer<typeof optionDefinition>;
export type QuestionDefinition = z.infer<typeof questionDefinition>;
export type FormulaDefinition = z.infer<typeof formulaDefinition>;
export type TransformDefinition = z.infer<typeof transformDefinition>;
export type BandDefinition = z.infer<typeof bandDefinition>;
export type IndicatorDefinition = z.infer<typeof indicatorDefinition>;
export type CriticalRuleDefinition = z.infer<typeof criticalRuleDefinition>;
export type ValidityRuleDefinition = z.infer<typeof validityRuleDefinition>;
export type ScreeningRuleDefinition = z.infer<typeof screeningRuleDefinition>;
export type ScreeningCondition = z.infer<typeof screeningCondition>;
export type ConventionDefinition = z.infer<typeof conventionDefinition>;
export type MentalStateRuleDefinition = z.infer<typeof mentalStateRuleDefinition>;
/** A parsed definition (defaults filled in). */
export type FormDefinition = z.infer<typeof formDefinition>;
/** A definition as written (defaults may be left out), e.g. in the built-in library. */
export type FormDefinitionInput = z.input<typeof formDefinition>;

/** One answer: `option` for single choice, `options` for multiple choice, `text` for fill-in. */
export const answerInput = z
  .object({
    no: questionNo,
    option: optionPosition.optional(),
    options: z.array(optionPosition).max(50).optional(),
    text: z.string().max(2000).optional(),
  })
  .strict();
/** An answer sheet as submitted. Order does not matter; each question answered at most once. */
export const answerSheet = z.object({ answers: z.array(answerInput).max(1000) }).strict();
export type AnswerInput = z.infer<typeof answerInput>;
export type AnswerSheet = z.infer<typeof answerSheet>;

/** The score of one indicator on one sheet. Band fields are null when the indicator has no bands. */
export const indicatorResult = z.object({
  code: indicatorCode,
  name: localText(100),
  kind: z.enum(['total', 'factor']),
  /** Score before transforms. */
  raw: z.number(),
  /** Final score (after transforms, rounded to precision). */
  score: z.number(),
  /** Index of the matched band in the indicator's bands. */
  band: z.int().nullable(),
  level: bandLevel.nullable(),
  colour: z.string().nullable(),
  label: localText(100).nullable(),
  interpretation: longText().nullable(),
  advice: longText().nullable(),
  raisesWarning: z.boolean(),
});

/** A warning raised by scoring: a critical item, a band with raisesWarning, or a screening rule met. */
export const scoreWarning = z.object({
  source: z.enum(['critical', 'band', 'screening']),
  reason: longText(),
  /** The question (critical) or indicator (band) that raised it. */
  no: questionNo.optional(),
  indicator: indicatorCode.optional(),
  level: bandLevel.optional(),
  /** Screening: the warning level the rule names, and its source. */
  warnlevel: screeningLevel.optional(),
  ruleSource: z.string().optional(),
});

/** The result of scoring one sheet. */
export const scoreResult = z.object({
  formcode: formCode,
  version: z.int(),
  /** Per-item scores after reversal (scored questions answered only). */
  items: z.array(z.object({ no: questionNo, score: z.number() })),
  indicators: z.array(indicatorResult),
  mentalState: mentalStateValue,
  warnings: z.array(scoreWarning),
  voided: z.boolean(),
  voidReason: localText(500).nullable(),
  /** The scoring convention applied (forms with conventions only; absent on older reports). */
  convention: z.object({ code: indicatorCode, name: localText(200), source: z.string() }).nullable().optional(),
});
export type IndicatorResult = z.infer<typeof indicatorResult>;
export type ScoreWarning = z.infer<typeof scoreWarning>;
export type ScoreResult = z.infer<typeof scoreResult>;

/** Colour of a band: its own, or the five-level scale's. */
export const bandColour = (band: Pick<BandDefinition, 'colour' | 'level'>): string => band.colour ?? LevelColours[band.level];
