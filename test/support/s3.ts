import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { s3Storage } from '../../src/storage/s3.ts';
import type { S3Settings } from '../../src/storage/s3-settings.ts';

export interface TestS3 {
  /** Variables that point the service at this server (STORAGE_URL, S3_*). */
  env: Record<string, string>;
  settings: S3Settings;
  /** The keys of every object under the prefix, sorted, read from the server itself. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

const BUCKET = 'escucha-test';
const KEY = 'S3RVER';

/** A real S3-protocol server (s3rver, from npm) on a random loopback port, with one empty bucket. */
export async function startTestS3(prefix = 'recordings'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'escucha-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    bucket: BUCKET,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    forcePathStyle: true,
  };
  const bucket = s3Storage(settings, os.tmpdir());
  return {
    env: {
      STORAGE_URL: `s3://${BUCKET}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
    },
    settings,
    async keys() {
      const keys: string[] = [];
      for await (const o of bucket.list()) keys.push(o.key);
      return keys.sort();
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
