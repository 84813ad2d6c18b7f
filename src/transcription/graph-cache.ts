// The rewritten decoder graphs kept on disk beside the model they come from (issue 30: one worker's peak).
// Sessions made from a file are built by ONNX Runtime reading the file itself, so the recognition thread
// never holds the graphs' bytes (tens of MB per graph, per language) while ONNX Runtime builds and folds
// the session; and a later start skips the rewrite. When the folder cannot be written (a read-only
// .data), the graphs stay in memory, as before: docs/operations/models.md.
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, createReadStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/** Where a model folder's rewritten graphs are written. */
export const CACHE_FOLDER = 'rewritten';

function hasRecord(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => f.endsWith('.json'));
  } catch {
    return false;
  }
}

/**
 * Why the rewritten graphs of the Moonshine models in `modelsDir` cannot be written (the first folder
 * that cannot, and the error), or null. Checked once at a worker's start, on its main thread: the
 * recognition threads that write the graphs have no logger, and their fallback (graphs kept in memory)
 * works, so without this the operator would never learn why every start rewrites them at a higher peak.
 */
export function graphCacheUnwritable(modelsDir: string, languages?: readonly string[]): string | null {
  if (!existsSync(modelsDir)) return null;
  let models: string[];
  try {
    models = languages
      ? languages.map((l) => `moonshine-base-${l}`).filter((m) => existsSync(path.join(modelsDir, m)))
      : readdirSync(modelsDir).filter((f) => /^moonshine-base-[a-z]{2}$/.test(f));
  } catch (err) {
    return `${modelsDir}: ${(err as Error).message}`;
  }
  for (const model of models) {
    const dir = path.join(modelsDir, model, CACHE_FOLDER);
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (err) {
      // A read-only volume prepared by a writable start (docs/operations/models.md) is read, not written.
      if (!hasRecord(dir)) return `${dir}: ${(err as Error).message}`;
    }
  }
  return null;
}

// The code that writes the graphs: a change to any of these may change them, so it changes the key.
// (moonshine.ts orders the rewrites and folds the probe's shapes; a change elsewhere in it costs one
// rewrite at the next start, not a wrong graph.)
const REWRITE_SOURCES = ['./onnx-rewrite.ts', './protobuf.ts', './moonshine.ts', './graph-cache.ts'];

let codeKey: Promise<string> | undefined;

/**
 * A hash of the rewriting code's source (the service runs its TypeScript as written, so the files are
 * there; one that cannot be read counts as empty).
 */
function rewriteCodeKey(): Promise<string> {
  codeKey ??= (async () => {
    const hash = createHash('sha256');
    for (const rel of REWRITE_SOURCES) {
      hash.update(rel);
      hash.update(await readFile(new URL(rel, import.meta.url)).catch(() => Buffer.alloc(0)));
    }
    return hash.digest('hex');
  })();
  return codeKey;
}

/** sha256 of a file, read in pieces (the model is not held whole). */
function fileHash(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (piece) => hash.update(piece))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export interface GraphCacheOptions {
  /** The folder to write in (default: `rewritten/` in the source model's folder). */
  dir?: string;
  /** Replaces the rewriting code's hash in the key (tests). */
  codeKey?: string;
}

/**
 * The graphs rewritten from one source file for one variant (e.g. the batch size), each a file named by
 * a key: the source file's hash, the rewriting code's hash and the variant. A graph is written to a
 * temporary file and renamed, and the record (`<key>.json`, what the loader needs beside the graphs)
 * last, so a reader sees a complete set or none, also with several threads or workers writing the same.
 */
export class GraphCache {
  private writable = true;

  readonly dir: string;
  private readonly variant: string;
  private readonly key: string;

  private constructor(dir: string, variant: string, key: string) {
    this.dir = dir;
    this.variant = variant;
    this.key = key;
  }

  static async open(source: string, variant: string, opts: GraphCacheOptions = {}): Promise<GraphCache> {
    const dir = opts.dir ?? path.join(path.dirname(source), CACHE_FOLDER);
    const hash = createHash('sha256')
      .update(await fileHash(source))
      .update(opts.codeKey ?? (await rewriteCodeKey()))
      .update(variant)
      .digest('hex')
      .slice(0, 16);
    return new GraphCache(dir, variant, hash);
  }

  /** The file of graph `name`. */
  path(name: string): string {
    return path.join(this.dir, `${this.variant}-${this.key}.${name}.onnx`);
  }

  private recordPath(): string {
    return path.join(this.dir, `${this.variant}-${this.key}.json`);
  }

  /** The record written with the graphs `names`, when all of them are there; else null. */
  async read<T>(names: readonly string[]): Promise<T | null> {
    try {
      const record = JSON.parse(await readFile(this.recordPath(), 'utf8')) as T;
      await Promise.all(names.map((n) => stat(this.path(n))));
      return record;
    } catch {
      return null;
    }
  }

  /**
   * Writes graph `name`; its path, or null when it cannot be written (then nothing more is written and
   * the caller uses the bytes).
   */
  async write(name: string, bytes: Uint8Array): Promise<string | null> {
    return (await this.atomically(this.path(name), bytes)) ? this.path(name) : null;
  }

  /** Writes the record, which makes the set readable, and removes this variant's sets of other keys. */
  async finish(record: unknown): Promise<boolean> {
    if (!(await this.atomically(this.recordPath(), JSON.stringify(record)))) return false;
    const mine = `${this.variant}-${this.key}.`;
    const stale = (await readdir(this.dir).catch(() => [] as string[])).filter(
      (f) => f.startsWith(`${this.variant}-`) && !f.startsWith(mine) && !f.includes('.tmp-'),
    );
    await Promise.all(stale.map((f) => rm(path.join(this.dir, f), { force: true }).catch(() => {})));
    return true;
  }

  private async atomically(file: string, data: Uint8Array | string): Promise<boolean> {
    if (!this.writable) return false;
    const temp = `${file}.tmp-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(temp, data);
      await rename(temp, file);
      return true;
    } catch {
      this.writable = false;
      await rm(temp, { force: true }).catch(() => {});
      return false;
    }
  }
}
