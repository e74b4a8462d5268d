/**
 * A dialog's values from its action's zod input, so a field is named once (its form item):
 *
 * - `newValues(schema, given)`: what a "new" dialog opens with: each field's zod default, else its
 *   empty value ('' for a text, [] for a list, null for a "none" choice) when the action accepts
 *   it; then the page's own starting values (a parent, an institution) on top.
 * - `recordValues(schema, record, own)`: what an "edit" dialog opens with: the record's fields that the
 *   input has, and the form's own fields (`own`: a region path the page made of the record's codes).
 * - `shapeValues(schema, values)`: what is sent: each field of the form, a cleared one as its
 *   default or empty value, one left unset (no default, no empty value) not at all. Values the
 *   input does not have (a password confirmation) pass as they are, for the page to use.
 */
import type { z } from 'zod';
import { unwrap } from './zod-rules';

type Values = Record<string, unknown>;

const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> =>
  (unwrap(schema) as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def.shape ?? {};

/** Empty values in the order a field takes them: a text, a list, a "none". */
const EMPTIES: unknown[] = ['', [], null];

/** The field's default, else the first empty value it accepts; undefined when it has neither (a required field). */
export function emptyOf(field: z.ZodType): unknown {
  const unset = field.safeParse(undefined);
  if (unset.success && unset.data !== undefined) return unset.data;
  for (const empty of EMPTIES) if (field.safeParse(empty).success) return Array.isArray(empty) ? [] : empty;
  return undefined;
}

/** Keeps only the entries with a value. */
const defined = (values: Values): Values => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));

export function newValues<V extends object>(schema: z.ZodType, given: Partial<V> = {}): Partial<V> {
  const empties = Object.fromEntries(Object.entries(shapeOf(schema)).map(([key, field]) => [key, emptyOf(field)]));
  return { ...defined(empties), ...defined(given as Values) } as Partial<V>;
}

export function recordValues<V extends object>(schema: z.ZodType, record: object, own: string[] = []): Partial<V> {
  const row = record as Values;
  return Object.fromEntries(
    [...Object.keys(shapeOf(schema)), ...own]
      .filter((key) => key in row)
      .map((key) => [key, row[key]]),
  ) as Partial<V>;
}

export function shapeValues<V extends object>(schema: z.ZodType, values: V): V {
  const fields = shapeOf(schema);
  const shaped = Object.entries(values as Values).map(([key, value]) => [key, fields[key] ? (value ?? emptyOf(fields[key])) : value]);
  return defined(Object.fromEntries(shaped)) as V;
}
