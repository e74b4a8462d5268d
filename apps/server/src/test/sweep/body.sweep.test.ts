import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionPath, ErrorCode, MAX_SIGNATURE_BYTES } from '@xinli/contract';
import { engines } from '../harness.js';
import { testConfig } from '../../config.js';
import { MAX_JSON_DEPTH } from '../../http/body.js';
import { builtInForms } from '../../domains/scales/library/index.js';
import { changedTables, fingerprint } from './fingerprint.js';
import { newTally, count, publish } from './tally.js';
import { allActions, startWorld, type World } from './world.js';

/**
 * Body sweep (issue 27 item 1): every action of the catalogue, called without a token, is sent
 * (a) a body one byte over the small limit (PREAUTH_BODY_LIMIT_BYTES) with its length declared,
 * (b) the same body without a declared length (chunked: counted as it arrives), and
 * (c) a body nested deeper than MAX_JSON_DEPTH, well within the small limit.
 * (a) and (b) answer 413, (c) answers 400 "nested too deeply", each with the envelope, and nothing
 * changes. Read from the catalogue on every run: the next action added is swept without a new test.
 */
const SMALL = testConfig().preauthBodyLimitBytes;
const overLimit = `{"x":"${'a'.repeat(SMALL + 1 - 8)}"}`;
const deep = '['.repeat(MAX_JSON_DEPTH * 50) + ']'.repeat(MAX_JSON_DEPTH * 50);

describe.each(engines())('body sweep on %s', (engine) => {
  let w: World;
  const tally = newTally();
  beforeAll(async () => {
    w = await startWorld(engine);
    expect(overLimit.length).toBe(SMALL + 1);
  });
  afterAll(async () => {
    publish('body', engine, tally);
    await w?.close();
  });

  const send = (name: string, payload: string | Readable) =>
    w.s.app.inject({
      method: 'POST',
      url: actionPath(name),
      payload,
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
    });

  it.each(allActions())('%s', async (name) => {
    const before = await fingerprint(w.s.database.db);
    const failures: string[] = [];
    const bodies: [string, string | Readable, number, string][] = [
      ['one byte over the small limit, length declared', overLimit, 413, 'The request body is too large'],
      [
        'one byte over the small limit, chunked',
        Readable.from([overLimit.slice(0, 1000), overLimit.slice(1000)], { objectMode: false }),
        413,
        'The request body is too large',
      ],
      [`nested ${MAX_JSON_DEPTH * 50} deep`, deep, 400, 'The request is nested too deeply'],
    ];
    for (const [label, payload, status, message] of bodies) {
      const res = await send(name, payload);
      const env = res.json() as { errorCode: number; errorMsg: string };
      if (res.statusCode !== status || env.errorCode !== ErrorCode.validation || env.errorMsg !== message)
        failures.push(`${label}: HTTP ${res.statusCode} ${env.errorCode} “${env.errorMsg}”, expected ${status} “${message}”`);
    }
    const changed = changedTables(before, await fingerprint(w.s.database.db));
    if (changed.length) failures.push(`refused bodies changed ${changed.join(', ')}`);
    count(tally, name, { failures, bodies: bodies.length });
    expect(failures).toEqual([]);
  });
});

/**
 * The limits fit what real callers send. Respondent and public bodies are measured from the built-in
 * forms, every question answered, every fill-in at the longest answer the contract allows, in Chinese
 * (three bytes a character): the public registration within the small limit, the largest respondent
 * body (a submission, or the consent signature at the contract's 200 KB) within the respondent limit.
 */
describe('the body limits fit the largest real bodies', () => {
  const config = testConfig();
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
  const text = (n: number) => '测'.repeat(n);

  it('fits a full registration in the small limit and the largest submission and signature in the respondent limit', () => {
    const registrations = builtInForms.filter((f) => f.formtype === '03');
    const registration = Math.max(
      ...registrations.map((f) =>
        bytes({
          entrytoken: 'x'.repeat(43),
          formcode: f.formcode,
          realname: text(50),
          phone: '13800000000',
          answers: f.questions.map((q) => ({
            no: q.no,
            value: q.type === 0 ? text(500) : q.type === 2 ? q.options.map((_o, i) => i + 1) : 1,
          })),
        }),
      ),
    );
    const submissions = builtInForms.map((f) => ({
      formcode: f.formcode,
      size: bytes({
        formcode: f.formcode,
        answers: f.questions.map((q) =>
          q.type === 0
            ? { no: q.no, text: text(2000) }
            : q.type === 2
              ? { no: q.no, options: q.options.map((_o, i) => i + 1) }
              : { no: q.no, option: 1 },
        ),
      }),
    }));
    const largestSubmission = submissions.reduce((a, b) => (b.size > a.size ? b : a));
    const signature = bytes({ signature: 'data:image/png;base64,' + 'A'.repeat(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3)) });
    console.log(
      `[body limits] registration ${registration} B of ${config.preauthBodyLimitBytes}; largest submission ${largestSubmission.size} B (${largestSubmission.formcode}) and signature ${signature} B of ${config.respondentBodyLimitBytes}`,
    );
    expect(registration * 2).toBeLessThanOrEqual(config.preauthBodyLimitBytes);
    expect(largestSubmission.size * 2).toBeLessThanOrEqual(config.respondentBodyLimitBytes);
    expect(signature).toBeLessThanOrEqual(config.respondentBodyLimitBytes);
    expect(config.preauthBodyLimitBytes).toBeLessThan(config.respondentBodyLimitBytes);
  });
});
