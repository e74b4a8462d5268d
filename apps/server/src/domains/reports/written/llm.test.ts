/**
 * The LLM writer against a fake OpenAI-compatible endpoint on 127.0.0.1: a slow answer that still
 * arrives in time, an HTTP error, a malformed answer, an answer of the wrong shape, and a timeout.
 * Each failure is a JobFailure whose message names the fault and nothing of the person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PopulationApp } from '@xinli/contract';
import { JobFailure } from '../../../kit/jobs/index.js';
import { writeByLlm, withSafetyNet } from './llm.js';
import type { WriterInput } from './profile.js';
import { goodAnswer, startFakeLlm } from './fake-llm.js';

const input = (critical = false): WriterInput => ({
  lang: 'en-US',
  profile: { population: 'Students', populationapp: PopulationApp.students, gender: 'female', ageband: '15-17' },
  forms: [
    {
      form: 'PHQ-9',
      instrument: 'PHQ9',
      date: '2026-11-01',
      mentalstate: critical ? 4 : 1,
      indicators: [
        {
          name: 'Total',
          kind: 'total',
          score: critical ? 22 : 6,
          level: critical ? 4 : 1,
          label: critical ? 'Severe' : 'Mild',
          interpretation: null,
          advice: null,
        },
      ],
      warnings: critical ? [{ source: 'critical', item: 9, reason: 'Thoughts of self-harm' }] : [],
      trend: null,
    },
  ],
});

describe('LLM writer against a fake endpoint', () => {
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  const config = (timeoutMs = 2000) => ({ baseUrl: fake.baseUrl, apiKey: 'test-key', model: 'fake-model', timeoutMs });
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake?.close());

  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JobFailure);
    return (err as JobFailure).message;
  };

  it('writes from a slow answer that arrives within the timeout, sending the model and the profile', async () => {
    fake.set({ kind: 'ok', content: goodAnswer('low'), delayMs: 300 });
    const text = await writeByLlm(input(), config(5000));
    expect(text).toMatchObject({ summary: 'LLM summary.', risk: { level: 'low' } });
    const body = JSON.parse(fake.bodies.at(-1)!);
    expect(body.model).toBe('fake-model');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(JSON.parse(body.messages[1].content)).toEqual(input());
  });

  it('accepts JSON wrapped in a code fence', async () => {
    fake.set({ kind: 'ok', content: '```json\n' + goodAnswer() + '\n```' });
    expect((await writeByLlm(input(), config())).summary).toBe('LLM summary.');
  });

  it('an HTTP error fails with its status', async () => {
    fake.set({ kind: 'status', status: 500 });
    expect(await failure(writeByLlm(input(), config()))).toBe('the AI endpoint answered HTTP 500');
  });

  it('a malformed answer (not JSON, or JSON of the wrong shape) fails', async () => {
    fake.set({ kind: 'ok', content: 'Here is your report: {summary: ...' });
    expect(await failure(writeByLlm(input(), config()))).toBe('the AI endpoint answered text that is not JSON');
    fake.set({ kind: 'ok', content: JSON.stringify({ summary: 'only a summary' }) });
    expect(await failure(writeByLlm(input(), config()))).toMatch(/^the AI endpoint answered JSON of the wrong shape \(findings\)$/);
  });

  it('an endpoint that does not answer in time fails with a timeout', async () => {
    fake.set({ kind: 'hang' });
    expect(await failure(writeByLlm(input(), config(300)))).toBe('the AI endpoint did not answer within 0.3 s');
  });

  it('an unreachable endpoint fails clearly', async () => {
    const message = await failure(writeByLlm(input(), { ...config(), baseUrl: 'http://127.0.0.1:9/v1' }));
    expect(message).toBe('the AI endpoint could not be reached');
  });

  it('the rules stay in force: a critical item makes the LLM text urgent and puts the referral first', async () => {
    fake.set({ kind: 'ok', content: goodAnswer('low') });
    const text = await writeByLlm(input(true), config());
    expect(text.risk.level).toBe('urgent');
    expect(text.staffsteps[0]).toMatch(/^Refer today/);
    expect(text.staffsteps).toContain('LLM staff step.');
    expect(text.personsteps[0]).toContain('12356');
    // A higher risk than the rules' is kept as the LLM wrote it.
    const high = JSON.parse(goodAnswer('high'));
    expect(withSafetyNet(high, input())).toEqual(high);
  });
});
