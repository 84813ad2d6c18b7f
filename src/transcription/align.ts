// Word timings from the decoder's cross-attention. The transcript of a chunk is fed back to the
// decoder in one teacher-forced pass; at each token, the decoder's attention over the encoder's
// frames shows where in the audio it read that token. Some heads follow the speech closely
// (their strongest frame moves forward token by token), others look everywhere; the ones that
// follow it are chosen per chunk, their weights averaged, and a monotonic path through tokens ×
// frames (dynamic time warping, as Whisper's word timestamps do) gives each token the frame where
// it begins. Words are then the tokens between one '▁' piece and the next.
import llamaTokenizer from 'llama-tokenizer-js';
import * as ort from 'onnxruntime-node';

/** One word of a chunk's text and where it is heard, in seconds from the chunk's first sample. */
export interface WordTiming {
  word: string;
  /** Character offsets of the word in the text: [from, to). */
  from: number;
  to: number;
  /** Where the decoder read its first token, and where it read the next word's (or the end of speech). */
  start: number;
  end: number;
}

/** The whitespace-separated words of `text`, with their character offsets. */
export function textWords(text: string): { word: string; from: number; to: number }[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({ word: m[0], from: m.index, to: m.index + m[0].length }));
}

/** A head follows the speech when this share of its token-to-token steps does not go back. */
const MONOTONIC = 0.9;
/** …and its strongest frames spread over at least this share of the chunk (not stuck on one frame). */
const SPREAD = 0.3;
/** Frames a head's strongest frame may step back and still count as going forward. */
const SLACK = 1;

/**
 * The frame where each row begins on the best monotonic path through `weights` (one [heads, rows,
 * frames] array per layer, as the decoder returns them). Row i is the attention of the decoder while
 * it predicts token i + 1 of its input, so rows are output tokens: the transcript's, then end-of-text.
 */
export function rowOnsets(weights: readonly Float32Array[], heads: number, rows: number, frames: number): number[] {
  const chosen = chooseHeads(weights, heads, rows, frames);
  // Per head, each frame's weights standardised across rows (Whisper's normalisation): a frame
  // that every token looks at (silence, the first frame) says nothing about which token it holds.
  const score = new Float64Array(rows * frames);
  for (const [layer, head] of chosen) {
    const w = weights[layer]!;
    const base = head * rows * frames;
    for (let f = 0; f < frames; f++) {
      let mean = 0;
      for (let r = 0; r < rows; r++) mean += w[base + r * frames + f]!;
      mean /= rows;
      let variance = 0;
      for (let r = 0; r < rows; r++) variance += (w[base + r * frames + f]! - mean) ** 2;
      const sd = Math.sqrt(variance / rows) || 1;
      for (let r = 0; r < rows; r++) score[r * frames + f]! += (w[base + r * frames + f]! - mean) / sd;
    }
  }
  return dtwOnsets(score, rows, frames);
}

/** The heads that follow the speech in this chunk; if none clearly does, the most monotonic few. */
function chooseHeads(
  weights: readonly Float32Array[],
  heads: number,
  rows: number,
  frames: number,
): [number, number][] {
  const rated: { at: [number, number]; monotonic: number; spread: number }[] = [];
  // The end-of-text row looks wherever it likes; it is left out of the rating.
  const rated_rows = Math.max(1, rows - 1);
  for (const [layer, w] of weights.entries()) {
    for (let h = 0; h < heads; h++) {
      const peaks: number[] = [];
      for (let r = 0; r < rated_rows; r++) {
        const row = w.subarray((h * rows + r) * frames, (h * rows + r + 1) * frames);
        let best = 0;
        for (let f = 1; f < frames; f++) if (row[f]! > row[best]!) best = f;
        peaks.push(best);
      }
      let forward = 0;
      for (let i = 1; i < peaks.length; i++) if (peaks[i]! >= peaks[i - 1]! - SLACK) forward++;
      rated.push({
        at: [layer, h],
        monotonic: peaks.length > 1 ? forward / (peaks.length - 1) : 0,
        spread: (Math.max(...peaks) - Math.min(...peaks)) / frames,
      });
    }
  }
  const good = rated.filter((r) => r.monotonic >= MONOTONIC && r.spread >= SPREAD);
  if (good.length >= 2) return good.map((r) => r.at);
  return rated
    .sort((a, b) => b.monotonic + b.spread - (a.monotonic + a.spread) || a.at[0] - b.at[0] || a.at[1] - b.at[1])
    .slice(0, 4)
    .map((r) => r.at);
}

