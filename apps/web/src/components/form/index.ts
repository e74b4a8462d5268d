export { default as FormDialog, Field, ContractFields, contractRules, type FormDialogProps, type FieldProps } from './FormDialog';
export { describe, fieldOf, problemOf, unwrap, type FieldSpec, type Problem } from './zod-rules';
