import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, count, eq, lte } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ErrorCode, errorMessages, isActionName, pickLang } from '@xinli/contract';
import type pg from 'pg';
import type { Db } from '../db/database.js';
import { job } from '../kit/jobs/index.js';
import { collectProcessMetrics, metricsRegistry, processLabels } from '../kit/metrics.js';
import { replyOutcome } from './envelope.js';

/**
 * GET /metrics in the Prometheus text format (prom-client). Off unless METRICS_TOKEN is set: then a
 * 404 like any unknown path; with it, only a request bearing `Authorization: Bearer <token>` reads
 * it (compared in constant time), others get 401. What it holds is counts, never a person, an
 * institution, an id or a URL: requests by action (the catalogue's names; other routes by their
 * pattern) and outcome (the envelope's error code name, or the HTTP status), their latency, the
 * database pool, the job queue, open event streams, sign-in failures and lockouts, warnings raised
 * (the last three moved by domains through kit/metrics.ts), and the process's own (CPU, memory,
 * event loop). Each server process answers its own counts (label `process`; README "Health, metrics and TLS").
 */
export const METRICS_PATH = '/metrics';

export interface MetricsDeps {
  db: Db;
  token: string | undefined;
  now: () => Date;
}

export function registerMetrics(app: FastifyInstance, deps: MetricsDeps) {
  // This app's own gauges (its pool, its queue): a test process builds many apps, so they are not in
  // the process registry; both are written out on a scrape.
  const own = new Registry();
  own.setDefaultLabels(processLabels);
  const requests = new Counter({
    name: 'xinli_requests_total',
    help: 'Requests answered, by action (or route pattern) and outcome (error code name, or HTTP status off the action route)',
    labelNames: ['action', 'outcome'] as const,
    registers: [own],
  });
  const latency = new Histogram({
    name: 'xinli_request_duration_seconds',
    help: 'Time from request to answer, by action (or route pattern)',
    labelNames: ['action'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [own],
  });
  poolGauges(own, deps.db);
  jobGauges(own, deps);

  // Nobody reads the counts without a token: requests are not counted then (issue 30's bench holds
  // the signed-in no-op to within 10% of what it was before metrics existed).
  if (deps.token) {
    collectProcessMetrics();
    app.addHook('onResponse', (req, reply, done) => {
      const action = actionOf(req);
      requests.inc({ action, outcome: replyOutcome(reply) ?? String(reply.statusCode) });
      latency.observe({ action }, reply.elapsedTime / 1000);
      done();
    });
  }

  const expected = deps.token ? digest(deps.token) : undefined;
  app.get(METRICS_PATH, { logLevel: 'warn' }, async (req, reply) => {
    const lang = pickLang(req.headers['accept-language'] as string | undefined);
    if (!expected) return reply.status(404).send({ errorCode: ErrorCode.notFound, errorMsg: errorMessages.notFound[lang], data: null });
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ errorCode: ErrorCode.identityInvalid, errorMsg: errorMessages.identityInvalid[lang], data: null });
    }
    const text = (await metricsRegistry.metrics()) + (await own.metrics());
    return reply.header('cache-control', 'no-store').type(metricsRegistry.contentType).send(text);
  });
}

/** Both sides hashed first: equal lengths for timingSafeEqual, and the token's length is not leaked. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/** The label of a request: an action's catalogue name, or the method and pattern of the route it matched. Never the raw URL. */
function actionOf(req: FastifyRequest): string {
  const route = req.routeOptions.url;
  if (route === '/api/:name/1.0.0/action') {
    const name = (req.params as { name?: string }).name ?? '';
    return isActionName(name) ? name : 'unknown action';
  }
  return route ? `${req.method} ${route}` : 'unmatched';
}

/** The PostgreSQL pool's connections (PGlite is one embedded connection: no pool to report). */
function poolGauges(registry: Registry, db: Db) {
  const client = (db as unknown as { $client: unknown }).$client as Partial<pg.Pool>;
  if (typeof client.totalCount !== 'number') return;
  const pool = client as pg.Pool;
  new Gauge({
    name: 'xinli_db_pool_connections',
    help: 'Database pool connections of this process: open (total), idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'xinli_db_pool_max',
    help: 'Most connections the pool of this process opens',
    registers: [registry],
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
}

/** The shared job table: jobs due and waiting for a runner, and jobs failed for good, by kind (all processes). */
function jobGauges(registry: Registry, deps: MetricsDeps) {
  new Gauge({
    name: 'xinli_job_queue_depth',
    help: 'Queued jobs that are due now and wait for a runner, by kind (the shared job table)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await deps.db
        .select({ kind: job.kind, n: count() })
        .from(job)
        .where(and(eq(job.state, 'queued'), lte(job.runat, deps.now())))
        .groupBy(job.kind);
      this.reset();
      for (const r of rows) this.set({ kind: r.kind }, Number(r.n));
    },
  });
  new Gauge({
    name: 'xinli_jobs_failed',
    help: 'Jobs failed for good (attempts exhausted or not worth a retry), by kind (the shared job table)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await deps.db
        .select({ kind: job.kind, n: count() })
        .from(job)
        .where(eq(job.state, 'failed'))
        .groupBy(job.kind);
      this.reset();
      for (const r of rows) this.set({ kind: r.kind }, Number(r.n));
    },
  });
}
