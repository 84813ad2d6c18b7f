// Issues 18 and 27: a call whose agent says the template's greeting in a noisy room is measured as noisy,
// and scored as greeted (or, on the threshold, sent to a person) although the transcript mishears the
// greeting ("And you for calling at me"): the criterion is judged from the audio (src/analysis/acoustic.ts).
// The greeting is spoken by espeak-ng, pink noise is mixed in at 7 dB SNR (the street-side mobile caller's
// 5–10 dB), and the file goes through the real recogniser with the vocabulary a worker would give it (the
// template's phrases), then through the analysis with the example English template and the recording, as
// the analyze job runs it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCall, enCustomerSupport, type AnalysisResult } from '../../src/analysis/index.ts';
import { decodeAudio } from '../../src/audio/decode.ts';
import { audioQuality } from '../../src/audio/snr.ts';
import { encodeWav } from '../../src/audio/wav.ts';
import { templatePhrases } from '../../src/accounts/vocabulary.ts';
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { recordingScorer } from '../../src/transcription/recording-scorer.ts';
import { speak } from '../fixtures/audio.ts';

const RATE = 16000;
const SNR_DB = 7;

/** Seeded pink noise (Paul Kellet's filter over a linear congruential white noise). */
function pinkNoise(length: number, seed = 7): Float32Array {
  let state = seed;
  const white = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
  const b = [0, 0, 0, 0, 0, 0, 0];
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const w = white();
    b[0] = 0.99886 * b[0]! + w * 0.0555179;
    b[1] = 0.99332 * b[1]! + w * 0.0750759;
    b[2] = 0.969 * b[2]! + w * 0.153852;
    b[3] = 0.8665 * b[3]! + w * 0.3104856;
    b[4] = 0.55 * b[4]! + w * 0.5329522;
    b[5] = -0.7616 * b[5]! - w * 0.016898;
    out[i] = b[0]! + b[1]! + b[2]! + b[3]! + b[4]! + b[5]! + b[6]! + w * 0.5362;
    b[6] = w * 0.115926;
  }
  return out;
}

const power = (x: Float32Array) => x.reduce((a, v) => a + v * v, 0) / x.length;

/** The spoken line with a second of room noise before and after, noise at `snrDb` below the speech. */
async function noisyCall(text: string, snrDb: number): Promise<string> {
  const speech = (await decodeAudio(await speak(text, { voice: 'en' }))).channels[0]!;
  const signal = new Float32Array(speech.length + 2 * RATE);
  signal.set(speech, RATE);
  const noise = pinkNoise(signal.length);
  const gain = Math.sqrt(power(speech) / (power(noise) * 10 ** (snrDb / 10)));
  let peak = 0;
  for (let i = 0; i < signal.length; i++) {
    signal[i]! += gain * noise[i]!;
    peak = Math.max(peak, Math.abs(signal[i]!));
  }
  if (peak > 0.95) for (let i = 0; i < signal.length; i++) signal[i]! *= 0.95 / peak;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'escucha-noisy-')), 'greeting.wav');
  writeFileSync(file, encodeWav(signal, RATE));
  return file;
}

let heard: Awaited<ReturnType<typeof transcribeFile>>;
let fromText: AnalysisResult;
let fromAudio: AnalysisResult;
const template = enCustomerSupport.definition;

beforeAll(async () => {
  const file = await noisyCall('Thank you for calling Acme, my name is Laura. How can I help you today?', SNR_DB);
  const engine = new MoonshineEngine({ modelsDir: resolveModelsDir(), concurrency: 1 });
  // As a worker transcribes: defaults (beam, denoising) and the account's template phrases as vocabulary.
  heard = await transcribeFile(file, { engines: [engine], language: 'en', vocabulary: templatePhrases(template) });
  const input = { segments: heard.segments, durationSeconds: heard.durationSeconds, channels: 1, language: 'en' };
  fromText = await analyzeCall(input, template);
  fromAudio = await analyzeCall(input, template, { audio: recordingScorer(file, [engine], 'en') });
});

const greeting = (r: AnalysisResult) => r.criteria.find((c) => c.key === 'greeting')!;

describe('a greeting said in a noisy room', () => {
  it('is measured as noisy: an SNR estimate below "good"', () => {
    expect(heard.snrDb).not.toBeNull();
    expect(audioQuality(heard.snrDb!)).not.toBe('good');
  });

  it('is scored as greeted, from the audio, with the words the transcript heard as evidence', () => {
    // The transcript alone does not have the greeting: this is what the audio adds.
    expect(greeting(fromText).result).toBe('failed');
    const judged = greeting(fromAudio);
    // With Debian's espeak-ng 1.51+dfsg-10+deb12u2 this recording's margin is −6.1 nats, and other noise
    // seeds give −4.8 to −6.3: about −0.9 per token of the phrase's seven (heard at −1.6 and above).
    // Either way the agent is not failed in silence: the audio passes the greeting, or sends it to a
    // person with the words it heard.
    expect(judged.reason_code).toMatch(/^phrase_(heard_in_audio|unsure)$/);
    if (judged.reason_code === 'phrase_heard_in_audio') expect(judged.low_confidence).toBeUndefined();
    else
      expect(judged).toMatchObject({ low_confidence: true, reason_params: { phrase: 'thank you for calling Acme' } });
    expect(judged.evidence[0]!.start).toBeGreaterThanOrEqual(0.5);
    expect(judged.evidence[0]!.start).toBeLessThan(2);
    // No phrase the agent did not say is passed on the way: she neither showed empathy nor offered more help.
    for (const key of ['empathy', 'closing', 'identify_customer'])
      expect(fromAudio.criteria.find((c) => c.key === key)!.result).toBe('failed');
  });
});
