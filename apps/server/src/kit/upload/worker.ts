/**
 * The worker thread of the guarded reader: parses the file given in workerData and posts
 * events to the parent. Row batches wait for credit from the parent ('more'), so a slow consumer
 * holds the parse back instead of piling rows up in memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RefusalError } from './limits.js';
import { parseWorkbook, type WorkerInput, type WorkerMessage } from './parse.js';

const input = workerData as WorkerInput;
const port = parentPort!;
let credit = input.credit;
let wake: (() => void) | null = null;
port.on('message', (m: unknown) => {
  if (m !== 'more') return;
  credit++;
  wake?.();
  wake = null;
});
const post = (m: WorkerMessage) => port.postMessage(m);

try {
  for await (const ev of parseWorkbook(input.bytes, input.limits, input.pick, input.batchRows)) {
    if (ev.kind === 'rows') {
      while (credit <= 0) await new Promise<void>((r) => (wake = r));
      credit--;
    }
    post(ev);
  }
  post({ kind: 'done' });
} catch (e) {
  if (e instanceof RefusalError) post({ kind: 'refused', refusal: e.refusal });
  else post({ kind: 'failed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}
port.close();
