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

/** The request body sent to the endpoint: the de-identified profile and nothing else about the person. */
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
