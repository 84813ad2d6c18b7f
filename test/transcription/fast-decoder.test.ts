// The recogniser's speed-ups keep its words: the decoder graph edited at load (weight dequantization
// folded, split into its two steps with the cross-attention keys scaled and transposed once per chunk)
// hears what the ONNX files as shipped hear, and decodes running side by side (a worker's concurrent jobs)
// reusing scratch buffers do not disturb each other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../src/audio/decode.ts';
import { resolveModelsDir } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { splitDecoder } from '../../src/transcription/onnx-rewrite.ts';
import { decodeMessage, encodeMessage } from '../../src/transcription/protobuf.ts';
import { speak } from '../fixtures/audio.ts';
import { words } from './words.ts';

const modelsDir = resolveModelsDir();
const LINES = [
  'I would like to cancel my contract and switch to another provider next month.',
  'Can I have your account number please?',
];
const SPANISH = [
  'Quisiera cancelar mi contrato y cambiar de proveedor el mes que viene.',
  'Buenos días, ¿en qué puedo ayudarle?',
];
let chunks: Float32Array[];
let spanish: Float32Array[];

beforeAll(async () => {
  const say = (lines: string[], voice: string) =>
    Promise.all(lines.map(async (line) => (await decodeAudio(await speak(line, { voice }))).channels[0]!));
  [chunks, spanish] = await Promise.all([say(LINES, 'en'), say(SPANISH, 'es')]);
});

const heard = async (engine: MoonshineEngine, samples: Float32Array) =>
  words((await engine.transcribeChunk(samples, 'en')).text);

describe('the decoder graph edited at load', () => {
  it('re-encodes a model it does not change byte for byte, and leaves a model without the pattern alone', () => {
    const file = readFileSync(path.join(modelsDir, 'moonshine-base-en', 'encoder_model.onnx'));
    expect(Buffer.from(encodeMessage(decodeMessage(file))).equals(file)).toBe(true);
    expect(splitDecoder(file)).toBeNull();
  });

  it("passes every layer's cross-attention keys from the first step to the later ones", () => {
    const file = readFileSync(path.join(modelsDir, 'moonshine-base-en', 'decoder_model_merged.onnx'));
    expect(splitDecoder(file)?.crossKeys).toEqual(
      Array.from({ length: 8 }, (_, i) => ({
        input: `past_key_values.${i}.encoder.key.scaled_transposed`,
        output: `/model/decoder/layers.${i}/encoder_attn/Mul_1_output_0`,
      })),
    );
  });

  it('with one copy of the weights (every step through the later-step model), hears what the first-step model heard, in both languages', {
    timeout: 600_000,
  }, async () => {
    // Issue 30: the first step goes through the later-step model, its cross-attention from a model of
    // those nodes alone; before, a first-step model held a second copy of the decoder's weights.
    const vocabulary = ['Zentrix', 'número de cuenta'];
    for (const [language, samples] of [
      ['en', chunks],
      ['es', spanish],
    ] as const) {
      const before = new MoonshineEngine({ modelsDir, concurrency: 1, firstStepModel: true });
      const now = new MoonshineEngine({ modelsDir, concurrency: 1 });
      for (const s of samples) {
        const [a, b] = [
          await before.transcribeChunk(s, language, { vocabulary }),
          await now.transcribeChunk(s, language, { vocabulary }),
        ];
        expect(b).toEqual(a);
        expect(words(b.text).length).toBeGreaterThan(3);
      }
      // Scoring phrases against the audio (teacher forcing) still reads whole sequences at once.
      const texts = [
        language === 'en' ? 'can I have your account number please' : 'buenos días',
        'the weather is nice',
      ];
      expect(await now.scorePhrases(samples[1]!, language, texts)).toEqual(
        await before.scorePhrases(samples[1]!, language, texts),
      );
    }
  });

  it('hears the same words as the models as shipped, greedy and with a beam', { timeout: 600_000 }, async () => {
    for (const beam of [1, 4]) {
      const shipped = new MoonshineEngine({ modelsDir, concurrency: 1, beam, asShipped: true });
      const fast = new MoonshineEngine({ modelsDir, concurrency: 1, beam });
      for (const samples of chunks) expect(await heard(fast, samples)).toEqual(await heard(shipped, samples));
    }
  });
});

describe('decodes side by side', () => {
  it('hear what each hears alone (each has its own scratch buffers)', async () => {
    const engine = new MoonshineEngine({ modelsDir, concurrency: 2, beam: 4 });
    const alone = [];
    for (const samples of chunks) alone.push(await heard(engine, samples));
    expect(alone[0]).toEqual(expect.arrayContaining(['cancel', 'contract', 'provider']));
    // Longer then shorter and the other way round: the reused buffers are larger than the next chunk needs.
    expect(await Promise.all(chunks.map((s) => heard(engine, s)))).toEqual(alone);
    expect(await Promise.all([...chunks].reverse().map((s) => heard(engine, s)))).toEqual([...alone].reverse());
  });
});
