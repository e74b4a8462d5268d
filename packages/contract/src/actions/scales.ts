import { z } from 'zod';
import { action, base64File, codes, flag, idString, pageFields, pageOf, text } from '../catalogue-kit.js';
import { answerInput, bandDefinition, formDefinition, localText, longText, scoreResult } from '../scales/definition.js';

/**
 * The scale library (SPEC §2 plan management: scale library 00003, comments database 00004).
 *
 * Built-in scales (the platform library) have `builtin: true` and musercode null: everyone reads
 * them, nobody edits, enables/disables or deletes them (permissionDenied); copyForm makes an own,
 * editable copy. Editing a scale whose current version already has results writes a new version
 * (the answer says `version`); results keep the version they were scored with.
 *
 * Files: exports are downloads (form post, SPEC §7). Imports take the file inside the JSON body
 * as `{ filename, content }` with `content` the file's bytes in base64 (capped at about 1 MB of
 * file), which keeps uploads on the one JSON action route.
 */

/** A form as lists show it (stages, plans, the library). */
export const formBrief = z.object({
  formcode: z.string(),
  formname: z.string(),
  formtype: z.string(),
  version: z.int(),
  questioncount: z.int(),
  /** True for the platform's built-in scales (read-only, may be copied). */
  builtin: z.boolean(),
  enabled: z.int(),
  /**
   * True when the form has no item text (a built-in instrument whose wording is not licensed:
   * placeholder items only). Such a form cannot be given to respondents until an institution
   * copies it and enters the licensed wording in the scale editor.
   */
  textless: z.boolean(),
});
export type FormBrief = z.infer<typeof formBrief>;

/** A library row: the brief plus what the library page shows and filters on. */
export const formRow = formBrief.extend({
  appids: z.array(z.string()),
  /** The owning institution; '' for built-in scales. */
  musercode: z.string(),
  insname: z.string(),
  indicatorcount: z.int(),
  licence: z.string(),
  source: z.string(),
  copiedfrom: z.string(),
  createdat: z.string(),
  updatedat: z.string(),
});
export type FormRow = z.infer<typeof formRow>;

/** What the editor sends: a whole definition; the server assigns formcode and version. */
export const formDefinitionBody = formDefinition.omit({ formcode: true, version: true });
export type FormDefinitionBody = z.input<typeof formDefinitionBody>;

/** A score band with its id (quota option). */
export const quotaOptionRow = z.object({
  optionid: z.string(),
  formcode: z.string(),
  version: z.int(),
  quotacode: z.string(),
  quotaname: z.string(),
  sort: z.int(),
  band: bandDefinition,
  /** The band colour in effect (its own, or the level's). */
  colour: z.string(),
});
export type QuotaOptionRow = z.infer<typeof quotaOptionRow>;

/** A comment (interpretation and advice of one band) as the comments database lists it. */
export const commentRow = z.object({
  optionid: z.string(),
  formcode: z.string(),
  formname: z.string(),
  builtin: z.boolean(),
  version: z.int(),
  quotacode: z.string(),
  quotaname: z.string(),
  min: z.number(),
  max: z.number(),
  level: z.int(),
  label: z.string(),
  interpretation: longText(),
  advice: longText(),
  raisesWarning: z.boolean(),
});

/**
 * Band fields to change; absent ones keep their value. Written out (not bandDefinition.partial())
 * because a partial keeps defaults: an absent raisesWarning would silently become false.
 */
const bandPatch = z.strictObject({
  min: bandDefinition.shape.min.optional(),
  max: bandDefinition.shape.max.optional(),
  level: bandDefinition.shape.level.optional(),
  colour: bandDefinition.shape.colour,
  label: bandDefinition.shape.label.optional(),
  interpretation: bandDefinition.shape.interpretation.optional(),
  advice: bandDefinition.shape.advice.optional(),
  raisesWarning: z.boolean().optional(),
});

const LIBRARY_READ = codes('00003', '00002', '00001', '00040', '00004');
const LIBRARY_WRITE = codes('00003');
const QUOTA_READ = codes('00003', '00004');
const COMMENT = codes('00004');

