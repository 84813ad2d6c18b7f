// Speech and noise for `npm run bench:asr`: real recorded English from Debian's pocketsphinx-testdata
// (LibriVox public-domain readings and CMU command recordings, BSD-2), synthetic English and Spanish from
// several espeak-ng voices, and seeded noise (pink, babble of several voices, street-like).
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { encodeWav } from '../../src/audio/wav.ts';
import { speak } from '../../test/fixtures/audio.ts';
import { READ_UTTERANCES, readSpeechDir } from '../../test/fixtures/read-speech.ts';

const run = promisify(execFile);
export const RATE = 16000;

export interface Utterance {
  /** Where it comes from: 'real' (recorded human) or the espeak-ng voice. */
  source: string;
  text: string;
  samples: Float32Array;
}

export interface SpeechSet {
  name: string;
  language: 'en' | 'es';
  kind: 'long' | 'short';
  utterances: Utterance[];
}

// The read utterances (and where their package comes from) are shared with the tests.
const REAL_READ = READ_UTTERANCES;
const REAL_SHORT = [
  ['cards/001.wav', 'ten of clubs'],
  ['cards/003.wav', 'seven of clubs'],
  ['cards/004.wav', 'five five'],
  ['cards/002.wav', 'four queen of clubs'],
  ['goforward.raw', 'go forward ten meters'],
] as const;

// Call lines: agents say the example templates' phrases (greeting, empathy, closing, topics).
const EN_LINES = [
  'Hello, thank you for calling Acme. My name is Laura, how can I help you today?',
  'I am sorry to hear that, I completely understand. Can I have your account number please?',
  'My internet is not working and the router keeps restarting every evening.',
  'I will send you a refund for the extra charge on your invoice today.',
  'Is there anything else I can help you with? Thank you for your patience, goodbye.',
  'I would like to cancel my contract and switch to another provider next month.',
];
const ES_LINES = [
  'Hola, gracias por llamar a Acme. Le atiende Lucía, en qué puedo ayudarle?',
  'Lo entiendo perfectamente, lamento las molestias. Me puede dar su nombre completo?',
  'El router no funciona desde ayer y no tengo internet en casa.',
  'Le haré la devolución del dinero del cargo en su factura esta misma semana.',
  'Hay algo más en lo que pueda ayudarle? Muchas gracias por su paciencia, adiós.',
  'Quiero dar de baja el contrato porque me han cobrado dos veces este mes.',
];
const EN_SHORT = ['yes', 'no thanks', 'that is correct', 'not really', 'okay', 'sure, go ahead'];
const ES_SHORT = ['sí', 'no gracias', 'de acuerdo', 'claro que sí', 'vale', 'perfecto'];
const EN_VOICES = ['en-us', 'en+m3', 'en-gb+f3'];
const ES_VOICES = ['es', 'es+m3', 'es-419+f2'];
// Babble: other conversations in the room, several voices at once.
const BABBLE_LINES = [
  ['en-us+m1', 'Well I told him the meeting was moved to Friday but he never listens to anything I say.'],
  ['en-gb+f2', 'We should order more paper for the printer before the end of the quarter, it is nearly empty.'],
  ['es+m2', 'Mañana voy a llegar un poco más tarde porque tengo que llevar el coche al taller.'],
  ['en+f4', 'Did you see the game last night? It went to extra time and nobody could believe it.'],
  ['es-419+f3', 'La reunión de las cuatro se ha cancelado, así que podemos terminar el informe hoy.'],
  ['en-us+m4', 'Can somebody tell me where the new coffee machine is, the old one is broken again.'],
] as const;

