// Issue 30: decoder steps of the chunks in flight run as one batch (ASR_BATCH, StepBatcher in
// src/transcription/moonshine.ts). Batched recognition must hear exactly what each chunk hears alone:
// real recorded speech (LibriVox, Debian's pocketsphinx-testdata) of different lengths decoded together,
// chunks whose beams finish early beside long ones, a chunk arriving while others are decoding, and a
// whole recording through transcribeFile as the worker runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enCustomerSupport, esAtencionCliente } from '../../src/analysis/index.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { MoonshineThreads } from '../../src/transcription/moonshine-threads.ts';
import { speak } from '../fixtures/audio.ts';
import { joinedReadSpeech, READ_UTTERANCES, readSpeechDir } from '../fixtures/read-speech.ts';

const modelsDir = resolveModelsDir();
const vocabulary = templatePhrases(enCustomerSupport.definition);
const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-batched-'));
const alone = new MoonshineEngine({ modelsDir, intraOpThreads: 1 });
const batched = new MoonshineEngine({ modelsDir, intraOpThreads: 1, batch: 4 });
let utterances: Float32Array[];

beforeAll(async () => {
  const source = await readSpeechDir();
  if (!source) throw new Error('pocketsphinx-testdata cannot be obtained (apt-get download pocketsphinx-testdata)');
  utterances = await Promise.all(
    READ_UTTERANCES.map(async ([file]) => (await decodeAudio(path.join(source, file))).channels[0]!),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { vocabulary };

describe('batched decoding', () => {
  it('hears each chunk of a batch exactly as alone: words, confidence and log-probability', {
    timeout: 300_000,
  }, async () => {
    // Silence (its beams end at the first step) and a murmur beside utterances of 2 to 8 seconds:
    // rows finish at different steps and leave the batch while the others go on.
    const silence = new Float32Array(16000);
    const chunks = [utterances[0]!, silence, utterances[1]!, utterances[3]!, utterances[4]!, utterances[2]!];
    const expected = [];
    for (const c of chunks) expected.push(await alone.transcribeChunk(c, 'en', options));
    expect(expected[0]!.text).toMatch(/Dashwood had then leisure to consider/);
    const before = (await batched.batchedSteps('en'))!;
    const heard = await Promise.all(chunks.map((c) => batched.transcribeChunk(c, 'en', options)));
    expect(heard).toEqual(expected);
    // The chunks did share decoder runs (the test would otherwise prove nothing about batching).
    const after = (await batched.batchedSteps('en'))!;
    expect(after.chunkSteps - before.chunkSteps).toBeGreaterThan(1.5 * (after.runs - before.runs));
  });

  it('hears a chunk that arrives while others are decoding as alone', { timeout: 300_000 }, async () => {
    const expected = [];
    for (const c of utterances.slice(0, 3)) expected.push(await alone.transcribeChunk(c, 'en', options));
    const first = [
      batched.transcribeChunk(utterances[0]!, 'en', options),
      batched.transcribeChunk(utterances[1]!, 'en', options),
    ];
    // The third starts once the first two have taken decoder steps.
    const start = (await batched.batchedSteps('en'))!.chunkSteps;
    while ((await batched.batchedSteps('en'))!.chunkSteps < start + 6) await new Promise((r) => setImmediate(r));
    const late = batched.transcribeChunk(utterances[2]!, 'en', options);
    expect(await Promise.all([...first, late])).toEqual(expected);
  });

  it('gives the same words and times for a recording through transcribeFile as unbatched threads', {
    timeout: 600_000,
  }, async () => {
    const { file } = await joinedReadSpeech(dir, { telephone: true });
    const engines = [new MoonshineThreads({ modelsDir, threads: 1 }), new MoonshineThreads({ modelsDir, batch: 8 })];
    try {
      const heard = [];
      for (const engine of engines) {
        const result = await transcribeFile(file, { engines: [engine], language: 'en', vocabulary, diarize: true });
        heard.push(result.segments.map((s) => ({ start: s.start, end: s.end, text: s.text })));
      }
      expect(heard[0]!.length).toBeGreaterThan(1);
      expect(heard[1]).toEqual(heard[0]);
    } finally {
      await Promise.all(engines.map((e) => e.close()));
    }
  });

  it('leaves Spanish on the unbatched decoder, with the same words', { timeout: 300_000 }, async () => {
    const lines = ['Buenos días, ¿en qué puedo ayudarle?', 'Le confirmo que el reembolso se hará en cinco días.'];
    const chunks = await Promise.all(
      lines.map(async (l) => (await decodeAudio(await speak(l, { voice: 'es' }))).channels[0]!),
    );
    const es = { vocabulary: templatePhrases(esAtencionCliente.definition) };
    const expected = [];
    for (const c of chunks) expected.push(await alone.transcribeChunk(c, 'es', es));
    expect(expected[1]!.text.toLowerCase()).toMatch(/cinco días/);
    expect(await Promise.all(chunks.map((c) => batched.transcribeChunk(c, 'es', es)))).toEqual(expected);
    expect(await batched.batchedSteps('es')).toBeNull();
  });
});