const formtype = z.enum(['01', '02', '03', '04']);
const appid = z.string().regex(/^[0-9]{9}$/);
/** A file carried in a JSON body: name and base64 bytes (about 1 MB of file at most). */
const uploadedFile = {
  filename: z.string().trim().min(1).max(200),
  content: base64File(1_400_000),
};
const versionWritten = z.object({ formcode: z.string(), version: z.int() });

export const scaleActions = {
  'as.m.assess.forms.getFormPageList': action({
    access: LIBRARY_READ,
    kind: 'json',
    op: 'list',
    summary: 'The scale library: built-in scales and the caller’s own, filtered by name, type, app, enabled and built-in; paged.',
    input: z.strictObject({
      formname: text(100).optional(),
      formtype: z.union([formtype, z.literal('')]).optional(),
      appid: z.union([appid, z.literal('')]).optional(),
      enabled: flag.optional(),
      builtin: flag.optional(),
      ...pageFields,
    }),
    output: pageOf(formRow),
  }),
  'as.m.assess.forms.getForm': action({
    access: LIBRARY_READ,
    kind: 'json',
    op: 'read',
    summary: 'One scale: its library row, its definition (current version, or the version asked for) and its versions with result counts.',
    input: z.strictObject({ formcode: idString, version: z.int().min(1).optional() }),
    output: z.object({
      form: formRow,
      definition: formDefinition,
      versions: z.array(z.object({ version: z.int(), createdat: z.string(), resultcount: z.int() })),
      /** The scale's edit counter: an editor sends it back with updateForm. */
      revision: z.int(),
    }),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.insertForm': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Create a scale from a whole definition for the caller or an institution in scope; the definition is validated by the scoring engine.',
    input: z.strictObject({ musercode: idString.optional(), definition: formDefinitionBody }),
    output: versionWritten,
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.forms.updateForm': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Replace the definition of an own scale; a new version when the current one has results. Score bands keep their ids by position. ' +
      'revision is the one getForm answered: an edit based on a revision that is no longer current answers conflict (reload and try again).',
    input: z.strictObject({ formcode: idString, revision: z.int().min(0), definition: formDefinitionBody }),
    output: versionWritten,
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.copyForm': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Copy a readable scale (built-in or own) into an own, editable scale at version 1; optionally renamed.',
    input: z.strictObject({ formcode: idString, musercode: idString.optional(), formname: text(100).optional() }),
    output: versionWritten,
    ids: { formcode: 'form', musercode: 'muser' },
  }),
  'as.m.assess.forms.deleteForm': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Delete an own scale (also from stages and plans); refused (conflict) once it has results: disable it instead.',
    input: z.strictObject({ formcode: idString }),
    output: z.null(),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.enableForm': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Enable (1) or disable (0) an own scale; disabled scales are not offered for new assessments.',
    input: z.strictObject({ formcode: idString, enabled: flag }),
    output: z.null(),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.previewScore': action({
    access: codes('00003', '00001', '00002', '00004'),
    kind: 'json',
    op: 'read',
    summary:
      'Score an answer sheet against a readable scale’s current version without storing anything (questions from 1, options from 1).',
    input: z.strictObject({ formcode: idString, answers: z.array(answerInput).max(1000) }),
    output: scoreResult,
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.getConventions': action({
    access: LIBRARY_READ,
    kind: 'json',
    op: 'read',
    summary:
      'The scoring conventions of the caller’s institution (or one in scope): each form offering several (SDS/SAS cut-offs and rounding), its conventions with their sources, and the one chosen (the first by default).',
    input: z.strictObject({ musercode: idString.optional() }),
    output: z.object({
      musercode: z.string(),
      forms: z.array(
        z.object({
          formcode: z.string(),
          formname: localText(100),
          conventions: z.array(z.object({ code: z.string(), name: localText(200), source: z.string() })),
          code: z.string(),
        }),
      ),
    }),
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.forms.setConvention': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Choose the scoring convention an institution in scope scores a form with (applied to sheets scored from now on; each report keeps the one it used); audited with the old and new choice.',
    input: z.strictObject({ musercode: idString.optional(), formcode: idString, code: idString }),
    output: z.null(),
    ids: { musercode: 'muser', formcode: 'form' },
    changes: 'settings',
  }),
  'as.m.assess.forms.exportFormJson': action({
    access: LIBRARY_READ,
    kind: 'download',
    op: 'export',
    summary: 'Download a readable scale’s current definition as a JSON file (importable with importFormJson).',
    input: z.strictObject({ formcode: idString }),
    output: z.unknown(),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.importFormJson': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Create an own scale from an exported JSON file or a bare definition (base64 in the body); a bad file answers badImportFile and imports nothing.',
    input: z.strictObject({ musercode: idString.optional(), ...uploadedFile }),
    output: versionWritten,
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.forms.exportFormExcelTemplate': action({
    access: LIBRARY_READ,
    kind: 'download',
    op: 'export',
    summary: 'Download the Excel template for bulk questions: empty, or filled with a readable scale’s questions when formcode is given.',
    input: z.strictObject({ formcode: idString.optional() }),
    output: z.unknown(),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.forms.importFormExcel': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Replace the questions of an own scale from the filled Excel template (base64 in the body); bad rows answer badImportFile with their row numbers and import nothing.',
    input: z.strictObject({ formcode: idString, ...uploadedFile }),
    output: versionWritten.extend({ questioncount: z.int() }),
    ids: { formcode: 'form' },
  }),

  'as.m.assess.quota.getQuotaFormOptionList': action({
    access: QUOTA_READ,
    kind: 'json',
    op: 'list',
    summary: 'Score bands (quota options) of a readable scale’s current version (or the version asked), optionally of one indicator.',
    input: z.strictObject({ formcode: idString, quotacode: text(32).optional(), version: z.int().min(1).optional() }),
    output: z.array(quotaOptionRow),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.quota.insertQuotaFormOption': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Add a score band to an indicator of an own scale; the bands must still tile the score range (else validation with the reason).',
    input: z.strictObject({ formcode: idString, quotacode: idString, band: bandDefinition }),
    output: versionWritten.extend({ optionid: z.string() }),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.quota.updateQuotaFormOption': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Change fields of one score band of an own scale (range, level, colour, texts, warning); the bands must still tile the range.',
    input: z.strictObject({ optionid: idString, band: bandPatch }),
    output: versionWritten,
    ids: { optionid: 'quotaoption' },
  }),
  'as.m.assess.quota.deleteQuotaFormOption': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Remove one score band of an own scale; allowed when the rest still tile the range (or it was the only band).',
    input: z.strictObject({ optionid: idString }),
    output: versionWritten,
    ids: { optionid: 'quotaoption' },
  }),
  'as.m.assess.quota.saveQuotaFormOptions': action({
    access: LIBRARY_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Replace all score bands of one indicator of an own scale at once (moving a cut-off changes two bands together); optionid keeps a band’s id.',
    input: z.strictObject({
      formcode: idString,
      quotacode: idString,
      options: z.array(z.strictObject({ optionid: idString.optional(), band: bandDefinition })).max(20),
    }),
    output: versionWritten,
    ids: { formcode: 'form', 'options.optionid': 'quotaoption' },
  }),

  'as.m.assess.comment.getCommentPageList': action({
    access: COMMENT,
    kind: 'json',
    op: 'list',
    summary:
      'The comments database: interpretation and advice of every band of readable scales (current versions), by scale name, scale, level; paged.',
    input: z.strictObject({
      formname: text(100).optional(),
      formcode: z.union([idString, z.literal('')]).optional(),
      level: z.int().min(0).max(4).optional(),
      builtin: flag.optional(),
      ...pageFields,
    }),
    output: pageOf(commentRow),
    ids: { formcode: 'form' },
  }),
  'as.m.assess.comment.updateComment': action({
    access: COMMENT,
    kind: 'json',
    op: 'write',
    summary: 'Edit the interpretation and/or advice of one band of an own scale (a new version when the current one has results).',
    input: z.strictObject({ optionid: idString, interpretation: longText().optional(), advice: longText().optional() }),
    output: versionWritten,
    ids: { optionid: 'quotaoption' },
  }),
};
