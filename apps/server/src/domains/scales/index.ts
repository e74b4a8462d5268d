/**
 * What other domains may call of scales: reading form definitions and briefs (store.ts), whether a
 * form carries its item text, scoring an answer sheet (with the institution's scoring convention),
 * syncing the built-in forms and norms, and the norms and reliable change (issue 31) that reports
 * and warnings show.
 */
export { assertFormsHaveItemText, formsWithoutItemText, itemTextMessage, lacksItemText, type TextlessForm, textlessSql } from './item-text.js';
export { conventionChoices } from './conventions.js';
export { syncBuiltInForms } from './library-sync.js';
export { conventionOf, withConvention, scoreSheet, ScoringError, screeningSeverity, seededRandom, severitySheet } from './scoring/index.js';
export { archiveFormOf, assertFormsReadable, formBriefs, formNameOf, loadCurrentDefinitions, loadDefinition, questionsOf, readableFormBriefs, registrationFormsOf } from './store.js';
export { type ScaleHooks, hookScales } from './hooks.js';
export { changeBasisOf, normsOfForms, reportAgainstNorm, syncBuiltInNorms } from './norms.js';
export { type ChangeBasis, changesAlong, reliableChange, reliableChangeIndex, RELIABLE_Z } from './reliable-change.js';
