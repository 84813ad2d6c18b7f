// RNNoise (Xiph's recurrent noise suppressor, compiled to WebAssembly by Jitsi) before recognition.
// RNNoise works on 48 kHz audio in 480-sample frames scaled like 16-bit PCM; the pipeline decodes to
// 16 kHz, so speech chunks are resampled ×3 up and back down here (a windowed-sinc FIR each way:
// 16 kHz audio has nothing above 8 kHz, and the down-sampler removes what RNNoise adds there).

const FRAME = 480; // 10 ms at 48 kHz
const FACTOR = 3; // 16 kHz ↔ 48 kHz
const PCM_SCALE = 32768;

interface RnnoiseModule {
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _rnnoise_create(model?: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
}

let wasm: Promise<RnnoiseModule> | undefined;

function rnnoise(): Promise<RnnoiseModule> {
  if (!wasm) {
    // The wasm binary is inlined in the module (no file to locate); instantiation takes ~50 ms once.
    // Imported on first use: the module's source (3.6 MB of strings, its wasm in base64) would otherwise
    // stay in every worker's heap although the denoiser is off by default (ASR_DENOISE).
    // The factory returns Emscripten's thenable Module, not a Promise: awaited inside a real one.
    wasm = (async () => {
      const { default: createRnnoiseModule } = await import('@jitsi/rnnoise-wasm/dist/rnnoise-sync.js');
      return (await createRnnoiseModule()) as RnnoiseModule;
    })();
    wasm.catch(() => (wasm = undefined));
  }
  return wasm;
}

/**
 * One noise suppressor per channel: chunks of a channel are fed in time order and share RNNoise's state,
 * so its noise estimate carries over from one speech chunk to the next. Call `close` when done.
 */
export class Denoiser {
  private readonly mod: RnnoiseModule;
  private state: number;
  private readonly buffer: number;
  private constructor(mod: RnnoiseModule, state: number, buffer: number) {
    this.mod = mod;
    this.state = state;
    this.buffer = buffer;
  }

  static async create(): Promise<Denoiser> {
    const mod = await rnnoise();
    return new Denoiser(mod, mod._rnnoise_create(), mod._malloc(FRAME * 4));
  }

  /** 16 kHz mono in, 16 kHz mono out, same length and timing. */
  process(samples: Float32Array): Float32Array {
    if (!this.state) throw new Error('Denoiser used after close');
    const up = upsample3(samples);
    // RNNoise's output lags its input by one frame: one extra frame in, the first frame out dropped.
    const frames = Math.ceil(up.length / FRAME) + 1;
    const out = new Float32Array(frames * FRAME);
    const heap = () => this.mod.HEAPF32.subarray(this.buffer >> 2, (this.buffer >> 2) + FRAME);
    const frame = new Float32Array(FRAME);
    for (let f = 0; f < frames; f++) {
      frame.fill(0);
      const from = f * FRAME;
      for (let i = 0; i < FRAME && from + i < up.length; i++) frame[i] = up[from + i]! * PCM_SCALE;
      heap().set(frame); // HEAPF32 may be replaced when wasm memory grows: looked up every frame
      this.mod._rnnoise_process_frame(this.state, this.buffer, this.buffer);
      out.set(heap(), from);
    }
    const aligned = out.subarray(FRAME, FRAME + up.length);
    for (let i = 0; i < aligned.length; i++) aligned[i]! /= PCM_SCALE;
    return downsample3(aligned, samples.length);
  }

  close(): void {
    if (!this.state) return;
    this.mod._rnnoise_destroy(this.state);
    this.mod._free(this.buffer);
    this.state = 0;
  }
}

// Low-pass FIR at 48 kHz with its cut-off just under 8 kHz (the 16 kHz Nyquist), Blackman-windowed sinc.
const TAPS = 97;
const KERNEL = (() => {
  const fc = 7600 / 48000;
  const mid = (TAPS - 1) / 2;
  const k = new Float32Array(TAPS);
  let sum = 0;
  for (let n = 0; n < TAPS; n++) {
    const x = n - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (TAPS - 1));
    k[n] = sinc * w;
    sum += k[n]!;
  }
  for (let n = 0; n < TAPS; n++) k[n]! /= sum;
  return k;
})();
const HALF = (TAPS - 1) / 2;

/** 16 → 48 kHz: zero-stuffing then the low-pass (×3 gain restores the level), centred so timing is kept. */
export function upsample3(x: Float32Array): Float32Array {
  const out = new Float32Array(x.length * FACTOR);
  for (let i = 0; i < out.length; i++) {
    let acc = 0;
    // Only taps that land on an original sample (every third position) contribute.
    const first = i - HALF;
    let n = ((FACTOR - (first % FACTOR)) % FACTOR) + 0;
    for (; n < TAPS; n += FACTOR) {
      const j = first + n;
      if (j < 0) continue;
      const s = j / FACTOR;
      if (s >= x.length) break;
      acc += KERNEL[TAPS - 1 - n]! * x[s]!;
    }
    out[i] = acc * FACTOR;
  }
  return out;
}

/** 48 → 16 kHz: the low-pass evaluated at every third sample. */
export function downsample3(y: Float32Array, length: number): Float32Array {
  const out = new Float32Array(length);
  for (let o = 0; o < length; o++) {
    const c = o * FACTOR;
    let acc = 0;
    for (let n = 0; n < TAPS; n++) {
      const j = c - HALF + n;
      if (j >= 0 && j < y.length) acc += KERNEL[n]! * y[j]!;
    }
    out[o] = acc;
  }
  return out;
}
