import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { BabbleGate } from './babble.ts';
import { SAMPLE_RATE } from './decode.ts';
import { type SnrMeter, powerOf } from './snr.ts';

export interface SpeechRegion {
  start: number;
  end: number;
}

export interface VadOptions {
  /** Probability that starts speech (default 0.5); speech ends below threshold − 0.15 (hysteresis). */
  threshold?: number;
  /** Shorter bursts are dropped: clicks, coughs, line noise (default 0.25 s). */
  minSpeechSeconds?: number;
  /** A pause must last this long to end a region, so commas and breaths do not split sentences (default 0.5 s). */
  minSilenceSeconds?: number;
  /** Added on both sides so word onsets and tails reach the model (default 0.2 s). */
  padSeconds?: number;
  /** Longer regions are cut at their quietest point; Moonshine handles ≤ ~30 s per pass (default 25 s). */
  maxRegionSeconds?: number;
  /**
   * On a channel that sounds like background talkers, count a window as speech only when the channel's
   * own level stands above its floor (src/audio/babble.ts). It never acts on clean, pink- or street-noise
   * audio. Default off: the floor is the babble's level only where the channel's speaker is quiet for a
   * good part of the call (one speaker per channel); transcribeFile turns it on for stereo calls.
   */
  babbleGate?: boolean;
}

const WINDOW = 512; // Silero v5 at 16 kHz: 32 ms per decision
// v5 expects the last 64 samples of the previous window in front of each window (as silero-vad's OnnxWrapper does).
const CONTEXT = 64;
const WINDOW_SECONDS = WINDOW / SAMPLE_RATE;

let session: Promise<ort.InferenceSession> | undefined;

function vadSession(): Promise<ort.InferenceSession> {
  if (!session) {
    const pkg = createRequire(import.meta.url).resolve('@ricky0123/vad-web/package.json');
    const model = path.join(path.dirname(pkg), 'dist', 'silero_vad_v5.onnx');
    // The model is tiny and runs window by window: one thread avoids thread hand-off costs per call.
    session = ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    session.catch(() => (session = undefined));
  }
  return session;
}

/**
 * Loads the voice detector and runs it over a second of silence through the tracker every call uses, so
 * the first call after a process starts does not wait for it: creating the session and the first windows
 * took 270–350 ms of CPU (0.8–1.1 s of wall time on a loaded 2-core machine) against 70–85 ms for 8 s of
 * audio once warm, all of it before a call's first chunk can reach recognition. The regions found are
 * dropped; nothing is kept but the session (module-wide, as before).
 */
export async function warmVoiceDetection(): Promise<void> {
  const tracker = new SpeechTracker();
  await tracker.push(new Float32Array(SAMPLE_RATE));
  await tracker.end();
}

/** Speech probability of every 32 ms window of 16 kHz mono audio. */
export async function speechProbabilities(samples: Float32Array): Promise<Float32Array> {
  const s = await vadSession();
  const windows = Math.ceil(samples.length / WINDOW);
  const probs = new Float32Array(windows);
  const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]), []);
  let state: ort.Tensor = new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
  const input = new Float32Array(CONTEXT + WINDOW);
  for (let w = 0; w < windows; w++) {
    const from = w * WINDOW;
    input.copyWithin(0, WINDOW, WINDOW + CONTEXT); // previous window's tail becomes the context
    input.fill(0, CONTEXT);
    input.set(samples.subarray(from, from + WINDOW), CONTEXT);
    const out = await s.run({ input: new ort.Tensor('float32', input.slice(), [1, input.length]), state, sr });
    state = out.stateN!;
    probs[w] = (out.output!.data as Float32Array)[0]!;
  }
  return probs;
}

/** Speech regions (seconds) of 16 kHz mono audio, each at most `maxRegionSeconds` long. */
export async function detectSpeech(samples: Float32Array, opts: VadOptions = {}): Promise<SpeechRegion[]> {
  const heard = await speechProbabilities(samples);
  if (!opts.babbleGate) return regionsFromProbabilities(heard, samples.length / SAMPLE_RATE, opts);
  const gate = new BabbleGate();
  const probs: number[] = [];
  for (let w = 0; w < heard.length; w++)
    probs.push(...gate.push(heard[w]!, powerOf(samples.subarray(w * WINDOW, (w + 1) * WINDOW))));
  probs.push(...gate.flush());
  return regionsFromProbabilities(Float32Array.from(probs), samples.length / SAMPLE_RATE, opts);
}

