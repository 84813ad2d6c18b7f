import type { Config } from '../config.ts';
import { localStorage } from './local.ts';
import { s3Storage } from './s3.ts';
import type { Storage } from './storage.ts';

/** The storage driver the configuration asks for: an S3-compatible bucket with STORAGE_URL, else STORAGE_DIR. */
export function createStorage(config: Pick<Config, 'storage' | 'storageDir' | 'tmpDir'>): Storage {
  return config.storage.kind === 's3' ? s3Storage(config.storage, config.tmpDir) : localStorage(config.storageDir);
}
