import type { z } from 'zod';
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { writtenSections, type WrittenSections } from '@xinli/contract';
import type { Config } from '../../../config.js';
import { JobFailure } from '../../../kit/jobs/index.js';
import type { WriterInput } from './profile.js';
import { riskRank, writeByRules } from './rules.js';

/** The LLM writer's endpoint (any OpenAI-compatible chat-completions API): Config.aiReport, from the environment. */
export type LlmConfig = NonNullable<Config['aiReport']>;

const SYSTEM = {
  'zh-CN':
    '你是心理测评机构的报告撰写助手。根据给出的去标识化测评结果（多份量表的分数、等级、解释、与上次相比的变化、关键题预警）写一份个体综合报告。只陈述结果支持的内容，不要编造问题；关键题阳性时风险为 urgent，工作人员的第一条建议必须是转介。用简体中文，只回答一个 JSON 对象。',
  'en-US':
    'You write individual reports for a psychological assessment service. From the de-identified results given (scores, levels, interpretations of several forms, the change since the last result, critical-item warnings), write one combined report. State only what the results support and never invent problems; when a critical item was answered the risk is urgent and the first staff step must be a referral. Write in English and answer with one JSON object only.',
};

const SHAPE =
  '{"summary": string, "findings": string[], "risk": {"level": "none"|"low"|"moderate"|"high"|"urgent", "text": string}, "staffsteps": string[], "personmessage": string, "personsteps": string[]}';

/**
 * A count that an aggregate sent to the LLM carries, with its true value. `shown` is what is sent:
 * the value, or null once suppressed. A derived cell (e.g. "answered but without a level", which a
 * reader works out as a total minus its parts) is never sent, but counts in the sums it belongs to.
 */
export class Cell {
  suppressed: boolean;
  constructor(
    readonly value: number,
    readonly derived = false,
  ) {
    this.suppressed = derived;
  }
  get shown(): number | null {
    return this.suppressed ? null : this.value;
  }
}

/** total = sum of parts: a reader who sees the total and some parts works out the rest by subtraction. */
export interface CellSum {
  total: Cell;
  parts: Cell[];
}

/** A row sent as a whole or not at all: once its key (e.g. a class's finished count) is suppressed, so is every cell of it. */
export interface CellRow {
  key: Cell;
  cells: Cell[];
}

/** Default minimum cell size of aggregates sent to the LLM (AI_MIN_CELL). */
export const MIN_CELL = 5;

/**
 * Minimum cell size (DESIGN §6), the one rule every aggregate sent to the LLM goes through:
 * - primary: a count of 1 to minCell-1 is suppressed (0 is sent: it describes nobody);
 * - rows: a row whose key is suppressed is withheld whole (a class of one is not named at all);
 * - complementary: a reader knows every sent cell and works out more by subtraction, one sum at a
 *   time, as long as a sum has one unknown cell left (so a cell withheld in one sum but given back
 *   by another counts as known). Whenever the unknown parts of a sum with a known total add up to
 *   1..minCell-1, one more sent cell of that sum is suppressed (its smallest non-zero part, else its
 *   total), and the reader's reasoning is run again from the start.
 * Suppression only grows, so it ends. It follows single subtractions through any chain of sums; it
 * does not bound a cell by linear programming over all sums at once (a full statistical audit would).
 */
export function suppressSmallCells(table: { cells: Cell[]; sums: CellSum[]; rows: CellRow[] }, minCell: number): void {
  const small = (n: number) => n > 0 && n < minCell;
  for (const c of table.cells) if (small(c.value)) c.suppressed = true;
  const withholdRows = () => {
    for (const row of table.rows) if (row.key.suppressed) for (const c of row.cells) c.suppressed = true;
  };
  /** The first sum through which a reader works out a small count, or null. */
  const leak = (): CellSum | null => {
    const known = new Set(table.cells.filter((c) => !c.suppressed));
    for (let changed = true; changed; ) {
      changed = false;
      for (const sum of table.sums) {
        const unknown = sum.parts.filter((p) => !known.has(p));
        if (known.has(sum.total)) {
          if (small(unknown.reduce((n, p) => n + p.value, 0))) return sum;
          if (unknown.length === 1) {
            known.add(unknown[0]!);
            changed = true;
          }
        } else if (!unknown.length) {
          if (small(sum.total.value)) return sum;
          known.add(sum.total);
          changed = true;
        }
      }
    }
    return null;
  };
  withholdRows();
  for (let sum = leak(); sum; sum = leak()) {
    const sent = (c: Cell) => !c.suppressed && c.value > 0;
    const next =
      sum.parts.filter(sent).sort((a, b) => a.value - b.value)[0] ??
      (sent(sum.total) ? sum.total : undefined) ??
      // Everything of this sum the reader knows is worked out through other sums: close one of those.
      table.sums
        .filter((o) => [o.total, ...o.parts].some((c) => c === sum.total || sum.parts.includes(c)))
        .flatMap((o) => [o.total, ...o.parts])
        .filter(sent)
        .sort((a, b) => a.value - b.value)[0];
    if (!next) throw new Error('minimum cell size: no cell left to suppress');
    next.suppressed = true;
    withholdRows();
  }
}