/** Turns per-window probabilities into padded, merged and length-capped regions. */
export function regionsFromProbabilities(
  probs: Float32Array,
  durationSeconds: number,
  opts: VadOptions = {},
): SpeechRegion[] {
  const threshold = opts.threshold ?? 0.5;
  const low = Math.max(threshold - 0.15, 0.01);
  const minSpeech = Math.ceil((opts.minSpeechSeconds ?? 0.25) / WINDOW_SECONDS);
  const minSilence = Math.ceil((opts.minSilenceSeconds ?? 0.5) / WINDOW_SECONDS);
  const pad = opts.padSeconds ?? 0.2;
  const maxLen = opts.maxRegionSeconds ?? 25;

  // Window-index regions with hysteresis: enter at `threshold`, leave after `minSilence` windows below `low`.
  const raw: [number, number][] = [];
  let start = -1;
  let silentSince = -1;
  for (let w = 0; w < probs.length; w++) {
    const p = probs[w]!;
    if (start < 0) {
      if (p >= threshold) start = w;
      continue;
    }
    if (p >= low) silentSince = -1;
    else if (silentSince < 0) silentSince = w;
    else if (w - silentSince + 1 >= minSilence) {
      raw.push([start, silentSince]);
      start = -1;
      silentSince = -1;
    }
  }
  if (start >= 0) raw.push([start, silentSince >= 0 ? silentSince : probs.length]);

  const merged: [number, number][] = [];
  const padWindows = Math.round(pad / WINDOW_SECONDS);
  for (const [s, e] of raw) {
    if (e - s < minSpeech) continue;
    const ps = Math.max(0, s - padWindows);
    const pe = Math.min(probs.length, e + padWindows);
    const last = merged.at(-1);
    if (last && ps <= last[1]) last[1] = Math.max(last[1], pe);
    else merged.push([ps, pe]);
  }

  const maxWindows = Math.floor(maxLen / WINDOW_SECONDS);
  return merged
    .flatMap(([s, e]) => splitLong(probs, s, e, maxWindows))
    .map(([s, e]) => ({ start: s * WINDOW_SECONDS, end: Math.min(e * WINDOW_SECONDS, durationSeconds) }));
}

// Cuts at the least speech-like window within the allowed span, keeping each piece at least half the
// maximum so the model never gets a sliver without context.
function splitLong(probs: Float32Array, start: number, end: number, maxWindows: number): [number, number][] {
  const pieces: [number, number][] = [];
  let s = start;
  while (end - s > maxWindows) {
    let cut = s + maxWindows;
    for (let w = s + Math.floor(maxWindows / 2); w < s + maxWindows; w++) if (probs[w]! < probs[cut]!) cut = w;
    pieces.push([s, cut]);
    s = cut;
  }
  pieces.push([s, end]);
  return pieces;
}

/** A speech region with its samples (a copy: the tracker's buffer moves on). */
export interface SpeechChunk extends SpeechRegion {
  samples: Float32Array;
  /**
   * The babble gate was acting on the channel at the region's last window: the region is the
   * channel's own speaker, standing above the background talkers (src/audio/babble.ts).
   */
  aboveBabble?: boolean;
}

/**
 * Voice detection over a stream: push blocks of 16 kHz mono audio as they are decoded and get back the
 * regions that can no longer change, with their samples. Only the audio from the start of the first
 * undecided region is kept (at most about `maxRegionSeconds` plus a block), and the per-window
 * probabilities (31 floats a second), so memory does not grow with the call's length.
 * Regions are the ones `detectSpeech` finds on the whole recording, except that two regions closer than
 * twice the padding stay separate instead of being merged.
 */
