/**
 * The statements a bench's server sends to PostgreSQL, with their count and time (BENCH_STATEMENTS=1),
 * for when pg_stat_statements is not loaded (it needs shared_preload_libraries). Wraps the `pg`
 * client's query in this process: the time is from the client sending a statement to its answer
 * (lock waits in the server included; waiting for a pooled connection not). Bench only.
 */
import pg from 'pg';

interface Tally {
  n: number;
  ms: number;
  max: number;
}
let tallies = new Map<string, Tally>();

/** One line per statement shape: whitespace folded, value lists shortened. */
const shape = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/(\(\$\d+(, \$\d+)*\)(, )?)+/g, '($…)')
    .replace(/\$\d+/g, '$')
    .slice(0, 150);

function note(text: string, t0: number) {
  const ms = performance.now() - t0;
  const key = shape(text);
  const t = tallies.get(key) ?? { n: 0, ms: 0, max: 0 };
  t.n++;
  t.ms += ms;
  t.max = Math.max(t.max, ms);
  tallies.set(key, t);
}

export function recordStatements() {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '?');
    const t0 = performance.now();
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (err: unknown, res: unknown) => {
        note(text, t0);
        (last as (e: unknown, r: unknown) => void)(err, res);
      };
      return original.apply(this, args);
    }
    const out = original.apply(this, args) as Promise<unknown> | undefined;
    if (out && typeof out.then === 'function') out.then(() => note(text, t0), () => note(text, t0));
    return out;
  };
}

/** Prints the statements since the last call, per `per` requests, and starts a new tally. */
export function printStatements(title: string, per: number) {
  const rows = [...tallies.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const n = rows.reduce((s, [, t]) => s + t.n, 0);
  const ms = rows.reduce((s, [, t]) => s + t.ms, 0);
  console.log(`  statements of ${title}: ${(n / per).toFixed(1)} per request, ${(ms / per).toFixed(2)} ms per request in all`);
  for (const [key, t] of rows) console.log(`    ${(t.n / per).toFixed(2).padStart(6)} × ${(t.ms / t.n).toFixed(2).padStart(7)} ms (max ${t.max.toFixed(1).padStart(6)})  ${key}`);
  tallies = new Map();
}

/** Forgets what was tallied so far (the set-up's statements). */
export function resetStatements() {
  tallies = new Map();
}
