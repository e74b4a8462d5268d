/**
 * What other domains may call of scales: reading form definitions and briefs (store.ts), whether a
 * form carries its item text, scoring an answer sheet (with the institution's scoring convention),
 * and syncing the built-in forms.
 */
export { assertFormsHaveItemText, formsWithoutItemText, itemTextMessage, lacksItemText, type TextlessForm, textlessSql } from './item-text.js';
export { conventionChoices } from './conventions.js';
export { syncBuiltInForms } from './library-sync.js';
export { conventionOf, withConvention, scoreSheet, ScoringError, screeningSeverity, seededRandom, severitySheet } from './scoring/index.js';
export { archiveFormOf, assertFormsReadable, formBriefs, loadCurrentDefinitions, loadDefinition, questionsOf, readableFormBriefs, registrationFormsOf } from './store.js';
export { type ScaleHooks, hookScales } from './hooks.js';
