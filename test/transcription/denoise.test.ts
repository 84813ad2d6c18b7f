// The SNR estimate a call's audio quality and noise-suppression choice rest on, and the RNNoise stage.
import { describe, expect, it } from 'vitest';
import { Denoiser, downsample3, upsample3 } from '../../src/audio/denoise.ts';
import { audioQuality, powerOf, SnrMeter } from '../../src/audio/snr.ts';

/** Seeded white noise in [−1, 1]. */
function noise(length: number, seed = 1): Float32Array {
  let s = seed;
  return Float32Array.from({ length }, () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

describe('SNR estimate', () => {
  it('reads the ratio of speech windows over pause windows', () => {
    const meter = new SnrMeter();
    const noisePower = 1e-4;
    // 3 s of pauses and 3 s of speech 15 dB above the noise (speech windows carry the noise too).
    for (let w = 0; w < 94; w++) meter.add(noisePower, 0.05);
    for (let w = 0; w < 94; w++) meter.add(noisePower * (1 + 10 ** 1.5), 0.9);
    expect(meter.estimate()).toBeCloseTo(15, 0);
    expect(audioQuality(meter.estimate()!)).toBe('fair');
  });

  it('gives no figure on too little speech, and falls back to the quietest windows without pauses', () => {
    const meter = new SnrMeter();
    for (let w = 0; w < 10; w++) meter.add(1e-2, 0.9);
    expect(meter.estimate()).toBeNull();
    // Speech from end to end (gaps between words, never a sure pause): the quietest tenth of windows
    // stands for the noise floor.
    for (let w = 0; w < 40; w++) meter.add(1e-5, 0.3);
    for (let w = 0; w < 200; w++) meter.add(1e-2, 0.9);
    expect(meter.estimate()).toBeGreaterThan(25);
  });
});

describe('RNNoise stage', () => {
  it('resamples 16 → 48 → 16 kHz without changing a tone', () => {
    const tone = Float32Array.from({ length: 1600 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const back = downsample3(upsample3(tone), tone.length);
    const inner = (x: Float32Array) => x.subarray(200, 1400);
    const diff = inner(back).map((v, i) => v - inner(tone)[i]!);
    expect(powerOf(diff) / powerOf(inner(tone))).toBeLessThan(1e-3);
  });

  it('takes most of the power out of steady noise and keeps the length', async () => {
    const denoiser = await Denoiser.create();
    try {
      const hiss = noise(16000 * 2).map((v) => v * 0.05);
      const first = denoiser.process(hiss.subarray(0, 16000));
      const second = denoiser.process(hiss.subarray(16000));
      expect(first.length).toBe(16000);
      // Once RNNoise has heard a second of it, steady hiss comes out at least 10 dB down.
      expect(powerOf(second)).toBeLessThan(powerOf(hiss.subarray(16000)) / 10);
    } finally {
      denoiser.close();
    }
  });
});
