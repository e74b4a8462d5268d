/**
 * The scale editor's form state and its conversion to and from the contract's definition model
 * (packages/contract/src/scales/definition.ts).
 *
 * The form keeps what staff type: empty inputs are null, item lists are short text ("1-9, 12"),
 * question numbers are positions (the list order is the numbering). The definition is what the
 * server stores and scores: optional fields absent rather than empty, numbers only where the
 * question type allows them. Every reference to a question (indicator items, weights, critical
 * rules) is a question number, so moving or deleting a question renumbers them (remapQuestionRefs).
 */
import type {
  AnswerInput,
  BandDefinition,
  ConventionDefinition,
  CriticalRuleDefinition,
  FormDefinition,
  FormDefinitionBody,
  FormDefinitionInput,
  FormulaDefinition,
  IndicatorDefinition,
  LocalText,
  QuestionDefinition,
  ScreeningRuleDefinition,
  TransformDefinition,
  ValidityRuleDefinition,
} from '@xinli/contract';

/** Fill-in input types that carry a number (integer, decimal, number picker): they may be scored. */
export const NUMERIC_INPUT_TYPES: readonly number[] = [1, 2, 7];

export interface OptionValues {
  text: LocalText;
  score: number | null;
}

export interface QuestionValues {
  type: 0 | 1 | 2;
  inputtype: number | null;
  required: boolean;
  text: LocalText;
  options: OptionValues[];
  reverse: boolean;
  factor: string | null;
  rangeMin: number | null;
  rangeMax: number | null;
}

export interface BandValues {
  min: number | null;
  max: number | null;
  level: number;
  /** Own colour; null uses the five-level scale's colour of `level`. */
  colour: string | null;
  label: LocalText;
  interpretation: LocalText;
  advice: LocalText;
  raisesWarning: boolean;
  /** Where the cut-off comes from (absent or '' for none). */
  source?: string;
}

export type FormulaOp = FormulaDefinition['op'];

export interface TransformValues {
  op: TransformDefinition['op'];
  a: number | null;
  b: number | null;
  digits: number | null;
}

export interface IndicatorValues {
  code: string;
  name: LocalText;
  kind: 'total' | 'factor';
  /** Question numbers as text ("1-9, 12"); empty = the factor's questions, or every scored one for a total. */
  items: string;
  formula: FormulaOp;
  /** weightedSum: one weight per question number. */
  weights: { no: number | null; weight: number | null }[];
  /** countAtLeast, countBelow, meanAtLeast: the threshold. */
  countValue: number | null;
  transforms: TransformValues[];
  precision: number;
  bands: BandValues[];
}

export interface CriticalValues {
  no: number | null;
  minScore: number | null;
  /** Option positions (1-based) that fire the rule. */
  options: number[];
  reason: LocalText;
  /** Where the rule comes from (absent or '' for none). */
  source?: string;
}

/** One condition of a screening rule: an indicator (or any factor) above or at a value. */
export interface ScreeningConditionValues {
  kind: 'indicator' | 'anyFactor';
  indicator: string | null;
  op: 'gt' | 'gte';
  value: number | null;
}

/** A screening rule: positive when any condition holds; raises a warning of its level. */
export interface ScreeningValues {
  name: LocalText;
  level: 'attention' | 'critical';
  conditions: ScreeningConditionValues[];
  reason: LocalText;
  source: string;
}

/**
 * What a convention replaces of one indicator: its conversion (the transforms, e.g. x1.25 then
 * truncate or round) and/or its bands. What it does not replace comes from the Indicators tab.
 */
export interface ConventionIndicatorValues {
  code: string | null;
  replaceTransforms: boolean;
  transforms: TransformValues[];
  replaceBands: boolean;
  bands: BandValues[];
}

/**
 * A scoring convention (issue 31 §1: SDS/SAS cut-offs 53 or 50, x1.25 truncated or rounded): an
 * institution chooses one per form in the scale library. Exactly one is the default (stored first:
 * the one institutions that chose none score with).
 */
export interface ConventionValues {
  code: string;
  name: LocalText;
  source: string;
  isDefault: boolean;
  indicators: ConventionIndicatorValues[];
}

export interface ValidityValues {
  indicator: string | null;
  op: 'gte' | 'lte';
  value: number | null;
  message: LocalText;
}

