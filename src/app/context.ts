import type { Config } from '../config.ts';
import type { ApiKeyCache } from '../domain/api-key-cache.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Storage } from '../storage/storage.ts';

/** Everything a request handler, CLI command or job needs; built once at start. */
export interface AppContext {
  config: Config;
  log: Logger;
  db: Db;
  storage: Storage;
  /**
   * API keys kept in memory with immediate invalidation (the api role's); without it, as in the CLI
   * and the worker, every key is read from the database.
   */
  apiKeys?: ApiKeyCache;
}
