// Issue 30: decoder steps of the chunks in flight run as one batch (ASR_BATCH, StepBatcher in
// src/transcription/moonshine.ts). Batched recognition must hear exactly what each chunk hears alone:
// real recorded speech (LibriVox, Debian's pocketsphinx-testdata) of different lengths decoded together,
// chunks whose beams finish early beside long ones, a chunk arriving while others are decoding, and a
// whole recording through transcribeFile as the worker runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enCustomerSupport, esAtencionCliente } from '../../src/analysis/index.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { type Encoded, MoonshineEngine, sessionOptions } from '../../src/transcription/moonshine.ts';
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

  it('holds a chunk that would start alone for the next one being encoded, and hears both as alone', {
    timeout: 300_000,
  }, async () => {
    // As the encoder thread hands them over (MoonshineThreads): states computed elsewhere, each saying
    // how many chunks are still being encoded after it.
    const encoder = await ort.InferenceSession.create(
      path.join(modelsDir, 'moonshine-base-en', 'encoder_model.onnx'),
      sessionOptions(1, true, true),
    );
    const encode = async (samples: Float32Array, following: number): Promise<Encoded> => {
      const { last_hidden_state: h } = await encoder.run({
        input_values: new ort.Tensor('float32', samples, [1, samples.length]),
      });
      return { data: h!.data as Float32Array, dims: h!.dims, following };
    };
    const [a, b] = [utterances[1]!, utterances[2]!];
    const expected = [await alone.transcribeChunk(a, 'en', options), await alone.transcribeChunk(b, 'en', options)];
    const engine = new MoonshineEngine({ modelsDir, intraOpThreads: 1, batch: 4, encodedElsewhere: true });
    await engine.transcribeChunk(new Float32Array(16000), 'en', options, await encode(new Float32Array(16000), 0));
    const before = (await engine.batchedSteps('en'))!;
    const first = engine.transcribeChunk(a, 'en', options, await encode(a, 1));
    // While the second is being encoded, the first takes no step of its own.
    const second = await encode(b, 0);
    expect((await engine.batchedSteps('en'))!.runs).toBe(before.runs);
    const heard = await Promise.all([first, engine.transcribeChunk(b, 'en', options, second)]);
    expect(heard).toEqual(expected);
    // They started together and shared runs (one after the other, each step would be a run of its own).
    const after = (await engine.batchedSteps('en'))!;
    expect(after.runs - before.runs).toBeLessThan(0.75 * (after.chunkSteps - before.chunkSteps));
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