export interface EditorValues {
  formcode: string;
  formname: LocalText;
  formtype: '01' | '02' | '03' | '04';
  appids: string[];
  instructions: LocalText;
  version: number;
  licence: LocalText;
  source: string;
  fulltext: boolean;
  questions: QuestionValues[];
  indicators: IndicatorValues[];
  critical: CriticalValues[];
  validity: ValidityValues[];
  screening: ScreeningValues[];
  /** Scoring conventions (SDS/SAS cut-offs and rounding); an institution chooses one in the scale library. */
  conventions: ConventionValues[];
  mentalStateOn: boolean;
  mentalStateIndicators: string[];
  /** Index = band level 0..4, value = mental state 0..4. */
  levelToState: number[];
}

const blank = (): LocalText => ({ zh: '', en: '' });
const copyText = (t: LocalText | undefined): LocalText => ({ zh: t?.zh ?? '', en: t?.en ?? '' });
export const DEFAULT_LEVEL_TO_STATE = [1, 2, 3, 3, 4];

export const newOption = (score: number): OptionValues => ({ text: blank(), score });

export const newQuestion = (type: 0 | 1 | 2 = 1): QuestionValues => ({
  type,
  inputtype: type === 0 ? 0 : null,
  required: true,
  text: blank(),
  options: type === 0 ? [] : [newOption(0), newOption(1), newOption(2), newOption(3)],
  reverse: false,
  factor: null,
  rangeMin: null,
  rangeMax: null,
});

export const newBand = (level = 0, min: number | null = null, max: number | null = null): BandValues => ({
  min,
  max,
  level,
  colour: null,
  label: blank(),
  interpretation: blank(),
  advice: blank(),
  raisesWarning: level >= 3,
});

export const newIndicator = (kind: 'total' | 'factor', code: string): IndicatorValues => ({
  code,
  name: blank(),
  kind,
  items: '',
  formula: 'sum',
  weights: [],
  countValue: null,
  transforms: [],
  precision: 0,
  bands: [],
});

export const newScreening = (): ScreeningValues => ({
  name: blank(),
  level: 'attention',
  conditions: [{ kind: 'indicator', indicator: null, op: 'gte', value: null }],
  reason: blank(),
  source: '',
});
export const newConventionIndicator = (code: string | null = null): ConventionIndicatorValues => ({
  code,
  replaceTransforms: false,
  transforms: [],
  replaceBands: true,
  bands: [],
});
/** A new convention; the first of a form is its default. */
export const newConvention = (code: string, isDefault: boolean): ConventionValues => ({
  code,
  name: blank(),
  source: '',
  isDefault,
  indicators: [],
});
export const newCritical = (): CriticalValues => ({ no: null, minScore: null, options: [], reason: blank() });
export const newValidity = (): ValidityValues => ({ indicator: null, op: 'gte', value: null, message: blank() });

/** A fresh custom scale: one total indicator, no questions yet. */
export function emptyValues(formcode = ''): EditorValues {
  return {
    formcode,
    formname: blank(),
    formtype: '01',
    appids: [],
    instructions: blank(),
    version: 1,
    licence: blank(),
    source: '',
    fulltext: true,
    questions: [],
    indicators: [newIndicator('total', 'total')],
    critical: [],
    validity: [],
    screening: [],
    conventions: [],
    mentalStateOn: false,
    mentalStateIndicators: [],
    levelToState: [...DEFAULT_LEVEL_TO_STATE],
  };
}

export const isNumericFill = (q: Pick<QuestionValues, 'type' | 'inputtype'>) =>
  q.type === 0 && NUMERIC_INPUT_TYPES.includes(q.inputtype ?? 0);
export const isChoice = (q: Pick<QuestionValues, 'type'>) => q.type === 1 || q.type === 2;
export const isScored = (q: Pick<QuestionValues, 'type' | 'inputtype'>) => isChoice(q) || isNumericFill(q);

/**
 * Parses a list of question numbers: "1-4, 7 9；12" -> [1, 2, 3, 4, 7, 9, 12]. Separators may be
 * commas (half or full width), semicolons, Chinese enumeration commas or spaces; ranges use - or ~.
 * Duplicates are dropped, order is kept. Returns null when a part is not a number or range.
 */
