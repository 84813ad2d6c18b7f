// Issue 27.6: the same recording gives the same words on every run whatever the recognition threads,
// joined clean read speech is heard word for word again, two windows never both keep the word at their
// seam, and a window with little or no speech under it gets no invented phrase. Real recorded speech
// (LibriVox, Debian's pocketsphinx-testdata) through what the worker runs: transcribeFile with
// recognition threads, the example template's vocabulary and mono speaker separation on.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enCustomerSupport } from '../../src/analysis/index.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { levenshtein } from '../../src/domain/text.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { MoonshineThreads } from '../../src/transcription/moonshine-threads.ts';
import { withoutSeamRepeats } from '../../src/transcription/transcribe.ts';
import { firstRepeat, heardWords } from '../../src/transcription/unheard.ts';
import { joinedReadSpeech } from '../fixtures/read-speech.ts';
import { words } from './words.ts';

const modelsDir = resolveModelsDir();
const vocabulary = templatePhrases(enCustomerSupport.definition);
const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-same-words-'));
const one = new MoonshineThreads({ modelsDir, threads: 1 });
const two = new MoonshineThreads({ modelsDir, threads: 2 });
let clean: { file: string; said: string };
let telephone: { file: string; said: string };

beforeAll(async () => {
  clean = await joinedReadSpeech(dir);
  telephone = await joinedReadSpeech(dir, { telephone: true });
});
afterAll(async () => {
  await Promise.all([one.close(), two.close()]);
  rmSync(dir, { recursive: true, force: true });
});

// As the worker transcribes a mono call of an account with the example template.
const heard = async (file: string, engine: MoonshineThreads) => {
  const result = await transcribeFile(file, { engines: [engine], language: 'en', vocabulary, diarize: true });
  return result.segments.map((s) => ({ start: s.start, end: s.end, text: s.text }));
};

const norm = (text: string) => words(text.replace(/\bMr\b\.?/g, 'mister').replace(/-/g, ' '));

describe('the same words every time', () => {
  it('hears joined clean read speech word for word, with no word twice at a seam', { timeout: 300_000 }, async () => {
    const segments = await heard(clean.file, two);
    const said = norm(clean.said);
    const got = norm(segments.map((s) => s.text).join(' '));
    // At most one word in a hundred wrong (it was 20 % when windows were cut through words).
    expect(levenshtein(said, got) / said.length).toBeLessThanOrEqual(0.01);
    const doubled = got.filter((w, i) => w === got[i + 1]);
    expect(doubled).toEqual([]);
  });

  it('gives the same words and times with one and two recognition threads, run after run', {
    timeout: 600_000,
  }, async () => {
    const first = await heard(telephone.file, one);
    expect(norm(first.map((s) => s.text).join(' ')).length).toBeGreaterThan(50);
    expect(await heard(telephone.file, two)).toEqual(first);
    expect(await heard(telephone.file, two)).toEqual(first);
    expect(await heard(telephone.file, one)).toEqual(first);
  });
});

describe('windows with little or no speech', () => {
  const engine = new MoonshineEngine({ modelsDir, intraOpThreads: 1 });
  let samples: Float32Array;
  beforeAll(async () => {
    samples = (await decodeAudio(clean.file)).channels[0]!;
  });
  const slice = (from: number, to: number) => samples.subarray(Math.round(from * 16000), Math.round(to * 16000));

  it('write nothing for silence or a murmur of noise', { timeout: 120_000 }, async () => {
    expect((await engine.transcribeChunk(new Float32Array(16000), 'en')).text).toBe('');
    let seed = 7;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const noise = Float32Array.from({ length: 8000 }, () => (next() - 0.5) * 0.01);
    expect((await engine.transcribeChunk(noise, 'en')).text).toBe('');
  });

  it('write no more words than a short window can hold, and no phrase over again', { timeout: 120_000 }, async () => {
    // 0.3 s in the middle of "had he married": the decoder used to write "The reason the reason the reason the reason".
    for (const [from, to] of [
      [16.0, 16.3],
      [20.0, 20.6],
    ] as const) {
      const text = (await engine.transcribeChunk(slice(from, to), 'en')).text;
      const w = words(text);
      expect(w.length, text).toBeLessThanOrEqual(Math.floor((to - from) * 4.5) + 1);
      expect(firstRepeat(w), text).toBeNull();
    }
  });
});

describe('the rules, on words', () => {
  it('cut a repeat only where the window is too short for the words', () => {
    const w = (s: string) => s.split(' ');
    expect(
      heardWords({
        words: w('the reason the reason the reason the reason'),
        seconds: 0.3,
        noSpeech: 0,
        avgLogProb: -0.6,
      }),
    ).toBe(2);
    expect(
      heardWords({ words: w('merry the more and merry the more'), seconds: 1.2, noSpeech: 0, avgLogProb: -0.6 }),
    ).toBe(4);
    // "No, no, no" said in a second is speech.
    expect(heardWords({ words: w('no no no'), seconds: 1, noSpeech: 0, avgLogProb: -0.3 })).toBe(3);
    // Far too long with nothing to cut at: none of it was heard.
    expect(
      heardWords({
        words: w('we will see you in the next video again soon'),
        seconds: 0.5,
        noSpeech: 0,
        avgLogProb: -0.5,
      }),
    ).toBe(0);
    // The model would rather have stopped at once, and what it wrote is unlikely.
    expect(heardWords({ words: w('thank you'), seconds: 1, noSpeech: 0.9, avgLogProb: -1.2 })).toBe(0);
    expect(heardWords({ words: w('thank you'), seconds: 1, noSpeech: 0.9, avgLogProb: -0.2 })).toBe(2);
  });

  it('keep a word once where two windows of one region meet', () => {
    const line = (start: number, end: number, text: string) => ({
      chunk: { channel: 0, start, end },
      heard: { text, avgLogProb: -0.1, uncertainWords: [0, 2] },
    });
    const out = withoutSeamRepeats([
      line(0, 1.7, 'had then leisure to consider'),
      line(1.7, 3.3, 'consider how much'),
      line(3.3, 5, 'how much there might be'),
      // Not touching: another region, where a repeated word is what was said.
      line(6, 7, 'be it so'),
    ]);
    expect(out.map((l) => l.heard.text)).toEqual([
      'had then leisure to consider',
      'how much',
      'there might be',
      'be it so',
    ]);
    expect(out[1]!.heard.uncertainWords).toEqual([1]);
  });
});
