export { default as FormDialog, Field, ContractFields, contractRules, problemText, type FormDialogProps, type FieldProps } from './FormDialog';
export { describe, fieldOf, problemOf, unwrap, type FieldSpec, type Problem } from './zod-rules';
export { emptyOf, newValues, recordValues, shapeValues } from './schema-values';
export {
  default as RegionPicker,
  regionToFields,
  fieldsToRegion,
  regionQuery,
  type RegionPath,
  type RegionPickerProps,
  type Region,
} from '../RegionPicker';
export { RemoveRowButton, AddRowButton, RowList, type RowListProps } from './rows';