/** 16 kHz mono float samples of any audio file (raw files are pocketsphinx's 16 kHz s16le). */
export async function load16k(file: string): Promise<Float32Array> {
  const input = file.endsWith('.raw') ? ['-f', 's16le', '-ar', '16000', '-ac', '1', '-i', file] : ['-i', file];
  const { stdout } = await run(
    'ffmpeg',
    ['-nostdin', '-v', 'error', ...input, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  const bytes = Uint8Array.from(stdout);
  return new Float32Array(bytes.buffer, 0, bytes.length >> 2);
}

async function spoken(text: string, voice: string): Promise<Utterance> {
  return { source: voice, text, samples: await load16k(await speak(text, { voice })) };
}

export async function speechSets(): Promise<{ sets: SpeechSet[]; real: boolean }> {
  const sets: SpeechSet[] = [];
  const dir = await readSpeechDir();
  if (dir) {
    const load = async ([file, text]: readonly [string, string]) => ({
      source: 'real',
      text,
      samples: await load16k(path.join(dir, file)),
    });
    sets.push({
      name: 'en read (real)',
      language: 'en',
      kind: 'long',
      utterances: await Promise.all(REAL_READ.map(load)),
    });
    sets.push({
      name: 'en short (real)',
      language: 'en',
      kind: 'short',
      utterances: await Promise.all(REAL_SHORT.map(load)),
    });
  }
  // Each voice says two of the six lines, so every line is heard once per language.
  const lines = async (all: string[], voices: string[]) =>
    Promise.all(all.map((text, i) => spoken(text, voices[i % voices.length]!)));
  sets.push({ name: 'en call (espeak)', language: 'en', kind: 'long', utterances: await lines(EN_LINES, EN_VOICES) });
  sets.push({ name: 'es call (espeak)', language: 'es', kind: 'long', utterances: await lines(ES_LINES, ES_VOICES) });
  sets.push({ name: 'en short (espeak)', language: 'en', kind: 'short', utterances: await lines(EN_SHORT, EN_VOICES) });
  sets.push({ name: 'es short (espeak)', language: 'es', kind: 'short', utterances: await lines(ES_SHORT, ES_VOICES) });
  return { sets, real: !!dir };
}

// ---------------------------------------------------------------------------------------------
// Noise (seeded, so every run hears the same stretches)
// ---------------------------------------------------------------------------------------------

export type NoiseKind = 'pink' | 'babble' | 'street';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Paul Kellet's pink filter over white noise. */
function pink(seconds: number, seed: number): Float32Array {
  const rnd = prng(seed);
  const out = new Float32Array(seconds * RATE);
  let [b0, b1, b2, b3, b4, b5, b6] = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    const w = rnd() * 2 - 1;
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
  }
  return out;
}

/** Traffic: brown rumble swelling as vehicles pass, pink hiss, and now and then a two-tone horn. */
function street(seconds: number, seed: number): Float32Array {
  const rnd = prng(seed);
  const hiss = pink(seconds, seed + 1);
  const out = new Float32Array(seconds * RATE);
  let brown = 0;
  let horn = -1;
  for (let i = 0; i < out.length; i++) {
    brown = 0.995 * brown + (rnd() * 2 - 1) * 0.05;
    const t = i / RATE;
    const swell = 0.6 + 0.4 * Math.sin(2 * Math.PI * (0.07 + (seed % 5) * 0.01) * t) ** 2;
    let v = brown * 4 * swell + hiss[i]! * 0.25;
    if (horn < 0 && rnd() < 1 / (RATE * 6)) horn = i;
    if (horn >= 0) {
      const h = (i - horn) / RATE;
      if (h > 0.5) horn = -1;
      else v += 0.3 * (Math.sin(2 * Math.PI * 400 * h) + Math.sin(2 * Math.PI * 500 * h));
    }
    out[i] = v;
  }
  return out;
}

let babbleSource: Float32Array | undefined;
/** Six voices talking at once, each looped from its own offset. */
async function babble(seconds: number, seed: number): Promise<Float32Array> {
  if (!babbleSource) {
    const clips = await Promise.all(BABBLE_LINES.map(async ([voice, text]) => (await spoken(text, voice)).samples));
    const len = Math.max(...clips.map((c) => c.length));
    babbleSource = new Float32Array(len);
    clips.forEach((c, k) => {
      const shift = Math.floor((k / clips.length) * len);
      for (let i = 0; i < len; i++) babbleSource![(i + shift) % len]! += c[i % c.length]!;
    });
  }
  const src = babbleSource;
  const rnd = prng(seed);
  const start = Math.floor(rnd() * src.length);
  const out = new Float32Array(seconds * RATE);
  for (let i = 0; i < out.length; i++) out[i] = src[(start + i) % src.length]!;
  return out;
}

const STRETCH_SECONDS = 40;
/** Three different stretches of each noise: a bench needs several, one stretch alone varies a lot. */
export async function noiseStretches(kind: NoiseKind): Promise<Float32Array[]> {
  const seeds = [11, 23, 37];
  return Promise.all(
    seeds.map((seed) =>
      kind === 'pink'
        ? pink(STRETCH_SECONDS, seed)
        : kind === 'street'
          ? street(STRETCH_SECONDS, seed)
          : babble(STRETCH_SECONDS, seed),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Mixing and the telephone chain (bench:asr and bench:verdicts)
// ---------------------------------------------------------------------------------------------

export function power(x: Float32Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i]! * x[i]!;
  return sum / Math.max(1, to - from);
}

/**
 * Noise over the whole of `signal`, scaled to the SNR of the speech: each span of speech (with the gap
 * before it) hears stretch `first + i` (cycling), at that span's own SNR.
 */
export function mixNoise(
  signal: Float32Array,
  spans: readonly (readonly [number, number])[],
  stretches: readonly Float32Array[],
  snr: number,
  first = 0,
): void {
  spans.forEach(([s, e], i) => {
    const noise = stretches[(first + i) % stretches.length]!;
    const from = i === 0 ? 0 : spans[i - 1]![1];
    const to = i === spans.length - 1 ? signal.length : e;
    const speechPower = power(signal, s, e);
    const noisePower = power(noise, 0, Math.min(noise.length, to - from));
    const gain = Math.sqrt(speechPower / (noisePower * 10 ** (snr / 10)));
    for (let k = from; k < to; k++) signal[k]! += gain * noise[(k - from) % noise.length]!;
  });
}

/** Scales channels together so that no sample exceeds 0.95 (clipping would be another distortion). */
export function limitPeak(channels: readonly Float32Array[]): void {
  let peak = 0;
  for (const c of channels) for (const v of c) peak = Math.max(peak, Math.abs(v));
  if (peak > 0.95) for (const c of channels) for (let k = 0; k < c.length; k++) c[k]! *= 0.95 / peak;
}

export type Chain = 'none' | 'telephone' | 'gsm';

/**
 * Writes `channels` (16 kHz) to `<base>.wav`, then through the chain: telephone = 300–3400 Hz, 8 kHz,
 * μ-law; gsm = the same band through GSM 06.10. Returns the file to transcribe.
 */
export async function throughChain(channels: Float32Array[], base: string, chain: Chain): Promise<string> {
  const wav = `${base}.wav`;
  writeFileSync(wav, channels.length === 1 ? encodeWav(channels[0]!, RATE) : stereoWav(channels[0]!, channels[1]!));
  if (chain === 'none') return wav;
  const out = `${base}.${chain}.wav`;
  const codec = chain === 'gsm' ? ['-c:a', 'libgsm_ms'] : ['-c:a', 'pcm_mulaw'];
  await run('ffmpeg', [
    ...['-nostdin', '-v', 'error', '-y', '-i', wav],
    ...['-af', 'highpass=f=300,lowpass=f=3400', '-ar', '8000', '-ac', String(channels.length), ...codec, out],
  ]);
  rmSync(wav);
  return out;
}

/** 16-bit PCM stereo WAV (left, right of the same length). */
function stereoWav(left: Float32Array, right: Float32Array): Buffer {
  const frames = Math.min(left.length, right.length);
  const out = Buffer.alloc(44 + frames * 4);
  const mono = encodeWav(new Float32Array(0), RATE);
  mono.copy(out, 0, 0, 44);
  out.writeUInt32LE(36 + frames * 4, 4);
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(RATE * 4, 28);
  out.writeUInt16LE(4, 32);
  out.writeUInt32LE(frames * 4, 40);
  const pcm = (v: number) => {
    const s = Math.max(-1, Math.min(1, v));
    return Math.round(s < 0 ? s * 0x8000 : s * 0x7fff);
  };
  for (let i = 0; i < frames; i++) {
    out.writeInt16LE(pcm(left[i]!), 44 + 4 * i);
    out.writeInt16LE(pcm(right[i]!), 46 + 4 * i);
  }
  return out;
}
