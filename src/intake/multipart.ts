import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { DomainError } from '../domain/errors.ts';
import { badRequest, requestTimeout } from './errors.ts';
import { HashingFileWriter } from './hashing-file.ts';

export interface ReceivedFile {
  tempPath: string;
  fileName: string;
  declaredType: string;
  size: number;
  sha256: string;
  /** The first HEAD_BYTES bytes (all of a smaller file), kept while streaming for the magic-byte sniff. */
  head: Buffer;
}

/** Enough for every magic-byte signature file-type knows (4,100 bytes) and a typical ID3 tag before an MP3 frame. */
export const HEAD_BYTES = 64 * 1024;

export interface ReceivedForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

export interface ReceiveOptions {
  tmpDir: string;
  /** Whole request must stay strictly below this many bytes. */
  maxBodyBytes: number;
  /** How many `file` parts a form may carry (1 for the REST intake, more for manual upload). */
  maxFiles: number;
  /** Bytes kept per file; the rest of a larger file is counted (its `size` stays true) but not written. */
  maxFileBytes?: number;
  fileField?: string;
  /** What a body over `maxBodyBytes` is told (the app's upload words it for its users). */
  tooLargeMessage?: string;
  /**
   * Slow-client guard: a body that sends nothing for `idleMs`, or less than `minBytesPerSecond`
   * on average over the last `windowMs`, fails with `request_timeout` (its temporary file removed).
   */
  pace?: { idleMs: number; minBytesPerSecond: number; windowMs: number };
}

export const tooLarge = (max: number) =>
  badRequest(
    `The request must weigh less than ${max / 1_048_576} MB (file plus fields); larger recordings can be uploaded in the app.`,
  );

/** Signals the client went away mid-upload: nothing to answer, nothing left behind. */
export class ClientGone extends Error {}

/**
 * Streams a multipart form: each file part goes straight to a temporary file (counted, hashed and
 * its head kept on the way; never held in memory beyond a bounded write buffer); fields are kept,
 * each bounded. The body size is counted as it arrives, and on any failure every temporary file is
 * removed before the promise rejects.
 */
export function receiveForm(req: IncomingMessage, opts: ReceiveOptions): Promise<ReceivedForm> {
  const fileField = opts.fileField ?? 'file';
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: ReceivedFile[] = [];
    const writes: Promise<void>[] = [];
    const tempPaths: string[] = [];
    const otherFileParts: string[] = [];
    let received = 0;
    let settled = false;

    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      req.unpipe();
      bb?.removeAllListeners('file');
      bb?.destroy?.();
      Promise.allSettled(writes)
        .then(() => Promise.all(tempPaths.map((p) => rm(p, { force: true }))))
        .finally(() => reject(error));
    };

    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fieldSize: 64 * 1024, fields: 100, files: opts.maxFiles + 4, parts: 200, headerPairs: 100 },
      });
    } catch {
      reject(badRequest('The body must be multipart/form-data with a boundary (let your HTTP client build the form).'));
      return;
    }

    // Samples of (time, bytes received) once a second: the window's rate is their difference.
    const pace = opts.pace;
    const started = Date.now();
    let lastData = started;
    const samples: { at: number; bytes: number }[] = [{ at: started, bytes: 0 }];
    const watchdog = setInterval(
      () => {
        if (!pace || settled || req.complete) return;
        const now = Date.now();
        if (now - lastData >= pace.idleMs) {
          return fail(
            requestTimeout(`Nothing was received for ${Math.round(pace.idleMs / 1000)} s; the upload was cut.`),
          );
        }
        samples.push({ at: now, bytes: received });
        while (samples.length > 1 && now - samples[1]!.at >= pace.windowMs) samples.shift();
        const oldest = samples[0]!;
        if (
          now - oldest.at >= pace.windowMs &&
          received - oldest.bytes < (pace.minBytesPerSecond * pace.windowMs) / 1000
        ) {
          fail(
            requestTimeout(
              `The upload averaged less than ${pace.minBytesPerSecond} bytes/s over ${Math.round(pace.windowMs / 1000)} s; it was cut.`,
            ),
          );
        }
      },
      Math.min(1000, pace?.idleMs ?? 1000),
    );
    watchdog.unref();
    if (!pace) clearInterval(watchdog);

    req.on('data', (chunk: Buffer) => {
      lastData = Date.now();
      received += chunk.length;
      if (received >= opts.maxBodyBytes)
        fail(opts.tooLargeMessage ? badRequest(opts.tooLargeMessage) : tooLarge(opts.maxBodyBytes));
    });
    req.on('aborted', () => fail(new ClientGone('client disconnected')));
    req.on('close', () => {
      if (!req.complete) fail(new ClientGone('client disconnected'));
    });

    bb.on('field', (name, value) => {
      // Text fields are cut to 300 characters anyway; the 64 KB cap only bounds memory.
      if (!(name in fields)) fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      // A part we don't keep is drained; its error (cut-off body) is reported by busboy itself.
      const drain = () => void stream.on('error', () => {}).resume();
      if (settled) return drain();
      if (name !== fileField) {
        otherFileParts.push(name);
        drain();
        return;
      }
      if (files.length >= opts.maxFiles) {
        drain();
        fail(
          badRequest(
            opts.maxFiles === 1
              ? 'Send exactly one `file` part per request (one recording per call).'
              : `At most ${opts.maxFiles} files per upload.`,
          ),
        );
        return;
      }
      const tempPath = path.join(opts.tmpDir, `${randomUUID()}.part`);
      tempPaths.push(tempPath);
      const writer = new HashingFileWriter(tempPath, HEAD_BYTES, opts.maxFileBytes);
      const entry: ReceivedFile = {
        tempPath,
        fileName: info.filename ?? '',
        declaredType: (info.mimeType ?? '').toLowerCase(),
        size: 0,
        sha256: '',
        head: Buffer.alloc(0),
      };
      files.push(entry);
      writes.push(
        pipeline(stream, writer).then(
          () => {
            entry.size = writer.size;
            entry.sha256 = writer.digest();
            entry.head = writer.head();
          },
          (error) => {
            // A failing disk (ENOSPC, EACCES…) is our fault and answers 500; anything else is the body's.
            const ours = error instanceof DomainError || (error && typeof error === 'object' && 'syscall' in error);
            fail(ours ? error : badRequest('The file part ended unexpectedly.'));
          },
        ),
      );
    });
    bb.on('error', (error: Error) => {
      fail(badRequest(`The multipart body is malformed: ${error.message}.`));
    });
    bb.on('close', () => {
      Promise.all(writes).then(() => {
        if (settled) return;
        if (files.length === 0) {
          const hint = otherFileParts.length
            ? ` (found a file under ${otherFileParts.map((n) => `\`${n}\``).join(', ')})`
            : '';
          return fail(badRequest(`The form has no \`${fileField}\` part${hint}.`));
        }
        settled = true;
        clearInterval(watchdog);
        resolve({ fields, files });
      }, fail);
    });
    req.pipe(bb);
  });
}
