// One contract, two drivers: the local folder and an S3-compatible bucket (a real s3rver from npm).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../../src/storage/local.ts';
import { s3Storage } from '../../src/storage/s3.ts';
import { StorageMissing, type Storage } from '../../src/storage/storage.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';

interface Driver {
  storage: Storage;
  /** Where the driver may keep temporary copies. */
  tmpDir: string;
  /** The same store seen under another root or prefix. */
  sibling: Storage;
  stop(): Promise<void>;
}

const drivers: Record<string, () => Promise<Driver>> = {
  local: async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'escucha-store-'));
    const tmpDir = path.join(root, 'recordings', '.incoming');
    mkdirSync(tmpDir, { recursive: true });
    return {
      storage: localStorage(path.join(root, 'recordings')),
      sibling: localStorage(path.join(root, 'other')),
      tmpDir,
      stop: async () => rmSync(root, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const s3: TestS3 = await startTestS3('recordings');
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-store-tmp-'));
    return {
      storage: s3Storage(s3.settings, tmpDir),
      sibling: s3Storage({ ...s3.settings, prefix: 'other/' }, tmpDir),
      tmpDir,
      stop: async () => {
        await s3.stop();
        rmSync(tmpDir, { recursive: true, force: true });
      },
    };
  },
};

const collect = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(Object.keys(drivers))('%s storage', (name) => {
  let d: Driver;
  let work: string;
  let n = 0;
  // S3 keeps write times to the second.
  const started = Date.now() - 1000;
  beforeAll(async () => {
    d = await drivers[name]!();
    work = mkdtempSync(path.join(os.tmpdir(), 'escucha-store-src-'));
  });
  afterAll(async () => {
    await d.stop();
    rmSync(work, { recursive: true, force: true });
  });
  /** A temporary file with `bytes`, as the intake leaves it. */
  const temp = (bytes: Buffer) => {
    const p = path.join(work, `upload-${n++}`);
    writeFileSync(p, bytes);
    return p;
  };

  it('stores a file under its key and gives back the same bytes, its size and existence', async () => {
    const bytes = randomBytes(50_000);
    await d.storage.putFile('acct/2026-11/a.wav', temp(bytes));
    expect(await d.storage.exists('acct/2026-11/a.wav')).toBe(true);
    expect(await d.storage.size('acct/2026-11/a.wav')).toBe(bytes.length);
    expect(await collect(d.storage.read('acct/2026-11/a.wav'))).toEqual(bytes);
  });

  it('says whether it moved the temporary file into place (then it is gone) or left it to the caller', async () => {
    const tempPath = temp(randomBytes(1000));
    const moved = await d.storage.putFile('acct/2026-11/moved.wav', tempPath);
    expect(moved).toBe(name === 'local');
    expect(existsSync(tempPath)).toBe(!moved);
    await d.storage.delete('acct/2026-11/moved.wav');
  });

  it("answers inclusive byte ranges with exactly those bytes (Safari's 0-1 probe, middle, last byte)", async () => {
    const bytes = randomBytes(10_000);
    await d.storage.putFile('acct/2026-11/range.wav', temp(bytes));
    // 0-1 rather than 0-0: s3rver (the test server, not S3) reads `bytes=0-0` as the whole object.
    expect(await collect(d.storage.read('acct/2026-11/range.wav', { start: 0, end: 1 }))).toEqual(bytes.subarray(0, 2));
    expect(await collect(d.storage.read('acct/2026-11/range.wav', { start: 1234, end: 5677 }))).toEqual(
      bytes.subarray(1234, 5678),
    );
    expect(await collect(d.storage.read('acct/2026-11/range.wav', { start: 9999, end: 9999 }))).toEqual(
      bytes.subarray(9999),
    );
  });

  it('keeps a recording larger than one upload part intact (20 MB, the intake maximum)', async () => {
    const bytes = randomBytes(20 * 1_048_576 - 1);
    await d.storage.putFile('acct/2026-11/big.wav', temp(bytes));
    expect(await d.storage.size('acct/2026-11/big.wav')).toBe(bytes.length);
    expect(sha(await collect(d.storage.read('acct/2026-11/big.wav')))).toBe(sha(bytes));
  });

  it('hands tools a local file with the recording, and leaves no temporary copy behind', async () => {
    const bytes = randomBytes(30_000);
    await d.storage.putFile('acct/2026-11/tool.mp3', temp(bytes));
    const before = readdirSync(d.tmpDir);
    const seen = await d.storage.withLocalFile('acct/2026-11/tool.mp3', async (file) => {
      expect(path.extname(file)).toBe('.mp3');
      return readFile(file);
    });
    expect(seen).toEqual(bytes);
    expect(readdirSync(d.tmpDir)).toEqual(before);
    // The copy also goes when the tool fails.
    await expect(
      d.storage.withLocalFile('acct/2026-11/tool.mp3', async () => {
        throw new Error('ffmpeg exploded');
      }),
    ).rejects.toThrow('ffmpeg exploded');
    expect(readdirSync(d.tmpDir)).toEqual(before);
  });

  it('says plainly when a recording is missing', async () => {
    const key = 'acct/2026-11/never.wav';
    expect(await d.storage.exists(key)).toBe(false);
    await expect(d.storage.size(key)).rejects.toBeInstanceOf(StorageMissing);
    await expect(d.storage.withLocalFile(key, async () => 'ran')).rejects.toBeInstanceOf(StorageMissing);
    await expect(collect(d.storage.read(key))).rejects.toThrow();
  });

  it('deletes a recording for good; deleting a missing one is not an error', async () => {
    await d.storage.putFile('acct/2026-11/gone.wav', temp(randomBytes(100)));
    await d.storage.delete('acct/2026-11/gone.wav');
    expect(await d.storage.exists('acct/2026-11/gone.wav')).toBe(false);
    await expect(d.storage.delete('acct/2026-11/gone.wav')).resolves.toBeUndefined();
  });

  it('lists its own recordings with their write time, and nothing outside its root or prefix', async () => {
    await d.sibling.putFile('acct/2026-11/elsewhere.wav', temp(randomBytes(10)));
    const listed = [];
    for await (const o of d.storage.list()) listed.push(o);
    const keys = listed.map((o) => o.key).sort();
    expect(keys).toEqual(
      ['acct/2026-11/a.wav', 'acct/2026-11/big.wav', 'acct/2026-11/range.wav', 'acct/2026-11/tool.mp3'].sort(),
    );
    for (const o of listed) {
      expect(o.modifiedAt.getTime()).toBeGreaterThan(started);
      expect(o.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });
});
