import { createHash } from 'node:crypto';
import { close, open, writev } from 'node:fs';
import { Writable } from 'node:stream';

/**
 * Bytes an upload may hold in memory while its file is being written. While one write is on the
 * disk, what arrives meanwhile is queued here and goes out in ONE writev: with the 16 KB of an fs
 * write stream every network chunk (≈64 KB) pauses the socket and costs its own threadpool round
 * trip. Memory stays bounded per upload, whatever its size.
 */
export const FILE_WRITE_BUFFER_BYTES = 1024 * 1024;

type Callback = (error?: Error | null) => void;

/**
 * A file part's one stop on its way to disk: counts it, hashes it (sha256), keeps its first
 * `headBytes` for the magic-byte sniff and writes it to `path`, all in the same pass (no extra
 * Transform stage). Past `maxBytes` (when given) bytes are still counted but neither hashed nor
 * written. The file is created before the first write and closed on finish or destroy.
 */
export class HashingFileWriter extends Writable {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  private fd: number | null = null;
  /** Set while a writev is in flight: the fd must not be closed (and its number reused) under it. */
  private afterWrite: (() => void) | null = null;
  private writing = false;

  private readonly path: string;
  private readonly headBytes: number;
  private readonly maxBytes?: number;
  constructor(path: string, headBytes: number, maxBytes?: number) {
    super({ highWaterMark: FILE_WRITE_BUFFER_BYTES });
    this.path = path;
    this.headBytes = headBytes;
    this.maxBytes = maxBytes;
  }

  /** The sha256 (hex) of the kept bytes: read once, after 'finish'. */
  digest(): string {
    return this.hash.digest('hex');
  }

  head(): Buffer {
    return Buffer.concat(this.headParts, this.headLength);
  }

  override _construct(callback: Callback): void {
    open(this.path, 'w', (error, fd) => {
      if (!error) this.fd = fd;
      callback(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: Callback): void {
    this._writev([{ chunk }], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: Callback): void {
    const kept: Buffer[] = [];
    for (const { chunk } of chunks) {
      const before = this.size;
      this.size += chunk.length;
      const room = this.maxBytes === undefined ? chunk.length : Math.max(0, this.maxBytes - before);
      if (room <= 0) continue;
      const part = room < chunk.length ? chunk.subarray(0, room) : chunk;
      this.hash.update(part);
      if (this.headLength < this.headBytes) {
        const h = part.subarray(0, this.headBytes - this.headLength);
        // A copy: the network buffer it comes from is not ours to keep.
        this.headParts.push(Buffer.from(h));
        this.headLength += h.length;
      }
      kept.push(part);
    }
    if (!kept.length) return void callback();
    this.writing = true;
    this.writeAll(kept, (error) => {
      this.writing = false;
      const next = this.afterWrite;
      this.afterWrite = null;
      next?.();
      callback(error);
    });
  }

  /** writev may write less than asked (rare for files, but allowed): the rest is written after. */
  private writeAll(buffers: Buffer[], callback: Callback): void {
    writev(this.fd!, buffers, (error, written) => {
      if (error) return void callback(error);
      let left = written;
      let i = 0;
      while (i < buffers.length && left >= buffers[i]!.length) left -= buffers[i++]!.length;
      if (i === buffers.length) return void callback();
      this.writeAll([buffers[i]!.subarray(left), ...buffers.slice(i + 1)], callback);
    });
  }

  override _final(callback: Callback): void {
    this.closeFile(callback);
  }

  override _destroy(error: Error | null, callback: Callback): void {
    if (this.writing) this.afterWrite = () => this.closeFile(() => callback(error));
    else this.closeFile(() => callback(error));
  }

  private closeFile(callback: Callback): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return void callback();
    close(fd, (error) => callback(error));
  }
}
