/**
 * Scoring engine throughput: answer sheets scored per second for PHQ-9 (9 items, 1 indicator)
 * and SCL-90 (90 items, 13 indicators), with their ratio. Random valid sheets are generated
 * up front (seeded), each form is warmed up, then scored for BENCH_SECONDS (default 3) seconds.
 * Prints figures only; asserts nothing about time. `npx tsx bench/scoring.ts`
 */
import type { AnswerSheet, FormDefinition } from '@xinli/contract';
import { builtInForm } from '../apps/server/src/domains/scales/library/index.js';
import { randomSheet, scoreSheet, seededRandom } from '../apps/server/src/domains/scales/scoring/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const SHEETS = 2000;

function measure(def: FormDefinition) {
  const random = seededRandom(42);
  const sheets: AnswerSheet[] = Array.from({ length: SHEETS }, () => randomSheet(def, random));
  let sink = 0;
  const run = (until: number) => {
    let n = 0;
    while (performance.now() < until) {
      for (let i = 0; i < 100; i++) sink += scoreSheet(def, sheets[(n + i) % SHEETS]).mentalState;
      n += 100;
    }
    return n;
  };
  run(performance.now() + 500); // warm-up: JIT and the per-definition cache
  const start = performance.now();
  const n = run(start + seconds * 1000);
  const elapsed = (performance.now() - start) / 1000;
  const perSecond = n / elapsed;
  console.log(
    `${def.formcode.padEnd(6)} ${String(def.questions.length).padStart(3)} items ${String(def.indicators.length).padStart(2)} indicators  ` +
      `${perSecond.toFixed(0).padStart(9)} sheets/s  ${((1e6 * elapsed) / n).toFixed(2).padStart(7)} µs/sheet  (${n} sheets, checksum ${sink})`,
  );
  return perSecond;
}

const phq9 = measure(builtInForm('PHQ9')!);
const scl90 = measure(builtInForm('SCL90')!);
console.log(
  `SCL-90/PHQ-9 cost per sheet: ${(phq9 / scl90).toFixed(2)}x (throughput PHQ-9 / SCL-90); SCL-90 has 10x the items and 13x the indicators`,
);
