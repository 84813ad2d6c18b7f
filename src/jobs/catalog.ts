import type { JobHelpers, Task } from 'graphile-worker';
import { z } from 'zod';
import type { Tx } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';

/**
 * The job catalog: every graphile-worker task, its payload and its defaults. Producers (intake,
 * re-analysis, webhooks) queue with `enqueue()`, consumers are declared with `task()`, and
 * workers/index.ts must list a task for every name here, so the compiler checks names and payloads
 * from producer to consumer. This module is the contract: src/ may import it, and nothing in
 * workers/ but start.ts (checked by scripts/check-cycles.ts). Beside it, the worker toolkit
 * (worker-role.ts, heartbeat.ts, supervised-runner.ts, attempt.ts) runs the tasks.
 *
 * A new task: one entry here, its use-case in a feature folder, a thin adapter in workers/ made with
 * `task('name', …)`, one line in workers/index.ts.
 */
export const JOBS = {
  transcribe: job({
    // `waits`: how many times the call already waited for the operator (sets the backoff).
    payload: z.object({ callId: z.uuid(), waits: z.number().int().min(0).optional() }),
    maxAttempts: 8,
    priority: 0,
    jobKey: (p) => `transcribe:${p.callId}`,
  }),
  // Analysis takes milliseconds: it jumps the transcription backlog so results are not held back.
  analyze: job({
    payload: z.object({ callId: z.uuid() }),
    maxAttempts: 8,
    priority: -10,
    jobKey: (p) => `analyze:${p.callId}`,
  }),
  // One job per delivery; HTTP failures never throw (the retry schedule is ours), so these attempts
  // only cover crashes: a database error, or a killed worker whose job the heartbeat unlocks.
  'deliver-webhook': job({
    payload: z.object({ deliveryId: z.uuid() }),
    maxAttempts: 10,
    priority: -20,
    jobKey: (p) => `deliver:${p.deliveryId}`,
  }),
  // One batch of a bulk webhook replay; each run queues the next batch itself (same key).
  'replay-webhooks': job({
    payload: z.object({ replayId: z.uuid() }),
    maxAttempts: 10,
    priority: 0,
    jobKey: (p) => `replay:${p.replayId}`,
  }),
  // A bulk deletion of more calls than one batch (src/calls/call-deletion.ts): each run deletes
  // batch after batch, one transaction each, so a retry after a crash resumes with what is left.
  'delete-calls': job({
    payload: z.object({
      accountId: z.uuid(),
      deletedById: z.uuid().nullable(),
      // The calls list's filter as JSON (filterDetail); read back by filterFromDetail.
      filter: z.record(z.string(), z.unknown()),
      createdBefore: z.iso.datetime(),
    }),
    maxAttempts: 10,
    priority: 0,
    jobKey: (p) => `delete-calls:${p.accountId}:${p.createdBefore}`,
  }),
  // Daily from the crontab: retention periods of every account (src/calls/retention.ts).
  retention: job({
    payload: z.object({}),
    maxAttempts: 3,
    priority: 10,
    jobKey: () => 'retention',
  }),
  // One batch of a bulk re-analysis (src/calls/bulk-reanalysis.ts); each run queues the next itself.
  // Its priority — also given to the analyze jobs it queues — is below transcribe and analyze, so new
  // calls always go first and a re-run of thousands of calls only uses otherwise idle workers.
  'bulk-reanalyze': job({
    payload: z.object({ bulkId: z.uuid() }),
    maxAttempts: 10,
    priority: 10,
    jobKey: (p) => `bulk-reanalyze:${p.bulkId}`,
  }),
  // Hourly from the crontab (workers/index.ts); the cron payload carries `_cron`, ignored.
  housekeeping: job({
    payload: z.object({}),
    maxAttempts: 1,
    priority: 0,
    jobKey: () => 'housekeeping',
  }),
};

interface JobSpec<S extends z.ZodType> {
  payload: S;
  maxAttempts: number;
  /** Lower runs first (graphile-worker). */
  priority: number;
  /** A second add with the same key replaces a job still waiting, so a job is never queued twice. */
  jobKey(payload: z.output<S>): string;
}

function job<S extends z.ZodType>(spec: JobSpec<S>): JobSpec<S> {
  return spec;
}

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.output<(typeof JOBS)[N]['payload']>;

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds after the transaction's start. */
  delayMs?: number;
  maxAttempts?: number;
  priority?: number;
  jobKey?: string;
}

/**
 * Queues a job in the caller's transaction: the job exists exactly when the caller's writes commit.
 * The payload is checked against the catalog's schema before it is stored.
 */
export async function enqueue<N extends JobName>(
  tx: Tx,
  name: N,
  payload: JobPayload<N>,
  opts: EnqueueOptions = {},
): Promise<void> {
  await tx.$executeRaw`SELECT ${addJobSql(name, payload, opts)}`;
}

/**
 * The `graphile_worker.add_job(…)` call of `enqueue`, for a statement that does its other writes
 * beside it (intake's one-statement insert): the job is written exactly when that statement's
 * writes are. The payload is checked against the catalog's schema here, as `enqueue` does.
 */
export function addJobSql<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}): Prisma.Sql {
  // TypeScript cannot correlate JOBS[name] with N; `payload` was checked against N by the signature.
  const spec: JobSpec<z.ZodType> = JOBS[name];
  const parsed = spec.payload.parse(payload);
  return Prisma.sql`graphile_worker.add_job(
      ${name},
      ${JSON.stringify(parsed)}::json,
      run_at := now() + ${opts.delayMs ?? 0} * interval '1 millisecond',
      job_key := ${opts.jobKey ?? spec.jobKey(parsed)},
      max_attempts := ${opts.maxAttempts ?? spec.maxAttempts}::int,
      priority := ${opts.priority ?? spec.priority}::int)`;
}

/** A graphile-worker task bound to its catalog name (workers/index.ts checks one per name). */
export type NamedTask<N extends JobName> = Task & { readonly job: N };

/** Declares the consumer of job `name`: the payload is parsed with the catalog's schema first. */
export function task<N extends JobName>(
  name: N,
  run: (payload: JobPayload<N>, helpers: JobHelpers) => Promise<void>,
): NamedTask<N> {
  const schema: z.ZodType = JOBS[name].payload;
  const handler: Task = (raw, helpers) => run(schema.parse(raw) as JobPayload<N>, helpers);
  return Object.assign(handler, { job: name });
}
