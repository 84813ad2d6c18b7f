// Clustering of mono recordings into two voices (src/audio/diarize.ts) on synthetic feature sets:
// pieces drawn from one or two Gaussian "voices", with a seeded generator so every run is the same.
import { describe, expect, it } from 'vitest';
import { DIMS, changePoints, clusterTwo, statsOf } from '../../src/audio/diarize.ts';
import { assignAgentByPhrases } from '../../src/accounts/mono-speakers.ts';
import type { Segment } from '../../src/call-columns.ts';

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

function gaussian(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
}

/** `count` frames of a voice whose mean is `mean` in every dimension (unit variance, plus a per-dimension shape). */
function frames(rnd: () => number, count: number, mean: number): Float32Array {
  const out = new Float32Array(count * DIMS);
  for (let f = 0; f < count; f++)
    for (let d = 0; d < DIMS; d++) out[f * DIMS + d] = mean * (d % 2 ? 1 : -1) + gaussian(rnd);
  return out;
}

const OPTS = { changePenalty: 1.5, changeWindowFrames: 100, minConfidence: 0.5, minShare: 0.07 };

describe('clusterTwo', () => {
  it('gives alternating turns of two distinct voices back to their voice, the first heard being voice 0', () => {
    const rnd = prng(7);
    // Agent, customer, agent, … with turns of 0.4–3 s (40–300 frames), short answers included.
    const lengths = [300, 60, 250, 40, 280, 120, 200, 45, 260, 90];
    const truth = lengths.map((_, i) => i % 2);
    const pieces = lengths.map((n, i) => statsOf(frames(rnd, n, truth[i] ? 0.9 : -0.9)));
    const result = clusterTwo(pieces, OPTS);
    expect(result.separated).toBe(true);
    expect(result.labels).toEqual(truth);
    expect(result.confidence).toBeGreaterThan(0.8);
  });

  it('keeps one voice as one speaker, with a low confidence', () => {
    const rnd = prng(11);
    const pieces = [300, 60, 250, 40, 280, 120, 200, 45].map((n) => statsOf(frames(rnd, n, 0.3)));
    const result = clusterTwo(pieces, OPTS);
    expect(result.separated).toBe(false);
    expect(result.labels.every((l) => l === 0)).toBe(true);
    expect(result.confidence).toBeLessThan(0.5);
  });

  it('does not separate when the second voice is only a sliver of the call', () => {
    const rnd = prng(13);
    const pieces = [400, 400, 400, 400, 400, 20].map((n, i) => statsOf(frames(rnd, n, i === 5 ? 1.5 : -0.5)));
    expect(clusterTwo(pieces, OPTS).separated).toBe(false);
  });

  it('clusters a long call of many turns (more pieces than are merged bottom-up)', () => {
    const rnd = prng(17);
    const truth = Array.from({ length: 300 }, (_, i) => i % 2);
    const pieces = truth.map((v, i) => statsOf(frames(rnd, 30 + ((i * 37) % 200), v ? 0.8 : -0.8)));
    const result = clusterTwo(pieces, OPTS);
    expect(result.separated).toBe(true);
    const wrong = result.labels.filter((l, i) => l !== truth[i]).length;
    expect(wrong).toBeLessThanOrEqual(3);
  });

  it('says one speaker when there is nothing to cluster', () => {
    expect(clusterTwo([], OPTS)).toEqual({ separated: false, confidence: 0, labels: [] });
    const one = statsOf(frames(prng(1), 100, 0));
    expect(clusterTwo([one], OPTS).separated).toBe(false);
  });
});

describe('changePoints', () => {
  it('finds where one voice hands over to the other inside a region', () => {
    const rnd = prng(19);
    const a = frames(rnd, 240, -0.9);
    const b = frames(rnd, 180, 0.9);
    const joined = new Float32Array(a.length + b.length);
    joined.set(a);
    joined.set(b, a.length);
    const cuts = changePoints(joined, 1.5, 100);
    expect(cuts).toHaveLength(1);
    expect(Math.abs(cuts[0]! - 240)).toBeLessThanOrEqual(10);
  });

  it('does not cut one voice', () => {
    expect(changePoints(frames(prng(23), 600, 0.2), 1.5, 100)).toEqual([]);
  });
});

describe('assignAgentByPhrases', () => {
  const seg = (speaker: Segment['speaker'], text: string, start: number): Segment => ({
    start,
    end: start + 2,
    speaker,
    text,
    channel: 0,
  });

  it('makes the voice that says the greeting the agent', () => {
    const segments = [
      seg('agent', 'Hello, I have a problem with my bill', 0),
      seg('customer', 'Thank you for calling Acme, my name is Laura', 3),
    ];
    const { segments: out, swapped } = assignAgentByPhrases(segments, [
      { phrases: ['thank you for calling'], weight: 2 },
    ]);
    expect(swapped).toBe(true);
    expect(out.map((s) => s.speaker)).toEqual(['customer', 'agent']);
  });

  it('keeps the first speaker as agent on a tie or without phrases', () => {
    const segments = [seg('agent', 'Hello', 0), seg('customer', 'Hi', 3)];
    expect(assignAgentByPhrases(segments, []).swapped).toBe(false);
    expect(assignAgentByPhrases(segments, [{ phrases: ['goodbye'], weight: 1 }]).swapped).toBe(false);
  });
});
