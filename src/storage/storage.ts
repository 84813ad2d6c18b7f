import type { Readable } from 'node:stream';

/** Where recordings live. Local folder by default; an S3-compatible driver can implement the same. */
export interface Storage {
  /** Moves a finished temporary file under `key` (same filesystem: an atomic rename). */
  putFile(key: string, tempPath: string): Promise<void>;
  /** Full path for tools that need a file (ffmpeg); drivers without files download to a temp copy. */
  localPath(key: string): Promise<string>;
  read(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Lists keys, for housekeeping of orphans. */
  keys(): AsyncIterable<string>;
}
