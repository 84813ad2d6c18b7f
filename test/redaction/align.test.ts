// Issue 27, redaction aligned to the audio: a customer reads a card or phone number in one breath
// (digit by digit or in groups, at normal and fast speech, in English and Spanish, mono and stereo).
// The recording goes through what the worker does with it (real Moonshine, real ffmpeg): transcribe,
// detect, time the words, write the redacted copy. Then, as a listener would check it: no frame of
// the spoken number keeps the voice (frame energy against the original, the beep's 1 kHz filtered
// out), and transcribing the served file again hears none of the digits.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDecoder } from '../../src/audio/binaries.ts';
import { alignedSpans } from '../../src/redaction/align-audio.ts';
import { writeRedactedAudio } from '../../src/redaction/audio.ts';
import { PII_KINDS } from '../../src/redaction/detect.ts';
import { digitRuns, numberWords } from '../../src/redaction/numbers.ts';
import { redactSegments } from '../../src/redaction/segments.ts';
import { closeEngines, createEngines, resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { callWithNumber, pcm16k, type SpokenNumber } from '../fixtures/audio.ts';

const run = promisify(execFile);
const decoder = resolveDecoder();
const engines = createEngines({ engine: 'moonshine', modelsDir: resolveModelsDir(), threads: 1 });
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'escucha-redaction-align-'));
});
afterAll(async () => {
  await closeEngines(engines);
  await rm(dir, { recursive: true, force: true });
});

const AGENT = {
  en: {
    voice: 'en',
    before: 'Thank you for calling Acme, how can I help you?',
    after: 'Perfect, I have noted that down.',
  },
  es: {
    voice: 'es',
    before: 'Gracias por llamar a Acme, ¿en qué puedo ayudarle?',
    after: 'Perfecto, ya lo tengo anotado.',
  },
} as const;

const CARD = { en: 'Yes, my card number is', es: 'Sí, el número de mi tarjeta es' };
const PHONE = { en: 'Sure, you can call me back on', es: 'Claro, me puede llamar al' };
const THANKS = { en: 'Thank you very much.', es: 'Muchas gracias.' };
const NORMAL = 150;
const FAST = 230;

// Every dimension appears with each value of every other at least once (8 of the 32 combinations).
const CASES: { name: string; language: 'en' | 'es'; said: SpokenNumber; channels: 1 | 2 }[] = [
  {
    name: 'en card, in groups, normal, mono',
    language: 'en',
    channels: 1,
    said: {
      voice: 'en',
      wordsPerMinute: NORMAL,
      before: CARD.en,
      number: 'forty five thirty two, zero one fifty one, twelve eighty three, zero three sixty six',
      after: THANKS.en,
    },
  },
  {
    name: 'en card, digit by digit, fast, stereo',
    language: 'en',
    channels: 2,
    said: {
      voice: 'en',
      wordsPerMinute: FAST,
      before: CARD.en,
      number: 'four five three two zero one five one one two eight three zero three six six',
      after: THANKS.en,
    },
  },
  {
    name: 'en phone, in groups, fast, mono',
    language: 'en',
    channels: 1,
    said: {
      voice: 'en',
      wordsPerMinute: FAST,
      before: PHONE.en,
      number: 'six seventeen, five fifty five, zero one forty two',
      after: THANKS.en,
    },
  },
  {
    name: 'en phone, digit by digit, normal, stereo',
    language: 'en',
    channels: 2,
    said: {
      voice: 'en',
      wordsPerMinute: NORMAL,
      before: PHONE.en,
      number: 'six one seven, five five five, zero one four two',
      after: THANKS.en,
    },
  },
  {
    name: 'es card, in groups, fast, stereo',
    language: 'es',
    channels: 2,
    said: {
      voice: 'es',
      wordsPerMinute: FAST,
      before: CARD.es,
      number: 'cuarenta y cinco treinta y dos, cero uno cincuenta y uno, doce ochenta y tres, cero tres sesenta y seis',
      after: THANKS.es,
    },
  },
  {
    name: 'es card, digit by digit, normal, mono',
    language: 'es',
    channels: 1,
    said: {
      voice: 'es',
      wordsPerMinute: NORMAL,
      before: CARD.es,
      number: 'cuatro cinco tres dos cero uno cinco uno uno dos ocho tres cero tres seis seis',
      after: THANKS.es,
    },
  },
  {
    name: 'es phone, in groups, normal, stereo',
    language: 'es',
    channels: 2,
    said: {
      voice: 'es',
      wordsPerMinute: NORMAL,
      before: PHONE.es,
      number: 'seis doce, treinta y cuatro, cincuenta y seis, setenta y ocho',
      after: THANKS.es,
    },
  },
  {
    name: 'es phone, digit by digit, fast, mono',
    language: 'es',
    channels: 1,
    said: {
      voice: 'es',
      wordsPerMinute: FAST,
      before: PHONE.es,
      number: 'seis uno dos, tres cuatro cinco, seis siete ocho',
      after: THANKS.es,
    },
  },
];

