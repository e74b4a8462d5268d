/**
 * Field encryption at rest (issue 30 §3): seal/open (AES-256-GCM, the key id in the value),
 * blindIndex (HMAC-SHA-256) for exact search and uniqueness, the keyring and the batch steps that
 * encrypt plain rows and re-encrypt after a rotation. README "Data key".
 */
export {
  blindIndex,
  currentKey,
  isSealed,
  newDataKeyText,
  normalisePhone,
  open,
  parseDataKey,
  seal,
  SealedValueError,
  useDataKeys,
} from './crypt.js';
export { countUnsealed, openAnswers, resealAll, sealAnswers, sealPending, type SealedField, type SweepOptions } from './fields.js';
export { installDataKeys, loadIndexKey, resealIndexKey, type DataKeyConfig } from './keyring.js';
export { dataKeyTable } from './tables.js';
