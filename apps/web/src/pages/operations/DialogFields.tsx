/** What the create/edit dialogs of the operations pages (articles, goods, tracks, courses) share. */
import { Field } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';

/**
 * The institution a new item belongs to: asked only when adding (an item never changes owner) and
 * only of a caller with several institutions; left empty, the item is the caller's own.
 */
export function OwnerField({ adding }: { adding: boolean }) {
  const institutions = useInstitutions();
  if (!adding || !institutions.many) return null;
  return (
    <Field name="musercode">
      <InstitutionSelect allowClear />
    </Field>
  );
}

/** The owner part of an insert's input: the institution chosen in OwnerField, or nothing (the caller's own). */
export const ownerOf = (v: { musercode?: string }) => (v.musercode ? { musercode: v.musercode } : {});
