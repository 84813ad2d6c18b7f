import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from './s3-settings.ts';
import { StorageMissing, type Storage } from './storage.ts';

// Parts are buffered in memory while they upload: 8 MB × 2 in flight bounds one upload at 16 MB.
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Recordings in an S3-compatible bucket. `tmpDir` (local) holds the short-lived copies that tools
 * needing a file path read; housekeeping removes any a crash leaves behind.
 */
export function s3Storage(settings: S3Settings, tmpDir: string): Storage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    // The SDK's newer default checksums are not understood by many S3-compatible stores; S3 itself
    // does not require them, and uploads are verified by the sha256 the intake keeps.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => settings.prefix + key;

  async function head(key: string) {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (error) {
      throw isMissing(error) ? new StorageMissing(key, { cause: error }) : error;
    }
  }

  async function body(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const res = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return res.Body as Readable;
    } catch (error) {
      throw isMissing(error) ? new StorageMissing(key, { cause: error }) : error;
    }
  }

  return {
    async putFile(key, tempPath) {
      // Streamed from disk in parts, so a recording of any size costs at most PART_SIZE × QUEUE_SIZE of memory.
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(key), Body: createReadStream(tempPath) },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
      });
      await upload.done();
      return false;
    },
    async withLocalFile(key, use) {
      await mkdir(tmpDir, { recursive: true });
      // The extension stays: ffmpeg uses it as a hint for formats without a clear signature.
      const copy = path.join(tmpDir, `${randomUUID()}${path.extname(key)}`);
      try {
        await pipeline(await body(key), createWriteStream(copy));
        return await use(copy);
      } finally {
        await rm(copy, { force: true });
      }
    },
    read(key, range) {
      // The request is asynchronous; the stream is handed out at once and fed when the answer comes.
      // Destroying it (a player that seeks away) aborts the download through pipeline().
      const out = new PassThrough();
      body(key, range).then(
        (source) => pipeline(source, out).catch((error) => out.destroy(error)),
        (error) => out.destroy(error),
      );
      return out;
    },
    async size(key) {
      return (await head(key)).ContentLength ?? 0;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async exists(key) {
      return head(key).then(
        () => true,
        (error) => {
          if (error instanceof StorageMissing) return false;
          throw error;
        },
      );
    },
    async *list() {
      for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: settings.prefix || undefined })) {
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield { key: o.Key.slice(settings.prefix.length), modifiedAt: o.LastModified ?? new Date() };
        }
      }
    },
  };
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
