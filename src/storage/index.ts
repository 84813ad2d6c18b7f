import { localStorage } from './local.ts';
import { s3Storage } from './s3.ts';
import type { S3Settings } from './s3-settings.ts';
import type { Storage } from './storage.ts';

/** What picks the driver (Config's fields of the same names; kept apart so storage never imports config). */
export interface StorageChoice {
  storage: { kind: 'local' } | ({ kind: 's3' } & S3Settings);
  storageDir: string;
  tmpDir: string;
}

/** The storage driver the configuration asks for: an S3-compatible bucket with STORAGE_URL, else STORAGE_DIR. */
export function createStorage(config: StorageChoice): Storage {
  return config.storage.kind === 's3' ? s3Storage(config.storage, config.tmpDir) : localStorage(config.storageDir);
}
