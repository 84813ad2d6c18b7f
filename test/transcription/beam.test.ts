// Beam search and vocabulary biasing on a scripted "model": each step's logits come from a table
// keyed by the hypothesis so far, so the expected choice is known exactly.
import { describe, expect, it } from 'vitest';
import { beamSearch, biasTrie, forcedBias, repeatsTail, type DecoderStep } from '../../src/transcription/beam.ts';

const START = 1;
const EOS = 2;
const V = 12;

/** A step that looks up each hypothesis' next-token log-probabilities by its tokens so far. */
function scripted(table: Record<string, Record<number, number>>, fallback: Record<number, number> = { [EOS]: 0 }) {
  const histories: number[][] = [[]];
  const step: DecoderStep = async (tokens, parents) => {
    const prev = histories.splice(0);
    const now = parents ? tokens.map((t, i) => [...prev[parents[i]!]!, t]) : [[]];
    histories.push(...now);
    return now.map((h) => {
      const row = new Float32Array(V).fill(-30);
      for (const [t, lp] of Object.entries(table[h.join(',')] ?? fallback)) row[Number(t)] = lp;
      return row;
    });
  };
  return step;
}
const decode = (step: DecoderStep, width = 1, bias: ReturnType<typeof biasTrie> | null = null) =>
  beamSearch(step, { width, maxTokens: 10, start: START, eos: EOS, bias }).then((d) => d.tokens);

describe('beamSearch', () => {
  it('with width 1 and no vocabulary is greedy decoding', async () => {
    const step = scripted({ '': { 3: -0.1, 4: -2 }, '3': { 5: -0.2, 6: -1 }, '3,5': { [EOS]: -0.01 } });
    expect(await decode(step)).toEqual([3, 5]);
  });

  it('a wider beam finds the sequence greedy misses (a good second token after a worse first)', async () => {
    const table = {
      '': { 3: Math.log(0.55), 4: Math.log(0.45) },
      '3': { 5: Math.log(0.3), 6: Math.log(0.3), 7: Math.log(0.4) },
      '3,7': { [EOS]: 0 },
      '4': { 8: Math.log(0.99) },
      '4,8': { [EOS]: 0 },
    };
    expect(await decode(scripted(table), 1)).toEqual([3, 7]);
    expect(await decode(scripted(table), 3)).toEqual([4, 8]);
  });

  it('a listed word wins when the model is torn, and never when the model is sure of another', async () => {
    const torn = { '': { 3: -0.5, 9: -1.2 }, '3': { [EOS]: 0 }, '9': { 10: -0.1 }, '9,10': { [EOS]: 0 } };
    const vocab = biasTrie([[[9, 10]]], 3);
    expect(await decode(scripted(torn))).toEqual([3]);
    expect(await decode(scripted(torn), 1, vocab)).toEqual([9, 10]);
    const sure = { '': { 3: -0.01, 9: -12 }, '3': { [EOS]: 0 }, '9': { 10: -0.1 }, '9,10': { [EOS]: 0 } };
    expect(await decode(scripted(sure), 1, vocab)).toEqual([3]);
  });

  it('gives a partial match its boost back when the word breaks off', async () => {
    // 9 starts the listed [9, 10]; after 9 the model only continues with 11. Without the
    // give-back the hypothesis 9,11 would keep its boost and beat 3,4.
    const table = {
      '': { 3: -1, 9: -1.2 },
      '3': { 4: -0.1 },
      '3,4': { [EOS]: 0 },
      '9': { 11: -0.1 },
      '9,11': { [EOS]: 0 },
    };
    expect(await decode(scripted(table), 2, biasTrie([[[9, 10]]], 3))).toEqual([3, 4]);
  });

  it('boosts a listed word once per chunk, so biasing cannot loop it', async () => {
    // After each 9 the model prefers 5 but would take another 9 if it were boosted every time.
    const table = {
      '': { 9: -0.5, 3: -0.7 },
      '9': { 5: -0.5, 9: -1.5 },
      '9,5': { [EOS]: 0 },
      '9,9': { 5: -0.5, 9: -1.5 },
    };
    expect(await decode(scripted(table), 1, biasTrie([[[9]]], 3))).toEqual([9, 5]);
  });
});

describe('forcedBias', () => {
  // A text read teacher-forced earns what the beam would have given it: the listed name [9, 10] earns
  // its boost (3 nats a token, a third on its first) where the model found it plausible, nothing where it did not, and a name begun but
  // not finished gives its boost back.
  const vocab = biasTrie([[[9, 10]]], 3);
  const sure = (n: number) => Array.from({ length: n }, () => false);

  it('gives a name the audio makes plausible the boost the decoder gave it', () => {
    // Tokens 3, 9, 10: the name's first token 1 nat under the likeliest one (it earns a third of the
    // boost, the default weight of a first token), its second the likeliest (the whole boost).
    expect(forcedBias(vocab, [3, 9, 10], [-0.1, -2, -0.2], [-0.1, -1, -0.2], sure(3))).toBe(4);
  });

  it('gives nothing to a name the model finds far less likely than what it heard', () => {
    expect(forcedBias(vocab, [3, 9, 10], [-0.1, -9, -0.2], [-0.1, -0.5, -0.2], sure(3))).toBe(0);
    // Nor where the model would rather have ended (no boosted run-on after the speech).
    expect(forcedBias(vocab, [3, 9, 10], [-0.1, -1, -0.2], [-0.1, -0.5, -0.2], [false, true, false])).toBe(0);
  });

  it('gives a name begun but not finished its boost back', () => {
    expect(forcedBias(vocab, [3, 9, 4], [-0.1, -0.5, -0.2], [-0.1, -0.5, -0.2], sure(3))).toBe(0);
    expect(forcedBias(vocab, [3, 9], [-0.1, -0.5], [-0.1, -0.5], sure(2))).toBe(0);
  });
});

describe('repeatsTail', () => {
  it('allows a word said a few times and a phrase said twice, and stops the phrase a third time', () => {
    expect(repeatsTail([5, 5, 5], 5)).toBe(false);
    const phrase = [3, 4, 5, 6];
    expect(repeatsTail([...phrase, 3, 4, 5], 6)).toBe(false);
    expect(repeatsTail([...phrase, ...phrase, 3, 4, 5], 6)).toBe(true);
  });
});
