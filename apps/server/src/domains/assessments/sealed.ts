import type { SealedField } from '../../kit/crypt/index.js';

/**
 * Free-text answers at rest (issue 30 §3): each fill-in's `text` is kept sealed as `sealed` in the
 * answers of a report and of a form in progress (kit/crypt sealAnswers / openAnswers).
 */
export const assessmentSealedFields: SealedField[] = [
  { kind: 'answers', table: 'assessment', key: 'assessid', column: 'answers' },
  { kind: 'answers', table: 'assess_progress', key: ['assesscode', 'formcode'], column: 'answers' },
];
