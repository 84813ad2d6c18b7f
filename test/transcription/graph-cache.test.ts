// Issue 30 (memory): the rewritten decoder graphs are written once beside their model and read back by
// ONNX Runtime from the file on later starts (src/transcription/graph-cache.ts). A start with the graphs
// written hears the same words as one that rewrote them; a changed model file gets its graphs rewritten;
// a folder that cannot be written leaves recognition as it was (graphs kept in memory).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../src/audio/decode.ts';
import { resolveModelsDir } from '../../src/transcription/index.ts';
import { CACHE_FOLDER, GraphCache, graphCacheUnwritable } from '../../src/transcription/graph-cache.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { speak } from '../fixtures/audio.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-graph-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the graph cache', () => {
  const source = path.join(dir, 'unit', 'model.onnx');
  const graph = new Uint8Array([8, 1, 18, 3, 97, 98, 99]);
  beforeAll(() => {
    mkdirSync(path.dirname(source), { recursive: true });
    writeFileSync(source, 'the first model');
  });

  it('writes a graph once and gives it back on the next start', async () => {
    const first = await GraphCache.open(source, 'b8', { codeKey: 'code' });
    expect(await first.read(['g'])).toBeNull();
    const written = await first.write('g', graph);
    expect(written).toBe(first.path('g'));
    expect(await first.finish({ rows: 'r' })).toBe(true);

    const again = await GraphCache.open(source, 'b8', { codeKey: 'code' });
    expect(again.path('g')).toBe(written);
    expect(await again.read(['g'])).toEqual({ rows: 'r' });
    // Another variant (batch size) of the same model is a set of its own.
    expect(await (await GraphCache.open(source, 'b4', { codeKey: 'code' })).read(['g'])).toBeNull();
  });

  it('does not give back a set whose record was not written (a start stopped while writing)', async () => {
    const cache = await GraphCache.open(source, 'partial', { codeKey: 'code' });
    await cache.write('g', graph);
    expect(await (await GraphCache.open(source, 'partial', { codeKey: 'code' })).read(['g'])).toBeNull();
  });

  it('rewrites when the model or the rewriting code changed, and removes the old set', async () => {
    const old = await GraphCache.open(source, 'stale', { codeKey: 'code' });
    await old.write('g', graph);
    await old.finish({});
    const newCode = await GraphCache.open(source, 'stale', { codeKey: 'code 2' });
    expect(await newCode.read(['g'])).toBeNull();

    writeFileSync(source, 'the model, updated');
    const updated = await GraphCache.open(source, 'stale', { codeKey: 'code' });
    expect(updated.path('g')).not.toBe(old.path('g'));
    expect(await updated.read(['g'])).toBeNull();
    await updated.write('g', graph);
    await updated.finish({});
    const left = readdirSync(path.join(path.dirname(source), CACHE_FOLDER)).filter((f) => f.startsWith('stale-'));
    expect(left.sort()).toEqual(
      [path.basename(updated.path('g')), path.basename(updated.path('g')).replace(/\.g\.onnx$/, '.json')].sort(),
    );
  });

  it('says when the folder cannot be written, so the graphs stay in memory', async () => {
    // A file where the folder should be: not writable, whoever runs the test (root ignores permissions).
    const blocked = path.join(dir, 'blocked');
    writeFileSync(blocked, '');
    const cache = await GraphCache.open(source, 'b8', { dir: path.join(blocked, CACHE_FOLDER) });
    expect(await cache.write('g', graph)).toBeNull();
    expect(await cache.finish({})).toBe(false);
    expect(await cache.read(['g'])).toBeNull();
  });

  it("names, for the worker's start-up warning, the models folder whose graphs cannot be written", () => {
    const models = path.join(dir, 'unwritable-models');
    mkdirSync(path.join(models, 'moonshine-base-en'), { recursive: true });
    mkdirSync(path.join(models, 'moonshine-base-es'), { recursive: true });
    expect(graphCacheUnwritable(models)).toBeNull();
    expect(statSync(path.join(models, 'moonshine-base-en', CACHE_FOLDER)).isDirectory()).toBe(true);
    // A file where Spanish's folder should be (a read-only volume behaves alike; root ignores permissions).
    rmSync(path.join(models, 'moonshine-base-es', CACHE_FOLDER), { recursive: true });
    writeFileSync(path.join(models, 'moonshine-base-es', CACHE_FOLDER), '');
    expect(graphCacheUnwritable(models)).toMatch(/moonshine-base-es\/rewritten: EEXIST/);
    // A worker serving English only (MOONSHINE_LANGUAGES=en) writes only English's.
    expect(graphCacheUnwritable(models, ['en'])).toBeNull();
    expect(graphCacheUnwritable(path.join(dir, 'no-models-here'))).toBeNull();
  });
});

