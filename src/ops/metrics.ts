import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/client.ts';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'status'>;
  httpDuration: Histogram<'route'>;
  intakeOutcomes: Counter<'code'>;
  jobDuration: Histogram<'task' | 'outcome'>;
  transcriptionRealtimeFactor: Histogram;
  webhookAttempts: Counter<'outcome'>;
}

/** One registry per process (no global one), with Node's default metrics. */
export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Read from the queue at each scrape, so every process reports the whole queue's backlog.
  new Gauge({
    name: 'escucha_jobs_waiting',
    help: 'Jobs waiting to run (including ones scheduled for later), by task',
    labelNames: ['task'],
    registers: [registry],
    async collect() {
      const rows = await db.$queryRaw<{ task: string; n: number }[]>`
        SELECT task_identifier AS task, count(*)::int AS n
          FROM graphile_worker.jobs
         WHERE locked_at IS NULL AND attempts < max_attempts
         GROUP BY task_identifier`;
      this.reset();
      for (const r of rows) this.set({ task: r.task }, r.n);
    },
  });
  return {
    registry,
    httpRequests: new Counter({
      name: 'escucha_http_requests_total',
      help: 'HTTP requests answered, by route and status',
      labelNames: ['route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'escucha_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by route',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    intakeOutcomes: new Counter({
      name: 'escucha_intake_outcomes_total',
      help: 'POST /v1/calls answers by outcome: queued, exists, or the error code',
      labelNames: ['code'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'escucha_job_duration_seconds',
      help: 'Job run time by task and outcome (ok, error)',
      labelNames: ['task', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    transcriptionRealtimeFactor: new Histogram({
      name: 'escucha_transcription_realtime_factor',
      help: 'Transcription time divided by recording duration (below 1 is faster than real time)',
      buckets: [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2, 5],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'escucha_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, gone, …)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

/** Counts one webhook attempt: delivered (2xx), gone (410), rejected (another status) or unreachable. */
export function countWebhookAttempt(metrics: Metrics | undefined, statusCode: number | null): void {
  const outcome =
    statusCode === null
      ? 'unreachable'
      : statusCode >= 200 && statusCode < 300
        ? 'delivered'
        : statusCode === 410
          ? 'gone'
          : 'rejected';
  metrics?.webhookAttempts.inc({ outcome });
}
