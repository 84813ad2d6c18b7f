import type { Config } from './config.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { ApiKeyCache } from './accounts/api-key-cache.ts';
import type { FilterOptionsCache } from './calls/filter-options-cache.ts';
import type { Db } from './db/client.ts';
import type { Listener } from './db/listener.ts';
import type { Logger } from './log.ts';
import type { Storage } from './storage/storage.ts';
import type { FaultBoard } from './ops/faults.ts';
import type { Metrics } from './ops/metrics.ts';

/** Everything a request handler, CLI command or job needs; built once at start. */
export interface AppContext {
  config: Config;
  log: Logger;
  db: Db;
  storage: Storage;
  /** Operator faults the workers of this process met (for /readyz and the admins' banner); set by startService. */
  faults?: FaultBoard;
  /** Prometheus metrics of this process; set by startService. */
  metrics?: Metrics;
  /** Aborted when the process starts shutting down (set by startService). */
  stopping?: AbortSignal;
  /** The process's one LISTEN connection, shared by the change feeds below and live updates (the api role's). */
  listener?: Listener;
  /**
   * API keys kept in memory with immediate invalidation (the api role's); without it, as in the CLI
   * and the worker, every key is read from the database.
   */
  apiKeys?: ApiKeyCache;
  /**
   * The calls list's filter options per account, kept in memory with immediate invalidation (the
   * api role's); without it they are read from the database every time.
   */
  filterOptions?: FilterOptionsCache;
  /** Live sessions kept in memory with immediate invalidation (the api role's); without it each request reads its session. */
  sessions?: SessionCache;
}