/** A collector of the cells and sums of one payload. */
export function cellTable() {
  const table = { cells: [] as Cell[], sums: [] as CellSum[], rows: [] as CellRow[] };
  return {
    table,
    cell(value: number, derived = false) {
      const c = new Cell(value, derived);
      table.cells.push(c);
      return c;
    },
    sum(total: Cell, parts: Cell[]) {
      table.sums.push({ total, parts });
    },
    row(key: Cell, cells: Cell[]) {
      table.rows.push({ key, cells });
    },
    suppress(minCell: number) {
      suppressSmallCells(table, minCell);
    },
  };
}

/** A chat request answering one JSON object: the instructions, the shape, and the data as JSON. */
export function jsonRequest(system: string, shape: string, data: unknown, model: string) {
  return {
    model,
    temperature: 0.2,
    response_format: { type: 'json_object' as const },
    messages: [
      { role: 'system' as const, content: `${system}\nJSON: ${shape}` },
      { role: 'user' as const, content: JSON.stringify(data) },
    ],
  };
}

/**
 * The request body sent to the endpoint: the de-identified profile and nothing else about the
 * person. It carries no aggregate (no count of persons: one person's scores, levels and the texts
 * of their form's bands), so minimum cell size has nothing to suppress in it; the group writer's
 * aggregates go through suppressSmallCells (tasks/group-report/writer.ts).
 */
export const llmRequest = (input: WriterInput, model: string) => jsonRequest(SYSTEM[input.lang], SHAPE, input, model);

/**
 * Asks the endpoint for one JSON object of the given shape. Every failure is a JobFailure whose
 * message says what went wrong with the endpoint (never the data sent): HTTP errors and timeouts
 * may be retried; an answer that is not the JSON asked for is retried too (models vary), and stays
 * failed after the job's attempts. The group report's writer asks through it too.
 */
export async function askLlmJson<T>(
  body: ReturnType<typeof llmRequest>,
  schema: z.ZodType<T>,
  config: LlmConfig,
  signal?: AbortSignal,
): Promise<T> {
  const client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 });
  let content: string | null | undefined;
  try {
    const answer = await client.chat.completions.create(body, { signal });
    content = answer.choices?.[0]?.message?.content;
  } catch (err) {
    if (err instanceof APIConnectionTimeoutError)
      throw new JobFailure(`the AI endpoint did not answer within ${Math.round(config.timeoutMs / 100) / 10} s`);
    if (err instanceof APIUserAbortError) throw err;
    if (err instanceof APIError && err.status) throw new JobFailure(`the AI endpoint answered HTTP ${err.status}`);
    throw new JobFailure('the AI endpoint could not be reached');
  }
  if (!content) throw new JobFailure('the AI endpoint answered no text');
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(content));
  } catch {
    throw new JobFailure('the AI endpoint answered text that is not JSON');
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success)
    throw new JobFailure(`the AI endpoint answered JSON of the wrong shape (${checked.error.issues[0]?.path.join('.') || 'root'})`);
  return checked.data;
}

/** Writes with the LLM, under the rule-based writer's safety net. */
export async function writeByLlm(input: WriterInput, config: LlmConfig, signal?: AbortSignal): Promise<WrittenSections> {
  return withSafetyNet(await askLlmJson(llmRequest(input, config.model), writtenSections, config, signal), input);
}

/** Some models wrap JSON in a Markdown code fence even when asked not to. */
function stripFence(s: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(s);
  return m ? m[1]! : s;
}

/**
 * The rules stay in force under the LLM: its risk is never below the rule-based writer's, and when
 * that is urgent the rule-based referral and crisis steps lead its steps.
 */
export function withSafetyNet(text: WrittenSections, input: WriterInput): WrittenSections {
  const rules = writeByRules(input);
  if (riskRank(text.risk.level) >= riskRank(rules.risk.level) && rules.risk.level !== 'urgent') return text;
  if (rules.risk.level !== 'urgent') return { ...text, risk: rules.risk };
  return {
    ...text,
    risk: rules.risk,
    staffsteps: [...rules.staffsteps.slice(0, 2), ...text.staffsteps].slice(0, 20),
    personsteps: [rules.personsteps[0]!, ...text.personsteps].slice(0, 20),
  };
}
