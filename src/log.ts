import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

/** Carries the request or job id through every log line written while handling it. */
export const logContext = new AsyncLocalStorage<Record<string, unknown>>();

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    mixin: () => logContext.getStore() ?? {},
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.apiKey', '*.secret'],
      remove: true,
    },
  });
}

export type { Logger };
