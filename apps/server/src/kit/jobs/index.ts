/**
 * Background jobs (DESIGN §9): a `job` table shared by every server process, `enqueue` (inside the
 * caller's transaction if given one), and a runner that claims due jobs with FOR UPDATE SKIP LOCKED
 * under a lease, retries with backoff and takes over jobs whose process died. Domains register a
 * `JobDefinition` per kind in `domains/index.ts` (`jobHandlers`). See docs/adding-a-domain.md.
 */
export { job, type JobRow, type JobState } from './tables.js';
export { enqueue, enqueuePeriodic, jobsById, type EnqueueOptions } from './queue.js';
export { JobFailure, JobRunner, jobLanes, startPeriodic, type JobContext, type JobDefinition, type JobHandlers, type JobRunnerOptions } from './runner.js';
export { ProcessLimit, processLimit } from './limit.js';