export function parseItemList(text: string): number[] | null {
  const parts = text
    .split(/[,，;；、\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const part of parts) {
    const range = /^(\d+)\s*[-~～—]\s*(\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (from < 1 || to < from || to - from > 1000) return null;
      for (let n = from; n <= to; n++) out.push(n);
    } else if (/^\d+$/.test(part) && Number(part) >= 1) out.push(Number(part));
    else return null;
  }
  return [...new Set(out)];
}

/** The inverse of parseItemList: consecutive runs of three or more become ranges ("1-4, 7"). */
export function formatItemList(items: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < items.length) {
    let j = i;
    while (j + 1 < items.length && items[j + 1] === items[j] + 1) j++;
    if (j - i >= 2) out.push(`${items[i]}-${items[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(items[k]));
    i = j + 1;
  }
  return out.join(', ');
}

const num = (v: number | null | undefined): number | undefined => (v === null || v === undefined || Number.isNaN(v) ? undefined : v);
/** Numbers the definition requires: an empty input becomes 0 so the server reports the real problem (e.g. a gap). */
const req = (v: number | null | undefined): number => num(v) ?? 0;
const trimText = (t: LocalText): LocalText => ({ zh: t.zh.trim(), en: t.en.trim() });

function questionToDefinition(q: QuestionValues, index: number): QuestionDefinition {
  const def: QuestionDefinition = {
    no: index + 1,
    type: q.type,
    required: q.required,
    text: trimText(q.text),
    options: isChoice(q) ? q.options.map((o) => ({ text: trimText(o.text), score: req(o.score) })) : [],
    reverse: isScored(q) ? q.reverse : false,
  };
  if (q.type === 0) def.inputtype = q.inputtype ?? 0;
  if (q.factor) def.factor = q.factor;
  const min = num(q.rangeMin);
  const max = num(q.rangeMax);
  if (isNumericFill(q) && min !== undefined && max !== undefined) def.range = { min, max };
  return def;
}

function formulaToDefinition(ind: IndicatorValues): FormulaDefinition {
  switch (ind.formula) {
    case 'weightedSum':
      return {
        op: 'weightedSum',
        weights: ind.weights.filter((w) => num(w.no) !== undefined).map((w) => ({ no: req(w.no), weight: req(w.weight) })),
      };
    case 'countAtLeast':
    case 'countBelow':
    case 'meanAtLeast':
      return { op: ind.formula, value: req(ind.countValue) };
    default:
      return { op: ind.formula };
  }
}

function transformToDefinition(t: TransformValues): TransformDefinition {
  if (t.op === 'linear') return { op: 'linear', a: num(t.a) ?? 1, b: num(t.b) ?? 0 };
  if (t.op === 'round') return { op: 'round', digits: num(t.digits) ?? 0 };
  return { op: 'int' };
}

function bandToDefinition(b: BandValues): BandDefinition {
  const def: BandDefinition = {
    min: req(b.min),
    max: req(b.max),
    level: b.level,
    label: trimText(b.label),
    interpretation: trimText(b.interpretation),
    advice: trimText(b.advice),
    raisesWarning: b.raisesWarning,
  };
  if (b.colour) def.colour = b.colour;
  if (b.source?.trim()) def.source = b.source.trim();
  return def;
}

/** Thrown when a field cannot be turned into the definition (the editor shows it next to the field). */
export class EditorValueError extends Error {
  constructor(
    readonly path: (string | number)[],
    readonly reason: 'itemList',
  ) {
    super(`${reason} at ${path.join('.')}`);
  }
}

function indicatorToDefinition(ind: IndicatorValues, index: number): IndicatorDefinition {
  const def: IndicatorDefinition = {
    code: ind.code.trim(),
    name: trimText(ind.name),
    kind: ind.kind,
    formula: formulaToDefinition(ind),
    transforms: ind.transforms.map(transformToDefinition),
    precision: ind.precision,
    bands: ind.bands.map(bandToDefinition),
  };
  if (ind.items.trim()) {
    const items = parseItemList(ind.items);
    if (!items) throw new EditorValueError(['indicators', index, 'items'], 'itemList');
    if (items.length) def.items = items;
  }
  return def;
}

function criticalToDefinition(c: CriticalValues): CriticalRuleDefinition {
  const def: CriticalRuleDefinition = { no: req(c.no), reason: trimText(c.reason) };
  const min = num(c.minScore);
  if (min !== undefined) def.minScore = min;
  if (c.options.length) def.options = [...c.options].sort((a, b) => a - b);
  if (c.source?.trim()) def.source = c.source.trim();
  return def;
}

const screeningToDefinition = (r: ScreeningValues): ScreeningRuleDefinition => ({
  name: trimText(r.name),
  level: r.level,
  conditions: r.conditions.map((c) =>
    c.kind === 'anyFactor'
      ? { kind: 'anyFactor', op: c.op, value: req(c.value) }
      : { kind: 'indicator', indicator: c.indicator ?? '', op: c.op, value: req(c.value) },
  ),
  reason: trimText(r.reason),
  source: r.source.trim(),
});

function conventionToDefinition(c: ConventionValues): ConventionDefinition {
  return {
    code: c.code.trim(),
    name: trimText(c.name),
    source: c.source.trim(),
    // A row replacing nothing changes nothing: it is left out.
    indicators: c.indicators
      .filter((o) => o.replaceTransforms || o.replaceBands)
      .map((o) => ({
        code: o.code ?? '',
        ...(o.replaceTransforms ? { transforms: o.transforms.map(transformToDefinition) } : {}),
        ...(o.replaceBands ? { bands: o.bands.map(bandToDefinition) } : {}),
      })),
  };
}

/** The conventions as stored: the default first (the engine scores with the first when none is chosen), the rest in order. */
export const conventionsToDefinition = (list: ConventionValues[]): ConventionDefinition[] =>
  [...list.filter((c) => c.isDefault), ...list.filter((c) => !c.isDefault)].map(conventionToDefinition);

const validityToDefinition = (v: ValidityValues): ValidityRuleDefinition => ({
  indicator: v.indicator ?? '',
  op: v.op,
  value: req(v.value),
  message: trimText(v.message),
});

/** Editor values -> the definition the server validates and stores. */
export function valuesToDefinition(v: EditorValues): FormDefinitionInput {
  const def: FormDefinitionInput = {
    formcode: v.formcode.trim(),
    formname: trimText(v.formname),
    formtype: v.formtype,
    appids: [...v.appids],
    instructions: v.instructions,
    version: v.version,
    licence: v.licence,
    source: v.source.trim(),
    fulltext: v.fulltext,
    questions: v.questions.map(questionToDefinition),
    indicators: v.indicators.map(indicatorToDefinition),
    critical: v.critical.map(criticalToDefinition),
    validity: v.validity.map(validityToDefinition),
    screening: v.screening.map(screeningToDefinition),
    conventions: conventionsToDefinition(v.conventions),
  };
  if (v.mentalStateOn && v.mentalStateIndicators.length) {
    def.mentalState = {
      method: 'maxLevel',
      indicators: [...v.mentalStateIndicators],
      levelToState: v.levelToState.slice(0, 5) as [number, number, number, number, number],
    };
  }
  return def;
}

/** What insertForm / updateForm take: the definition without formcode and version (the server assigns them). */
export function valuesToBody(v: EditorValues): FormDefinitionBody {
  const { formcode: _code, version: _version, ...body } = valuesToDefinition(v);
  return body;
}

const transformToValues = (t: TransformDefinition): TransformValues => ({
  op: t.op,
  a: t.op === 'linear' ? t.a : null,
  b: t.op === 'linear' ? t.b : null,
  digits: t.op === 'round' ? t.digits : null,
});

/** A band as stored or as written (raisesWarning may be left out) -> editor values. */
const bandToValues = (b: Omit<BandDefinition, 'raisesWarning'> & { raisesWarning?: boolean }): BandValues => ({
  min: b.min,
  max: b.max,
  level: b.level,
  colour: b.colour ?? null,
  label: copyText(b.label),
  interpretation: copyText(b.interpretation),
  advice: copyText(b.advice),
  raisesWarning: b.raisesWarning ?? false,
  ...(b.source ? { source: b.source } : {}),
});

/** The stored conventions as the editor shows them: the first is the default. */
const conventionsOf = (input: FormDefinition | FormDefinitionInput): ConventionValues[] =>
  (input.conventions ?? []).map((c, i) => ({
    code: c.code,
    name: copyText(c.name),
    source: c.source ?? '',
    isDefault: i === 0,
    indicators: (c.indicators ?? []).map((o) => ({
      code: o.code,
      replaceTransforms: o.transforms !== undefined,
      transforms: (o.transforms ?? []).map(transformToValues),
      replaceBands: o.bands !== undefined,
      bands: (o.bands ?? []).map(bandToValues),
    })),
  }));

/** A stored definition -> editor values. Question numbers become positions (the list is sorted by number). */
export function definitionToValues(input: FormDefinition | FormDefinitionInput): EditorValues {
  const sorted = [...input.questions].sort((a, b) => a.no - b.no);
  // Definitions may number questions with gaps; the editor numbers by position, so map old -> new.
  const renumber = new Map(sorted.map((q, i) => [q.no, i + 1]));
  const mapNo = (no: number) => renumber.get(no) ?? no;
  return {
    formcode: input.formcode,
    formname: copyText(input.formname),
    formtype: input.formtype,
    appids: [...(input.appids ?? [])],
    instructions: copyText(input.instructions),
    version: input.version,
    licence: copyText(input.licence),
    source: input.source ?? '',
    fulltext: input.fulltext,
    questions: sorted.map((q) => ({
      type: q.type,
      inputtype: q.type === 0 ? (q.inputtype ?? 0) : null,
      required: q.required,
      text: copyText(q.text),
      options: (q.options ?? []).map((o) => ({ text: copyText(o.text), score: o.score })),
      reverse: q.reverse ?? false,
      factor: q.factor ?? null,
      rangeMin: q.range?.min ?? null,
      rangeMax: q.range?.max ?? null,
    })),
    indicators: (input.indicators ?? []).map((ind) => ({
      code: ind.code,
      name: copyText(ind.name),
      kind: ind.kind,
      items: ind.items ? formatItemList(ind.items.map(mapNo)) : '',
      formula: ind.formula.op,
      weights: ind.formula.op === 'weightedSum' ? ind.formula.weights.map((w) => ({ no: mapNo(w.no), weight: w.weight })) : [],
      countValue: 'value' in ind.formula ? ind.formula.value : null,
      transforms: (ind.transforms ?? []).map(transformToValues),
      precision: ind.precision ?? 0,
      bands: (ind.bands ?? []).map(bandToValues),
    })),
    critical: (input.critical ?? []).map((c) => ({
      no: mapNo(c.no),
      minScore: c.minScore ?? null,
      options: [...(c.options ?? [])],
      reason: copyText(c.reason),
      ...(c.source ? { source: c.source } : {}),
    })),
    validity: (input.validity ?? []).map((r) => ({ indicator: r.indicator, op: r.op, value: r.value, message: copyText(r.message) })),
    screening: (input.screening ?? []).map((r) => ({
      name: copyText(r.name),
      level: r.level,
      conditions: r.conditions.map((c) => ({ kind: c.kind, indicator: c.kind === 'indicator' ? c.indicator : null, op: c.op, value: c.value })),
      reason: copyText(r.reason),
      source: r.source ?? '',
    })),
    conventions: conventionsOf(input),
    mentalStateOn: !!input.mentalState,
    mentalStateIndicators: [...(input.mentalState?.indicators ?? [])],
    levelToState: [...(input.mentalState?.levelToState ?? DEFAULT_LEVEL_TO_STATE)],
  };
}

/**
 * Question numbers changed (a question moved or was deleted): rewrites every reference.
 * `map(oldNo)` gives the new number, or null when the question is gone (references to it are
 * dropped; a critical rule on it is removed).
 */
export function remapQuestionRefs(v: EditorValues, map: (no: number) => number | null): EditorValues {
  // Item lists are sets (weights say which item weighs what), so they are kept in ascending order.
  const mapList = (nos: number[]) =>
    nos
      .map(map)
      .filter((n): n is number => n !== null)
      .sort((a, b) => a - b);
  return {
    ...v,
    indicators: v.indicators.map((ind) => {
      const items = ind.items.trim() ? parseItemList(ind.items) : null;
      return {
        ...ind,
        // An item list that does not parse is left for the user to fix, untouched.
        items: items ? formatItemList(mapList(items)) : ind.items,
        weights: ind.weights.flatMap((w) => {
          if (w.no === null) return [w];
          const no = map(w.no);
          return no === null ? [] : [{ ...w, no }];
        }),
      };
    }),
    critical: v.critical.flatMap((c) => {
      if (c.no === null) return [c];
      const no = map(c.no);
      return no === null ? [] : [{ ...c, no }];
    }),
  };
}

/** Moves question `from` to position `to` (0-based) and renumbers references. */
export function moveQuestion(v: EditorValues, from: number, to: number): EditorValues {
  if (from === to || to < 0 || to >= v.questions.length) return v;
  const order = v.questions.map((_, i) => i);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  // order[newIndex] = oldIndex; references use 1-based numbers.
  const newNoOf = new Map(order.map((oldIndex, newIndex) => [oldIndex + 1, newIndex + 1]));
  return remapQuestionRefs({ ...v, questions: order.map((i) => v.questions[i]) }, (no) => newNoOf.get(no) ?? no);
}

/** Deletes question at `index` (0-based) and renumbers references; references to it are dropped. */
export function deleteQuestion(v: EditorValues, index: number): EditorValues {
  const gone = index + 1;
  return remapQuestionRefs({ ...v, questions: v.questions.filter((_, i) => i !== index) }, (no) =>
    no === gone ? null : no > gone ? no - 1 : no,
  );
}

/**
 * Item cards drawn at a time: a scale may hold 500 items, and drawing SCL-90's 90 editable cards
 * at once kept the drawer from answering for seconds.
 */
export const QUESTIONS_PER_PAGE = 20;
/** The page (1-based) that shows the question at `index` (0-based). */
export const pageOfQuestion = (index: number) => Math.floor(index / QUESTIONS_PER_PAGE) + 1;

const lacksChinese = (text: LocalText | undefined) => !text?.zh?.trim();
/**
 * The first question (0-based) missing what its card requires: the Chinese text, and for a choice
 * question each option's text and score. The cards' own rules say the same, but only the page
 * shown has its fields mounted: this is what a save checks of the items on the other pages.
 */
export function firstIncompleteQuestion(v: Pick<EditorValues, 'questions'>): number | null {
  const index = (v.questions ?? []).findIndex(
    (q) => lacksChinese(q.text) || (isChoice(q) && q.options.some((o) => lacksChinese(o.text) || num(o.score) === undefined)),
  );
  return index < 0 ? null : index;
}

/** Answers typed in the 'try it' panel, keyed by question number. */
export type SheetValues = Record<string, { option?: number; options?: number[]; text?: string } | undefined>;

/** The try-it sheet -> answers for previewScore; unanswered questions are left out. */
export function sheetToAnswers(questions: Pick<QuestionDefinition, 'no' | 'type'>[], sheet: SheetValues): AnswerInput[] {
  const out: AnswerInput[] = [];
  for (const q of questions) {
    const a = sheet[String(q.no)];
    if (!a) continue;
    if (q.type === 1 && a.option) out.push({ no: q.no, option: a.option });
    else if (q.type === 2 && a.options?.length) out.push({ no: q.no, options: [...a.options].sort((x, y) => x - y) });
    else if (q.type === 0 && a.text !== undefined && a.text.trim() !== '') out.push({ no: q.no, text: a.text.trim() });
  }
  return out;
}

/** The lowest and highest score a choice question can give (reverse-scored or not, the extremes are the same). */
export function questionScoreRange(q: QuestionValues): { min: number; max: number } | null {
  if (isNumericFill(q)) {
    const min = num(q.rangeMin);
    const max = num(q.rangeMax);
    return min !== undefined && max !== undefined ? { min, max } : null;
  }
  const scores = q.options.map((o) => num(o.score)).filter((s): s is number => s !== undefined);
  if (!isChoice(q) || scores.length === 0) return null;
  if (q.type === 1) return { min: Math.min(...scores), max: Math.max(...scores) };
  const neg = scores.filter((s) => s < 0).reduce((a, b) => a + b, 0);
  const pos = scores.filter((s) => s > 0).reduce((a, b) => a + b, 0);
  return { min: Math.min(Math.min(...scores), neg), max: Math.max(Math.max(...scores), pos) };
}

/** The questions an indicator reads, as the server resolves them (explicit list, factor members, or every scored question). */
export function indicatorItems(v: Pick<EditorValues, 'questions'>, ind: Pick<IndicatorValues, 'items' | 'kind' | 'code'>): number[] | null {
  if (ind.items.trim()) return parseItemList(ind.items);
  return v.questions
    .map((q, i) => ({ q, no: i + 1 }))
    .filter(({ q }) => (ind.kind === 'factor' ? q.factor === ind.code : isScored(q)))
    .map(({ no }) => no);
}

/** Raw-score range of a sum or mean indicator, for the hint above its bands; null when unknown. */
export function indicatorRawRange(v: Pick<EditorValues, 'questions'>, ind: IndicatorValues): { min: number; max: number } | null {
  const items = indicatorItems(v, ind);
  if (!items || items.length === 0) return null;
  const ranges = items.map((no) => (v.questions[no - 1] ? questionScoreRange(v.questions[no - 1]) : null));
  if (ranges.some((r) => r === null)) return null;
  const min = ranges.reduce((a, r) => a + r!.min, 0);
  const max = ranges.reduce((a, r) => a + r!.max, 0);
  if (ind.formula === 'sum') return { min, max };
  if (ind.formula === 'mean') return { min: min / items.length, max: max / items.length };
  if (ind.formula === 'countAtLeast' || ind.formula === 'countBelow') return { min: 0, max: items.length };
  return null;
}
