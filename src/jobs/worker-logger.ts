import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from '../log.ts';

/** Routes graphile-worker's own log lines into pino, keeping the job scope as fields. */
export function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const fields = { ...scope, ...(meta ?? {}) };
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : 'info';
    log[l](fields, message);
  });
}