/** Frames of 20 ms. */
const FRAME = 320;
/** A frame of the original with speech: above −40 dBFS (espeak-ng speaks at about −15). */
const SPEECH_DB = -40;
/**
 * A frame of the served file keeps the voice if, the beep's band filtered out of both, it is louder
 * than −45 dBFS and follows the original's waveform (correlation above 0.5). Opus leaves a little
 * noise around the steady tone (up to about −35 dBFS in a frame); that noise is not the voice.
 */
const KEPT_DB = -45;
const KEPT_CORRELATION = 0.5;

const db = (samples: Int16Array, frame: number) => {
  let e = 0;
  for (let i = frame * FRAME; i < (frame + 1) * FRAME && i < samples.length; i++) e += (samples[i]! / 32768) ** 2;
  return 10 * Math.log10(e / FRAME + 1e-12);
};

const correlation = (a: Int16Array, b: Int16Array, frame: number) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = frame * FRAME; i < (frame + 1) * FRAME && i < a.length && i < b.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb + 1e-9);
};

/** 16 kHz mono of `file` with the beep's 1 kHz band taken out (what is left is the voice, if any). */
async function withoutBeep(file: string): Promise<Int16Array> {
  const out = path.join(dir, `${path.basename(file)}.nobeep.wav`);
  const band = 'bandreject=f=1000:width_type=h:w=400';
  await run('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    file,
    '-af',
    `${band},${band}`,
    '-ac',
    '1',
    '-ar',
    '16000',
    out,
  ]);
  return pcm16k(out);
}

/** The digits of the longest number in `text` (the one read out). */
const numberDigits = (text: string, language: string) =>
  digitRuns(text, numberWords(language)).reduce((a, r) => (r.digits.length > a.length ? r.digits : a), '');

/** Every pair of consecutive digits of `digits`: a re-transcript holding one has heard part of the number. */
const pairs = (digits: string) => Array.from({ length: digits.length - 1 }, (_, i) => digits.slice(i, i + 2));

describe('a number read in one breath is silenced where it is said', () => {
  it.each(CASES)(
    '$name',
    async ({ language, said, channels }) => {
      const { file, number } = await callWithNumber(said, AGENT[language], channels);
      const heard = await transcribeFile(file, { engines, language, decoder });
      const { pieces } = redactSegments(heard.segments, PII_KINDS, language);
      expect(pieces.length, JSON.stringify(heard.segments)).toBeGreaterThan(0);
      const spans = await alignedSpans({ file, decoder, engines, language, segments: heard.segments, pieces });
      const served = path.join(dir, `${path.basename(file)}.redacted.ogg`);
      await writeRedactedAudio(decoder, file, served, spans);

      // Every frame of the spoken number with voice in the original is silent (but for the beep) in the copy.
      const original = await withoutBeep(file);
      const copy = await withoutBeep(served);
      const voiced: number[] = [];
      const kept: string[] = [];
      for (let f = Math.floor((number.start * 16000) / FRAME); f < Math.ceil((number.end * 16000) / FRAME); f++) {
        if (db(original, f) < SPEECH_DB) continue;
        voiced.push(f);
        if (db(copy, f) > KEPT_DB && correlation(original, copy, f) > KEPT_CORRELATION)
          kept.push(`${((f * FRAME) / 16000).toFixed(2)}s ${db(copy, f).toFixed(0)} dB`);
      }
      expect(voiced.length).toBeGreaterThan(20);
      expect(kept, `spans ${JSON.stringify(spans)}, number ${JSON.stringify(number)}`).toEqual([]);

      // Heard again, the served file has none of the number's digits (no two of them in a row, no run
      // of three), while the words around the number are still there.
      const again = await transcribeFile(served, { engines, language, decoder });
      const text = again.segments.map((s) => s.text).join(' ');
      const digits = numberDigits(heard.segments.map((s) => s.text).join(' '), language);
      expect(digits.length).toBeGreaterThanOrEqual(9);
      for (const r of digitRuns(text, numberWords(language))) {
        expect(r.digits.length, text).toBeLessThan(3);
        for (const p of pairs(digits)) expect(r.digits, text).not.toContain(p);
      }
      expect(text.toLowerCase()).toMatch(language === 'en' ? /thank/ : /gracias/);
    },
    180_000,
  );
});
