/**
 * The scoring engine: pure functions over the contract's definition model (no HTTP, no SQL).
 *
 * - parseDefinition(input): FormDefinition — zod parse + cross-reference validation; throws ScoringError('definition').
 * - validateDefinition(def): DefinitionIssue[] — cross-reference problems of a parsed definition.
 * - scoreSheet(def, sheet): ScoreResult — throws ScoringError('answers') on a faulty sheet.
 * - indicatorRange(def, indicator): {min, max} — reachable final scores of an indicator.
 */
export { scoreSheet } from './score.js';
export { parseDefinition, validateDefinition } from './validate.js';
export { indicatorRange, resolveItems, isScored } from './formulas.js';
export { findBand } from './bands.js';
export { conventionOf, withConvention } from './rules.js';
export { sheetOf, randomSheet, seededRandom, severitySheet, screeningSeverity, type Severity } from './sheets.js';
export { ScoringError, type AnswerIssue, type AnswerIssueKind, type DefinitionIssue } from './errors.js';
