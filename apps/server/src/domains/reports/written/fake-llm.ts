import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake endpoint answers the next requests. */
export type FakeMode = { kind: 'ok'; content: string; delayMs?: number } | { kind: 'status'; status: number } | { kind: 'hang' };

/**
 * A fake OpenAI-compatible chat-completions endpoint on loopback, for tests: it records every
 * request body and answers as told (a JSON answer, possibly late; an HTTP error; or never).
 */
export async function startFakeLlm() {
  const bodies: string[] = [];
  let mode: FakeMode = { kind: 'status', status: 500 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      const m = mode;
      if (m.kind === 'hang') return;
      if (m.kind === 'status') {
        res.writeHead(m.status, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
      }
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            created: 0,
            model: 'fake-model',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: m.content } }],
          }),
        );
      };
      if (m.delayMs) setTimeout(answer, m.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies,
    set(next: FakeMode) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A well-formed answer of the LLM writer. */
export const goodAnswer = (level: string = 'low') =>
  JSON.stringify({
    summary: 'LLM summary.',
    findings: ['LLM finding.'],
    risk: { level, text: 'LLM risk.' },
    staffsteps: ['LLM staff step.'],
    personmessage: 'LLM message to the person.',
    personsteps: ['LLM person step.'],
  });
