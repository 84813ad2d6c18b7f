// Issue 27: a phrase judged from the audio gets the same score whatever it is asked with. The int8 decoder
// quantizes its activations per run (one scale over every row), and the texts of a segment used to go
// through it eight at a time: a phrase's score moved by up to 0.9 nats with its batch mates, so adding a
// criterion to a template could turn another criterion's verdict. Now each text scores as it does alone
// (src/transcription/moonshine.ts teacherForcedTokens), with recognition unbatched or batched (slotted
// model: texts of one length share a run, each row quantized on its own), in English and Spanish.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import llamaTokenizer from 'llama-tokenizer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/analysis/acoustic.ts';
import type { Segment } from '../../src/analysis/types.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { encodeWav } from '../../src/audio/wav.ts';
import { resolveModelsDir } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { recordingScorer } from '../../src/transcription/recording-scorer.ts';
import { speak } from '../fixtures/audio.ts';

const modelsDir = resolveModelsDir();
const LINES = {
  en: 'Thank you for calling Acme, my name is Laura. How can I help you today?',
  es: 'Gracias por llamar a Acme, me llamo Laura. ¿En qué puedo ayudarle?',
};
// What the analysis sends for one segment: the transcript as heard, then candidates with a phrase put in.
const TEXTS = {
  en: [
    'And you for calling at me, my name is Laura. How can I help you today?',
    'Thank you for calling Acme, my name is Laura. How can I help you today?',
    'Thank you for calling Acne, my name is Laura. How can I help you today?',
    'And you for calling at me, my name is Laura. Is there anything else I can help you with?',
    'I understand, my name is Laura. How can I help you today?',
    'That is not my problem.',
  ],
  es: [
    'Gracias por llamar a Acne, me llamo Laura. ¿En qué puedo ayudarle?',
    'Gracias por llamar a Acme, me llamo Laura. ¿En qué puedo ayudarle?',
    'Bienvenido a Acme, me llamo Laura. ¿En qué puedo ayudarle?',
    'No es mi problema.',
  ],
};
const samples: Record<string, Float32Array> = {};

beforeAll(async () => {
  for (const lang of ['en', 'es'] as const)
    samples[lang] = (await decodeAudio(await speak(LINES[lang], { voice: lang }))).channels[0]!;
});

const tokens = (t: string) => llamaTokenizer.encode(t, false, true).length;

describe.each([
  ['en', 0],
  ['en', 8],
  ['es', 0],
] as const)('%s phrases scored with recognition batched by %i', (lang, batch) => {
  it('score the same alone, together and in any order', { timeout: 300_000 }, async () => {
    const texts = TEXTS[lang];
    // Texts of one length among them: batched, those share a decoder run.
    expect(new Set(texts.map(tokens)).size).toBeLessThan(texts.length);
    const engine = new MoonshineEngine({ modelsDir, concurrency: 1, batch });
    const together = await engine.scorePhrases(samples[lang]!, lang, texts);
    const alone = [];
    for (const t of texts) alone.push(...(await engine.scorePhrases(samples[lang]!, lang, [t])));
    expect(together).toEqual(alone);
    expect(await engine.scorePhrases(samples[lang]!, lang, [...texts].reverse())).toEqual([...alone].reverse());
    expect(await engine.scorePhrases(samples[lang]!, lang, [texts[2]!, texts[1]!])).toEqual([alone[2], alone[1]]);
    // The phrase said is likelier than what the transcript heard.
    expect(alone[1]!).toBeGreaterThan(alone[0]!);
  });
});

it("gives the company's name said the boost the recogniser's vocabulary gave it, and the same alone or together", {
  timeout: 300_000,
}, async () => {
  // "Acme" is rare in the model's prior: said, it costs nats teacher-forced unless scored as the decoder,
  // biased towards the account's vocabulary, weighed it (forcedBias).
  const texts = TEXTS.en;
  const engine = new MoonshineEngine({ modelsDir, concurrency: 1 });
  const plain = await engine.scorePhrases(samples.en!, 'en', texts);
  const named = await engine.scorePhrases(samples.en!, 'en', texts, ['Acme']);
  const alone = [];
  for (const t of texts) alone.push(...(await engine.scorePhrases(samples.en!, 'en', [t], ['Acme'])));
  expect(named).toEqual(alone);
  // The greeting said, with the name, earns the boost; texts without the name earn nothing.
  expect(named[1]!).toBeGreaterThan(plain[1]!);
  for (const i of [0, 2, 3, 4, 5]) expect(named[i]).toBe(plain[i]);
});

it('gives a criterion the same margin whether or not another criterion asks about the same turn', {
  timeout: 300_000,
}, async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'escucha-alone-')), 'turn.wav');
  writeFileSync(file, encodeWav(samples.en!, 16000));
  const segment: Segment = {
    start: 0,
    end: samples.en!.length / 16000,
    speaker: 'agent',
    channel: 0,
    text: TEXTS.en[0]!,
  };
  const engine = new MoonshineEngine({ modelsDir, concurrency: 1, batch: 8 });
  // Another company's greeting: a margin well below 0 (0 is the cap), where batch mates used to move it
  // (−21.4 alone, −21.51 with the closing and empathy phrases in the same runs).
  const greeting = { key: 'greeting', segments: [0], phrases: ['thank you for calling Zentrix'], openings: [0] };
  const others = [
    { key: 'closing', segments: [0], phrases: ['is there anything else I can help you with'], openings: [0] },
    { key: 'empathy', segments: [0], phrases: ['I understand', 'I am sorry to hear that'] },
  ];
  const alone = await listen([segment], [greeting], recordingScorer(file, [engine], 'en')!);
  const withOthers = await listen([segment], [greeting, ...others], recordingScorer(file, [engine], 'en')!);
  expect(alone.get('greeting')!.length).toBe(1);
  expect(withOthers.get('greeting')).toEqual(alone.get('greeting'));
});