export class SpeechTracker {
  private readonly opts: VadOptions;
  private probs = new Float32Array(1024);
  /** Per decided window: 1 when the babble gate was acting on it (BabbleGate.takeEngaged). */
  private engaged = new Uint8Array(1024);
  // Windows whose probability regions are decided on (`probs`), and windows scored by Silero: the babble
  // gate holds the first second back until it has judged it.
  private windows = 0;
  private scored = 0;
  // Audio kept from frame `base` on; `from` is the first window not yet given out in a region.
  private audio = new Float32Array(16 * SAMPLE_RATE);
  private base = 0;
  private frames = 0;
  private from = 0;
  private state: ort.Tensor = new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
  private readonly input = new Float32Array(CONTEXT + WINDOW);
  private readonly sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]), []);

  private readonly meter: SnrMeter | undefined;
  private readonly gate: BabbleGate | null;

  /** `meter` hears every window's power and speech probability (the call's SNR estimate). */
  constructor(opts: VadOptions = {}, meter?: SnrMeter) {
    this.opts = opts;
    this.meter = meter;
    this.gate = opts.babbleGate ? new BabbleGate() : null;
  }

  async push(samples: Float32Array): Promise<SpeechChunk[]> {
    this.keep(samples);
    await this.score(false);
    return this.settle(false);
  }

  /** The remaining regions once the recording has ended. */
  async end(): Promise<SpeechChunk[]> {
    await this.score(true);
    return this.settle(true);
  }

  private keep(samples: Float32Array): void {
    const used = this.frames - this.base;
    if (used + samples.length > this.audio.length) {
      const grown = new Float32Array(Math.max(used + samples.length, this.audio.length * 2));
      grown.set(this.audio.subarray(0, used));
      this.audio = grown;
    }
    this.audio.set(samples, used);
    this.frames += samples.length;
  }

  // Scores every whole 32 ms window received; at the end the last partial window is padded with zeros.
  private async score(final: boolean): Promise<void> {
    const s = await vadSession();
    while ((this.scored + 1) * WINDOW <= this.frames || (final && this.scored * WINDOW < this.frames)) {
      const at = this.scored * WINDOW - this.base;
      this.input.copyWithin(0, WINDOW, WINDOW + CONTEXT);
      this.input.fill(0, CONTEXT);
      const window = this.audio.subarray(at, Math.min(at + WINDOW, this.frames - this.base));
      this.input.set(window, CONTEXT);
      const out = await s.run({
        input: new ort.Tensor('float32', this.input.slice(), [1, this.input.length]),
        state: this.state,
        sr: this.sr,
      });
      this.state = out.stateN!;
      this.scored++;
      const p = (out.output!.data as Float32Array)[0]!;
      const power = powerOf(window);
      this.decided(this.gate ? this.gate.push(p, power) : [p], this.gate?.takeEngaged());
      this.meter?.add(power, p);
    }
    if (final && this.gate) this.decided(this.gate.flush(), this.gate.takeEngaged());
  }

  private decided(probs: number[], engaged: boolean[] = []): void {
    for (const [i, p] of probs.entries()) {
      if (this.windows === this.probs.length) {
        const grown = new Float32Array(this.probs.length * 2);
        grown.set(this.probs);
        this.probs = grown;
        const flags = new Uint8Array(this.engaged.length * 2);
        flags.set(this.engaged);
        this.engaged = flags;
      }
      this.engaged[this.windows] = engaged[i] ? 1 : 0;
      this.probs[this.windows++] = p;
    }
  }

  private settle(final: boolean): SpeechChunk[] {
    const offset = this.from * WINDOW_SECONDS;
    const seconds = (final ? this.frames / SAMPLE_RATE : this.windows * WINDOW_SECONDS) - offset;
    const regions = regionsFromProbabilities(this.probs.subarray(this.from, this.windows), seconds, this.opts);
    // A region that ends this long before the newest window cannot grow any more (see the hysteresis above).
    const settledBefore = this.windows * WINDOW_SECONDS - offset - (this.opts.minSilenceSeconds ?? 0.5);
    const out: SpeechChunk[] = [];
    for (const r of regions) {
      if (!final && r.end > settledBefore) break;
      const start = offset + r.start;
      const end = offset + r.end;
      const samples = this.audio.slice(
        Math.floor(start * SAMPLE_RATE) - this.base,
        Math.ceil(end * SAMPLE_RATE) - this.base,
      );
      // Whether the gate acted on the region's last window: decided window by window, so the same file
      // gives the same answer whatever the block size (not the gate's state when the block settled it).
      const last = Math.min(this.windows, Math.round(end / WINDOW_SECONDS)) - 1;
      out.push({ start, end, samples, ...(this.engaged[last] ? { aboveBabble: true } : {}) });
      this.from = Math.max(this.from, Math.round(end / WINDOW_SECONDS));
    }
    // Nothing undecided: silence (or bursts too short to count) need not be kept beyond a few seconds.
    if (!final && regions.length === out.length) {
      const keepWindows = Math.ceil((2 + (this.opts.padSeconds ?? 0.2)) / WINDOW_SECONDS);
      this.from = Math.max(this.from, this.windows - keepWindows);
    }
    this.drop(this.from * WINDOW - CONTEXT);
    return out;
  }

  // Forgets audio before `frame` (never what the VAD still needs: windows are scored as they arrive).
  private drop(frame: number): void {
    const cut = Math.min(Math.max(frame, this.base), this.windows * WINDOW);
    if (cut <= this.base) return;
    this.audio.copyWithin(0, cut - this.base, this.frames - this.base);
    this.base = cut;
  }
}
