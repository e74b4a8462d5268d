import cluster from 'node:cluster';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus registry (GET /metrics, http/metrics.ts) and the few counters that code
 * outside http/ moves: domains and the job runner import them from here, so no domain imports http/
 * and this file imports no domain. Labels are closed sets (a level, a job kind, a step), never an
 * id, a name or a URL. Each server process counts its own: with SERVER_PROCESSES > 1 every series
 * carries the label `process` (the cluster worker's number), so scrapes that reach different
 * workers never mix their counts.
 */
export const processLabels = { process: cluster.isWorker ? String(cluster.worker!.id) : '0' };
export const metricsRegistry = new Registry();
metricsRegistry.setDefaultLabels(processLabels);
let collecting = false;
/**
 * CPU, memory, event loop lag, open handles, GC: what an operator reads first when the server is
 * slow. Started once per process, and only where metrics are read (METRICS_TOKEN set): the event
 * loop monitor costs every request a little.
 */
export function collectProcessMetrics() {
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'xinli_' });
}

/** Failed staff sign-in steps (wrong password or code); `step` is password or code. */
export const signInFailures = new Counter({
  name: 'xinli_sign_in_failures_total',
  help: 'Failed staff sign-in steps (wrong password or second-factor code)',
  labelNames: ['step'] as const,
  registers: [metricsRegistry],
});

/** Usernames locked by repeated failures, and sign-ins refused because the username was locked. */
export const signInLockouts = new Counter({
  name: 'xinli_sign_in_lockouts_total',
  help: 'Usernames locked after repeated sign-in failures',
  registers: [metricsRegistry],
});

/** Warnings stored (a report's trigger, a staff member's manual warning, a missed deadline), by level. */
export const warningsRaised = new Counter({
  name: 'xinli_warnings_raised_total',
  help: 'Warnings stored by this process, by level and kind (counted when stored, inside the transaction)',
  labelNames: ['level', 'kind'] as const,
  registers: [metricsRegistry],
});

/** Failed job attempts (retried or failed for good), by kind. */
export const jobFailures = new Counter({
  name: 'xinli_job_failures_total',
  help: 'Background job attempts that failed in this process, by kind and whether the job is failed for good',
  labelNames: ['kind', 'final'] as const,
  registers: [metricsRegistry],
});

/** Open live event streams (the console's warning badge) served by this process. */
export const openEventStreams = new Gauge({
  name: 'xinli_event_streams_open',
  help: 'Open server-sent event streams (console warning badges) served by this process',
  registers: [metricsRegistry],
});