describe('recognition with the graph cache', () => {
  // A models folder of its own: links to the installed model files, the rewritten graphs written here.
  const models = path.join(dir, 'models');
  let english: Float32Array;
  let spanish: Float32Array;
  beforeAll(async () => {
    for (const language of ['en', 'es']) {
      const name = `moonshine-base-${language}`;
      mkdirSync(path.join(models, name), { recursive: true });
      for (const f of ['encoder_model.onnx', 'decoder_model_merged.onnx'])
        symlinkSync(path.join(resolveModelsDir(), name, f), path.join(models, name, f));
    }
    english = (await decodeAudio(await speak('I would like to cancel my order, please.', { voice: 'en' })))
      .channels[0]!;
    spanish = (await decodeAudio(await speak('Quiero cancelar mi pedido, por favor.', { voice: 'es' }))).channels[0]!;
  });

  const heard = async (modelsDir: string) => {
    const engine = new MoonshineEngine({ modelsDir, intraOpThreads: 1, batch: 4 });
    return [(await engine.transcribeChunk(english, 'en')).text, (await engine.transcribeChunk(spanish, 'es')).text];
  };
  const written = (language: string) => {
    const folder = path.join(models, `moonshine-base-${language}`, CACHE_FOLDER);
    return readdirSync(folder).map((f) => [f, statSync(path.join(folder, f)).mtimeMs] as const);
  };

  it('hears the same words from the written graphs as from the rewrite, and writes them once', {
    timeout: 300_000,
  }, async () => {
    const rewritten = await heard(models);
    expect(rewritten[0]).toMatch(/cancel/i);
    const first = { en: written('en'), es: written('es') };
    expect(first.en.some(([f]) => f.endsWith('.later.onnx'))).toBe(true);
    expect(first.es.some(([f]) => f.endsWith('.cross.onnx'))).toBe(true);

    expect(await heard(models)).toEqual(rewritten);
    expect({ en: written('en'), es: written('es') }).toEqual(first);

    // A damaged graph file (a disk error, a hand edit) is rewritten, not used.
    const [later] = first.en.find(([f]) => f.endsWith('.later.onnx'))!;
    writeFileSync(path.join(models, 'moonshine-base-en', CACHE_FOLDER, later), 'not a graph');
    expect(await heard(models)).toEqual(rewritten);
    expect(statSync(path.join(models, 'moonshine-base-en', CACHE_FOLDER, later)).size).toBeGreaterThan(1_000_000);

    // Where the graphs cannot be written (a read-only models folder), the rewrite is used from memory.
    const readOnly = path.join(dir, 'read-only');
    for (const language of ['en', 'es']) {
      const name = `moonshine-base-${language}`;
      mkdirSync(path.join(readOnly, name), { recursive: true });
      for (const f of ['encoder_model.onnx', 'decoder_model_merged.onnx'])
        symlinkSync(path.join(models, name, f), path.join(readOnly, name, f));
      writeFileSync(path.join(readOnly, name, CACHE_FOLDER), '');
    }
    expect(await heard(readOnly)).toEqual(rewritten);
  });
});
