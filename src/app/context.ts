import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Storage } from '../storage/storage.ts';

/** Everything a request handler, CLI command or job needs; built once at start. */
export interface AppContext {
  config: Config;
  log: Logger;
  db: Db;
  storage: Storage;
}
