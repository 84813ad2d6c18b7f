// Signal-to-noise estimate of a recording from what the voice detector already decides every 32 ms:
// the noise is what the windows without speech carry, the signal what the speech windows carry above it.
//   noise power  N = median power of the windows the VAD is sure hold no speech (p < 0.2);
//                    with fewer than 1 s of those (speech from end to end), the 10th percentile of all windows
//   speech power S = mean power of the speech windows (p ≥ 0.5), minus N (they carry the noise too)
//   SNR = 10·log10(S / N) dB, clamped to [−10, 60]
// Powers go into 0.5 dB histograms, so memory does not depend on the call's length.

const MIN_DB = -120;
const BIN_DB = 0.5;
const BINS = Math.ceil(-MIN_DB / BIN_DB) + 1;
const SPEECH_P = 0.5;
const NOISE_P = 0.2;
const MIN_SPEECH_WINDOWS = 16; // ~0.5 s
const MIN_NOISE_WINDOWS = 31; // ~1 s
const MAX_DB = 60;

export class SnrMeter {
  private readonly noise = new Uint32Array(BINS);
  private readonly all = new Uint32Array(BINS);
  private noiseCount = 0;
  private allCount = 0;
  private speechPower = 0;
  private speechCount = 0;

  /** One VAD window: its mean square (samples in [−1, 1]) and speech probability. */
  add(power: number, probability: number): void {
    const bin = binOf(power);
    this.all[bin]!++;
    this.allCount++;
    if (probability >= SPEECH_P) {
      this.speechPower += power;
      this.speechCount++;
    } else if (probability < NOISE_P) {
      this.noise[bin]!++;
      this.noiseCount++;
    }
  }

  /** dB, or null while there is too little speech to tell. */
  estimate(): number | null {
    if (this.speechCount < MIN_SPEECH_WINDOWS) return null;
    const noise =
      this.noiseCount >= MIN_NOISE_WINDOWS
        ? quantile(this.noise, this.noiseCount, 0.5)
        : quantile(this.all, this.allCount, 0.1);
    const speech = this.speechPower / this.speechCount - noise;
    if (noise <= 10 ** (MIN_DB / 10)) return MAX_DB; // digital silence between words
    if (speech <= 0) return -10;
    return Math.max(-10, Math.min(MAX_DB, Math.round(10 * Math.log10(speech / noise) * 10) / 10));
  }
}

/** Mean square of `samples` (0 for none). */
export function powerOf(samples: Float32Array): number {
  let sum = 0;
  for (const v of samples) sum += v * v;
  return samples.length ? sum / samples.length : 0;
}

function binOf(power: number): number {
  const db = power > 0 ? 10 * Math.log10(power) : MIN_DB;
  return Math.max(0, Math.min(BINS - 1, Math.round((db - MIN_DB) / BIN_DB)));
}

function quantile(hist: Uint32Array, count: number, q: number): number {
  const target = q * count;
  let seen = 0;
  for (let b = 0; b < hist.length; b++) {
    seen += hist[b]!;
    if (seen >= target && hist[b]) return 10 ** ((MIN_DB + b * BIN_DB) / 10);
  }
  return 10 ** (MIN_DB / 10);
}

/**
 * How the call page words it: good from 25 dB, fair from 15 dB, poor below. The estimate reads about 5 dB
 * above the SNR noise is mixed at over whole utterances (bench:asr: 10 → 14–16, 5 → 10–12, 0 → 5–6 dB),
 * since it measures speech where the VAD hears speech; "poor" is thus about 10 dB true SNR and below,
 * where recognition loses one word in eight or more.
 */
export function audioQuality(snrDb: number): 'good' | 'fair' | 'poor' {
  return snrDb >= 25 ? 'good' : snrDb >= 15 ? 'fair' : 'poor';
}