/**
 * The path from (row 0, frame 0) to (last row, last frame) that maximises the summed score, moving a
 * frame, a row, or both at each step; returns the first frame of each row on it.
 */
export function dtwOnsets(score: ArrayLike<number>, rows: number, frames: number): number[] {
  const cost = new Float64Array((rows + 1) * (frames + 1)).fill(Number.POSITIVE_INFINITY);
  const from = new Uint8Array((rows + 1) * (frames + 1)); // 0 diagonal, 1 from the row above, 2 from the left
  const at = (r: number, f: number) => r * (frames + 1) + f;
  cost[0] = 0;
  for (let r = 1; r <= rows; r++) {
    for (let f = 1; f <= frames; f++) {
      const d = cost[at(r - 1, f - 1)]!;
      const up = cost[at(r - 1, f)]!;
      const left = cost[at(r, f - 1)]!;
      let best = d;
      let move = 0;
      if (up < best) {
        best = up;
        move = 1;
      }
      if (left < best) {
        best = left;
        move = 2;
      }
      cost[at(r, f)] = best - score[(r - 1) * frames + (f - 1)]!;
      from[at(r, f)] = move;
    }
  }
  const onset = new Array<number>(rows).fill(0);
  let r = rows;
  let f = frames;
  while (r > 0 && f > 0) {
    onset[r - 1] = f - 1;
    const move = from[at(r, f)];
    if (move === 0) {
      r--;
      f--;
    } else if (move === 1) r--;
    else f--;
  }
  return onset;
}

/** As the recognition sessions are made (src/transcription/moonshine.ts: loadModel), for the attention decoder. */
export function alignerSessionOptions(threads: number): ort.InferenceSession.SessionOptions {
  return {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    extra: { session: { disable_quant_qdq: '1' } },
    enableCpuMemArena: false,
  };
}

/** A model's attention decoder (src/transcription/onnx-rewrite.ts: attentionDecoder). */
export interface Aligner {
  decoder: ort.InferenceSession;
  /** The decoder's outputs holding each layer's cross-attention weights. */
  attention: string[];
  startToken: number;
}

/**
 * Where each word of `text` is heard in a chunk of `length` samples (16 kHz mono, the chunk the text
 * was recognised from; `hidden`, the encoder's states of it). Empty when the text has no words.
 */
export async function alignWords(
  aligner: Aligner,
  length: number,
  hidden: ort.Tensor,
  text: string,
): Promise<WordTiming[]> {
  const words = textWords(text);
  if (!words.length || !length) return [];
  // Word by word, so each word knows its tokens (SentencePiece splits at spaces anyway).
  const pieces = words.map((w) => llamaTokenizer.encode(w.word, false, true) as number[]);
  const tokens = [aligner.startToken, ...pieces.flat()];
  const out = await aligner.decoder.run(
    {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]),
      encoder_hidden_states: hidden,
    },
    aligner.attention,
  );
  const first = out[aligner.attention[0]!]!;
  const [, heads, rows, frames] = first.dims as number[];
  const onsets = rowOnsets(
    aligner.attention.map((name) => out[name]!.data as Float32Array),
    heads!,
    rows!,
    frames!,
  );
  const secondsPerFrame = length / 16000 / frames!;
  // Row k is output token k + 1 of the input: the words' tokens in order, then end-of-text.
  const timings: WordTiming[] = [];
  let row = 0;
  for (const [i, w] of words.entries()) {
    const next = row + pieces[i]!.length;
    timings.push({
      ...w,
      start: onsets[row]! * secondsPerFrame,
      end: onsets[Math.min(next, rows! - 1)]! * secondsPerFrame,
    });
    row = next;
  }
  return timings;
}
