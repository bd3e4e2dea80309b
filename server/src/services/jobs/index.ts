/** Scheduled work (docs/ARCHITECTURE.md, "Jobs and mail"): features declare jobs, the runner runs them. */
export type { JobContext, JobDef, JobResult } from './job.js';
export { type RunnerOptions, Scheduler } from './runner.js';
