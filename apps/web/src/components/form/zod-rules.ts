/**
 * Form rules from an action's zod input (zod 4), so a dialog refuses what the server refuses
 * without a hand-typed copy of its limits.
 *
 * - `fieldOf(schema, path)` finds a field's schema inside the (strict) object input.
 * - `describe(field)` reads what the form shows beforehand: required (the asterisk), the
 *   length limit of a text (the input's maxLength), the range of a number, the size of a list.
 * - `problemOf(field, value)` runs the field's own schema on a value and answers the first
 *   problem as a message key and its values, or null when the server would accept it.
 */
import type { z } from 'zod';
import { ruleSentences } from '@xinli/contract';

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  element?: z.ZodType;
  checks?: { _zod: { def: CheckDef } }[];
};
type CheckDef = { check: string; maximum?: number; minimum?: number; value?: number; inclusive?: boolean; format?: string };

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

/** The schema under optional/nullable/default wrappers (and the input side of a pipe). */
export function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = defOf(cur);
    if (WRAPPERS.has(d.type) && d.innerType) cur = d.innerType;
    else if (d.type === 'pipe' && d.in) cur = d.in;
    else break;
  }
  return cur;
}

/** The schema of one field (a name or a path of names) of an object input; undefined when absent. */
export function fieldOf(schema: z.ZodType, path: string | number | (string | number)[]): z.ZodType | undefined {
  let cur: z.ZodType | undefined = schema;
  for (const key of Array.isArray(path) ? path : [path]) {
    if (!cur) return undefined;
    const d = defOf(unwrap(cur));
    if (d.type === 'object' && d.shape) cur = d.shape[String(key)];
    else if (d.type === 'array' && d.element) cur = d.element;
    else return undefined;
  }
  return cur;
}

export interface FieldSpec {
  /** The server refuses a missing value (and, for text, a blank one). */
  required: boolean;
  kind: 'string' | 'number' | 'array' | 'other';
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
}

/** The checks of the first member that has any (a union such as `email | ''`). */
function checksOf(s: z.ZodType): { kind: FieldSpec['kind']; checks: CheckDef[] } {
  const inner = unwrap(s);
  const d = defOf(inner);
  if (d.type === 'union' && d.options) {
    for (const o of d.options) {
      const found = checksOf(o);
      if (found.checks.length || found.kind !== 'other') return found;
    }
    return { kind: 'other', checks: [] };
  }
  const kind = d.type === 'string' ? 'string' : d.type === 'number' || d.type === 'int' ? 'number' : d.type === 'array' ? 'array' : 'other';
  return { kind, checks: (d.checks ?? []).map((c) => c._zod.def) };
}

export function describe(field: z.ZodType): FieldSpec {
  const { kind, checks } = checksOf(field);
  const spec: FieldSpec = { required: !field.safeParse(undefined).success && !(kind === 'string' && field.safeParse('').success), kind };
  for (const c of checks) {
    if (c.check === 'max_length') spec.maxLength = c.maximum;
    else if (c.check === 'min_length') spec.minLength = c.minimum;
    else if (c.check === 'less_than') spec.max = c.value;
    else if (c.check === 'greater_than') spec.min = c.value;
  }
  return spec;
}

export interface Problem {
  /** A key of the common area's `rule` block. */
  key: 'required' | 'max' | 'min' | 'maxValue' | 'minValue' | 'maxItems' | 'format' | 'invalid' | 'sentence';
  values: Record<string, unknown>;
  /** key 'sentence': a rule that states itself in the contract (the person-name rule), in both languages. */
  sentence?: { zh: string; en: string };
}

/** Blank form values mean "not given": an empty input is undefined, a cleared number is null. */
function normalise(field: z.ZodType, value: unknown): unknown {
  if (value === null && !field.safeParse(null).success) return undefined;
  return value;
}

export function problemOf(field: z.ZodType, value: unknown): Problem | null {
  const v = normalise(field, value);
  const result = field.safeParse(v);
  if (result.success) return null;
  const issue = result.error.issues[0] as { code: string; origin?: string; maximum?: number | bigint; minimum?: number | bigint; message: string };
  if (v === undefined || v === '') return { key: 'required', values: {} };
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return { key: 'max', values: { max: Number(issue.maximum) } };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'maxItems', values: { max: Number(issue.maximum) } };
      return { key: 'maxValue', values: { max: Number(issue.maximum) } };
    case 'too_small':
      // A trimmed text that is empty is a missing one.
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? { key: 'required', values: {} } : { key: 'min', values: { min: Number(issue.minimum) } };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'required', values: {} };
      return { key: 'minValue', values: { min: Number(issue.minimum) } };
    case 'invalid_format': {
      const sentence = ruleSentences[issue.message];
      return sentence ? { key: 'sentence', values: {}, sentence } : { key: 'format', values: {} };
    }
    default:
      return { key: 'invalid', values: {} };
  }
}
