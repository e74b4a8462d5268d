import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/** The sweep files; the run's summary line appears once all of them have reported. */
export const SWEEP_PARTS = ['auth', 'permission', 'hostile', 'tenant', 'mass-assignment', 'codes-from-strings', 'parallel-create', 'window', 'body', 'grants'] as const;
export type SweepPart = (typeof SWEEP_PARTS)[number];

export interface Tally {
  actions: Set<string>;
  bodies: number;
  failures: number;
}

export const newTally = (): Tally => ({ actions: new Set(), bodies: 0, failures: 0 });

/** Adds one action's outcome; an action the check does not apply to (no body sent) is not counted as covered. */
export function count(t: Tally, name: string, outcome: { failures: string[]; bodies: number }) {
  if (outcome.bodies > 0 || outcome.failures.length > 0) t.actions.add(name);
  t.bodies += outcome.bodies;
  t.failures += outcome.failures.length;
}

const line = (what: string, actions: number, bodies: number, failures: number) =>
  `[security sweep] ${what}: ${actions} actions covered, ${bodies} bodies tried, ${failures} failures`;

/**
 * Prints the file's line, and records it in the run's temporary folder (the one the global
 * setup made for the database template) so that the last sweep file to finish prints the total.
 */
export function publish(part: SweepPart, engine: string, t: Tally) {
  console.log(line(`${part} on ${engine}`, t.actions.size, t.bodies, t.failures));
  const dir = path.dirname(inject('pgliteTemplate'));
  const file = (p: string) => path.join(dir, `sweep-${p}-${engine}.json`);
  fs.writeFileSync(file(part), JSON.stringify({ actions: [...t.actions], bodies: t.bodies, failures: t.failures }));
  const all = SWEEP_PARTS.map((p) =>
    fs.existsSync(file(p))
      ? (JSON.parse(fs.readFileSync(file(p), 'utf8')) as { actions: string[]; bodies: number; failures: number })
      : null,
  );
  if (all.some((x) => x === null)) return;
  const done = all as { actions: string[]; bodies: number; failures: number }[];
  const actions = new Set(done.flatMap((x) => x.actions)).size;
  console.log(
    line(
      `summary on ${engine}`,
      actions,
      done.reduce((n, x) => n + x.bodies, 0),
      done.reduce((n, x) => n + x.failures, 0),
    ),
  );
}
