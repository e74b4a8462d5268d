/** What other domains may call of scales beyond store.ts: whether a form carries its item text. */
export { assertFormsHaveItemText, formsWithoutItemText, itemTextMessage, lacksItemText, textlessSql, type TextlessForm } from './item-text.js';
