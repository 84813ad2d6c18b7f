// Recognition threads (MoonshineThreads, what the worker runs): chunks recognised side by side on
// threads hear what one thread hears, a thread's failure reaches the caller as the same error, and idle
// threads do not keep a process alive.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OperatorFault } from '../../src/audio/failure.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { UnsupportedLanguageError, resolveModelsDir } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { mallocTrim } from '../../src/transcription/heap-trim.ts';
import { MoonshineThreads } from '../../src/transcription/moonshine-threads.ts';
import { speak } from '../fixtures/audio.ts';
import { words } from './words.ts';

const modelsDir = resolveModelsDir();
const LINES = [
  'I would like to cancel my contract and switch to another provider next month.',
  'Can I have your account number please?',
  'Thank you for calling, have a nice day.',
];
let chunks: Float32Array[];
const threads = new MoonshineThreads({ modelsDir, threads: 2, beam: 4 });

beforeAll(async () => {
  chunks = await Promise.all(
    LINES.map(async (line) => (await decodeAudio(await speak(line, { voice: 'en' }))).channels[0]!),
  );
});
afterAll(() => threads.close());

describe('recognition threads', () => {
  it('hear on two threads at once what one engine hears alone', async () => {
    const alone = new MoonshineEngine({ modelsDir, intraOpThreads: 1, beam: 4 });
    const expected = [];
    for (const samples of chunks) expected.push(words((await alone.transcribeChunk(samples, 'en')).text));
    expect(expected[0]).toEqual(expect.arrayContaining(['cancel', 'contract', 'provider']));
    const vocabulary = ['provider'];
    const heard = await Promise.all(chunks.map((s) => threads.transcribeChunk(s, 'en', { vocabulary })));
    expect(heard.map((h) => words(h.text))).toEqual(expected);
    // The caller's buffer is its own still (the thread got a copy).
    expect(chunks[0]!.length).toBeGreaterThan(0);
    // The work over, malloc's free holes are given back once and memory is no longer watched (heap-trim.ts).
    await vi.waitFor(() => expect(threads.trimmer.watching).toBe(false), { timeout: 5000, interval: 50 });
    // (On glibc: CI and the service's machines; nothing to trim on another C library.)
    if (mallocTrim() || process.env.CI) expect(threads.trimmer.trims).toBeGreaterThan(0);
  });

  it('refuse a language they do not serve without starting a thread', async () => {
    await expect(threads.transcribeChunk(chunks[0]!, 'fr')).rejects.toBeInstanceOf(UnsupportedLanguageError);
  });

  it.each([
    ['unbatched', { threads: 1 }],
    ['batched (the encoder on a thread of its own)', { batch: 4 }],
  ])("report a missing model as the operator's fault, with its readiness check: %s", async (_, options) => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'escucha-no-models-'));
    const engine = new MoonshineThreads({ modelsDir: empty, languages: ['en'], ...options });
    try {
      const error = await engine.transcribeChunk(chunks[1]!, 'en').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperatorFault);
      expect(error).toMatchObject({ check: 'engine:en', message: expect.stringContaining('models:fetch') });
    } finally {
      await engine.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('batched, score phrases and time words as one engine does (the encoder states from their own thread)', {
    timeout: 300_000,
  }, async () => {
    const alone = new MoonshineEngine({ modelsDir, intraOpThreads: 1, beam: 4 });
    const engine = new MoonshineThreads({ modelsDir, batch: 4, beam: 4 });
    try {
      const texts = ['Can I have your account number please?', 'Thank you for calling.'];
      const text = (await alone.transcribeChunk(chunks[1]!, 'en')).text;
      expect(await engine.scorePhrases(chunks[1]!, 'en', texts)).toEqual(
        await alone.scorePhrases(chunks[1]!, 'en', texts),
      );
      expect(await engine.alignChunk(chunks[1]!, 'en', text)).toEqual(await alone.alignChunk(chunks[1]!, 'en', text));
      expect((await engine.transcribeChunk(chunks[1]!, 'en')).text).toBe(text);
    } finally {
      await engine.close();
    }
  });

  // The service's main thread runs with V8 heap options (src/service/allocator.ts), which Node refuses
  // in a thread's execArgv: the threads must still start.
  it.each([
    ['unbatched', '{ threads: 2 }', []],
    ['batched', '{ batch: 4 }', []],
    ['batched, in a process with the service heap options', '{ batch: 4 }', ['--max-semi-space-size=16']],
  ])('do not keep a finished process alive while idle: %s', async (_, options, flags) => {
    const script = [
      `import { MoonshineThreads } from ${JSON.stringify(path.resolve('src/transcription/moonshine-threads.ts'))};`,
      `const engine = new MoonshineThreads({ modelsDir: ${JSON.stringify(modelsDir)}, ...${options} });`,
      `const heard = await engine.transcribeChunk(new Float32Array(16000), 'en');`,
      `console.log(JSON.stringify(heard.text));`,
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...flags, '--import', 'tsx', '--input-type=module', '-e', script],
      {
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout)).toEqual(expect.any(String));
  });
});
