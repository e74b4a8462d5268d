/**
 * The key convention: a field's label is `<area>.<resource>.<field>` (the page's resource,
 * e.g. `authority.role`), else the shared `common.<field>`, so columns, filters and form fields
 * find their label from the field name alone.
 */
import i18n from '../i18n';
import type { MessageKey } from '../i18n/keys';

export type Resource = `${string}.${string}` | string;

export function labelKey(resource: Resource | undefined, field: string): string {
  if (resource && i18n.exists(`${resource}.${field}`)) return `${resource}.${field}`;
  if (i18n.exists(`common.${field}`)) return `common.${field}`;
  return resource ? `${resource}.${field}` : field;
}

/** Whether the field has a label of the resource or a shared one. */
export const hasLabel = (resource: Resource | undefined, field: string) => i18n.exists(labelKey(resource, field));

export function labelOf(resource: Resource | undefined, field: string): string {
  return i18n.t(labelKey(resource, field)) as string;
}

/** A message of the resource when it has one (`authority.role.rolekeyFormat`), else the common one. */
export function messageOf(resource: Resource | undefined, key: string, commonKey: MessageKey, values: Record<string, unknown> = {}): string {
  if (resource && i18n.exists(`${resource}.${key}`)) return i18n.t(`${resource}.${key}`, values) as string;
  return i18n.t(commonKey, values) as string;
}
