import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import llamaTokenizer from 'llama-tokenizer-js';
import {
  DEFAULT_BEAM,
  DEFAULT_BIAS_BOOST,
  beamSearch,
  logSumExp,
  biasTrie,
  type BiasTrie,
  type Decoded,
  type DecoderStep,
  type TokenWeight,
} from './beam.ts';
import type { ChunkOptions, ChunkTranscript, TranscriptionEngine } from './engine.ts';
import { UnsupportedLanguageError } from './engine.ts';
import { OperatorFault } from '../audio/failure.ts';
import { attentionDecoder, splitDecoder } from './onnx-rewrite.ts';
import { type Aligner, alignerSessionOptions, alignWords, type WordTiming } from './align.ts';
import { heardWords } from './unheard.ts';

const START_TOKEN = 1;
const EOS_TOKEN = 2;
// Conversational speech is about 3–5 Llama tokens per second; a cap of 7/s ends hallucination loops
// (a known failure of small seq2seq models) early without clipping fast talkers. The minimum covers very short chunks.
const TOKENS_PER_SECOND = 7;
const MIN_TOKENS = 8;
const SAMPLE_RATE = 16000;

export interface MoonshineOptions {
  /** Folder holding `moonshine-base-<lang>/` model folders. */
  modelsDir: string;
  /** Threads per ONNX session (default: the cores shared out among `concurrency` jobs). */
  intraOpThreads?: number;
  /**
   * Languages this engine serves; their models are looked for on each use, so a model installed
   * while the service runs is picked up. Default: the model folders present at construction.
   */
  languages?: readonly string[];
  /** Jobs that run chunks at the same time (the worker's concurrency); sets the default thread count. */
  concurrency?: number;
  /** Beam width (1 = greedy; default DEFAULT_BEAM). */
  beam?: number;
  /** Boost per token of a vocabulary word, in nats (see BiasTrie). */
  biasBoost?: number;
  /** Run the ONNX files exactly as shipped, without the load-time speed-ups (bench:asr's baseline). */
  asShipped?: boolean;
}

/**
 * Llama pieces tell words apart: "▁" starts a word. An unusual name is spelled by several pieces
 * ("▁Z|ent|rix"): its first piece earns the full boost and the pieces inside it twice that, so the
 * name can win where the model hears something close. An entry whose first word is one common
 * piece ("▁me" of "me puede dar") starts with a third, so biasing does not push it into speech.
 */
const pieceWeight: TokenWeight = (spelling, index) => {
  const inWord = (i: number) => i < spelling.length && !llamaTokenizer.vocabById[spelling[i]!]?.startsWith('▁');
  if (index === 0) return inWord(1) ? 1 : 1 / 3;
  return inWord(index) ? 2 : 1;
};

/**
 * Token sequences for a vocabulary: each entry as written, in lower case and capitalised (the model
 * writes "Acme" at a sentence start and "acme" rarely), each preceded by a word boundary.
 */
export function vocabularyTokens(vocabulary: readonly string[]): number[][][] {
  return vocabulary.map((entry) => {
    const text = entry.trim().replace(/\s+/g, ' ');
    const lower = text.toLowerCase();
    const spellings = text ? new Set([text, lower, lower.charAt(0).toUpperCase() + lower.slice(1)]) : [];
    return [...spellings].map((v) => llamaTokenizer.encode(v, false, true) as number[]);
  });
}

interface Model {
  encoder: ort.InferenceSession;
  /** The decoder: as shipped (one graph, its If choosing the branch), or split into its two steps (splitDecoder). */
  decoder: MergedDecoder | SplitDecoderSessions;
  /** The self-attention cache's inputs per layer, e.g. `past_key_values.0.decoder.key`. */
  selfNames: string[];
  heads: number;
  headDim: number;
}

interface MergedDecoder {
  kind: 'merged';
  session: ort.InferenceSession;
  /** Every `past_key_values.*` input. */
  pastNames: string[];
}

interface SplitDecoderSessions {
  kind: 'split';
  first: ort.InferenceSession;
  later: ort.InferenceSession;
  /** Each layer's scaled, transposed cross-attention keys: the later model's input and the first's output. */
  crossKeys: { input: string; output: string }[];
  /** `past_key_values.N.encoder.value`, fed to later steps as the first step returned them. */
  crossValues: string[];
}

/** Languages with a `moonshine-base-<lang>` folder holding both ONNX files. */
export function moonshineLanguages(modelsDir: string): string[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir)
    .map((name) => /^moonshine-base-([a-z]{2})$/.exec(name)?.[1])
    .filter(
      (lang): lang is string =>
        !!lang &&
        ['encoder_model.onnx', 'decoder_model_merged.onnx'].every((f) =>
          existsSync(path.join(modelsDir, `moonshine-base-${lang}`, f)),
        ),
    )
    .sort();
}

/** Local Moonshine base models (int8 ONNX), one per language, loaded on first use and kept. */
export class MoonshineEngine implements TranscriptionEngine {
  readonly name = 'moonshine';
  readonly languages: readonly string[];
  readonly detectsLanguage = false;
  private readonly opts: MoonshineOptions;
  private readonly models = new Map<string, Promise<Model>>();
  /** Scratch buffers of decodes that finished, for the next ones (as many as ever ran at once). */
  private readonly scratch: Scratch[] = [];

  constructor(opts: MoonshineOptions) {
    this.opts = opts;
    this.languages = opts.languages ?? moonshineLanguages(opts.modelsDir);
  }

  async transcribeChunk(
    samples: Float32Array,
    language: string | null,
    chunk?: ChunkOptions,
  ): Promise<ChunkTranscript> {
    if (!language || !this.languages.includes(language))
      throw new UnsupportedLanguageError(language ?? 'auto', this.languages);
    const model = await this.model(language);
    const { last_hidden_state: hidden } = await model.encoder.run({
      input_values: new ort.Tensor('float32', samples, [1, samples.length]),
    });
    const maxTokens = Math.max(MIN_TOKENS, Math.ceil((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
    const width = this.opts.beam ?? DEFAULT_BEAM;
    // Jobs running side by side interleave their decoder steps: each decode has its own scratch.
    const scratch = this.scratch.pop() ?? new Scratch();
    let decoded: Awaited<ReturnType<typeof beamSearch>>;
    try {
      decoded = await beamSearch(decoderStep(model, hidden!, scratch), {
        width,
        maxTokens,
        start: START_TOKEN,
        eos: EOS_TOKEN,
        vocabSize: llamaTokenizer.vocabById.length,
        bias: chunk?.vocabulary ? this.trie(chunk.vocabulary) : null,
      });
    } finally {
      this.scratch.push(scratch);
    }
    const logProbSum = decoded.logProbs.reduce((a, b) => a + b, 0);
    const avgLogProb = decoded.tokens.length ? logProbSum / decoded.tokens.length : -Infinity;
    // Words the decoder wrote with no speech under them are cut (src/transcription/unheard.ts).
    const { tokens, logProbs } = keepHeard(decoded, samples.length / SAMPLE_RATE, avgLogProb);
    // Moonshine's vocabulary is Llama's 32000 pieces plus unused padding ids; those never carry text.
    const known = tokens.filter((t) => t > EOS_TOKEN && t < llamaTokenizer.vocabById.length);
    const text = known.length ? llamaTokenizer.decode(known, false, true).trim() : '';
    return {
      text,
      // The whole decode's figure (language detection compares models by it), cut words included.
      avgLogProb,
      ...(text ? wordConfidence(text, tokens, logProbs) : {}),
    };
  }

  private readonly aligners = new Map<string, Promise<Aligner>>();

  /**
   * Where each word of `text` (what this engine heard in `samples`) is said: src/transcription/align.ts.
   * The attention decoder is loaded on first use, so only accounts that redact audio pay for it.
   */
  async alignChunk(samples: Float32Array, language: string, text: string): Promise<WordTiming[]> {
    if (!this.languages.includes(language)) throw new UnsupportedLanguageError(language, this.languages);
    const { encoder } = await this.model(language);
    let aligner = this.aligners.get(language);
    if (!aligner) {
      const file = path.join(this.opts.modelsDir, `moonshine-base-${language}`, 'decoder_model_merged.onnx');
      aligner = readFile(file).then(async (bytes) => {
        const rewritten = attentionDecoder(bytes);
        if (!rewritten) throw new Error(`The decoder in ${file} has no cross-attention to align words with`);
        const decoder = await ort.InferenceSession.create(rewritten.model, alignerSessionOptions(this.threads()));
        return { encoder, decoder, attention: rewritten.attention, startToken: START_TOKEN };
      });
      aligner.catch(() => this.aligners.delete(language));
      this.aligners.set(language, aligner);
    }
    return alignWords(await aligner, samples, text);
  }

  /**
   * How likely each text is as the whole transcript of `samples` (the teacher-forced decoder
   * log-likelihood of its tokens and the end token, in nats), for checking whether an expected phrase
   * was said where the free decoding heard something else (src/analysis/acoustic.ts). The audio is
   * encoded once; the texts go through the decoder's first step together, a few at a time, so one
   * window costs an encoder run and a handful of batched decoder runs, not a decode per text.
   */
  async scorePhrases(samples: Float32Array, language: string, texts: readonly string[]): Promise<number[]> {
    if (!this.languages.includes(language)) throw new UnsupportedLanguageError(language, this.languages);
    if (!texts.length) return [];
    const model = await this.model(language);
    const { last_hidden_state: hidden } = await model.encoder.run({
      input_values: new ort.Tensor('float32', samples, [1, samples.length]),
    });
    const sequences = texts.map((t) => {
      const text = t.trim();
      return text ? (llamaTokenizer.encode(text, false, true) as number[]) : [];
    });
    const scores: number[] = [];
    for (let from = 0; from < sequences.length; from += SCORE_BATCH)
      scores.push(...(await teacherForced(model, hidden!, sequences.slice(from, from + SCORE_BATCH))));
    return scores;
  }

  private readonly tries = new WeakMap<readonly string[], BiasTrie>();

  /** The vocabulary's token trie, built once per list (a call passes the same list for every chunk). */
  private trie(vocabulary: readonly string[]): BiasTrie | null {
    const boost = this.opts.biasBoost ?? DEFAULT_BIAS_BOOST;
    if (!vocabulary.length || boost <= 0) return null;
    let trie = this.tries.get(vocabulary);
    if (!trie) {
      trie = biasTrie(vocabularyTokens(vocabulary), boost, pieceWeight);
      this.tries.set(vocabulary, trie);
    }
    return trie;
  }

  // Measured with bench:asr on 2 cores: jobs running side by side each with all cores' worth of threads
  // fight over them (ONNX Runtime spins its workers), so each job gets its share, at least one.
  private threads(): number {
    if (this.opts.intraOpThreads) return this.opts.intraOpThreads;
    return Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, this.opts.concurrency ?? 1)));
  }

  private model(language: string): Promise<Model> {
    let model = this.models.get(language);
    if (!model) {
      // A missing or unloadable model is the operator's to fix: the call waits, it is not failed.
      if (!moonshineLanguages(this.opts.modelsDir).includes(language))
        return Promise.reject(
          new OperatorFault(
            `engine:${language}`,
            `The Moonshine model for '${language}' is not in ${this.opts.modelsDir}/moonshine-base-${language} (run \`npm run models:fetch\`, set MODELS_DIR, or leave '${language}' out of MOONSHINE_LANGUAGES)`,
          ),
        );
      const dir = path.join(this.opts.modelsDir, `moonshine-base-${language}`);
      model = loadModel(dir, this.threads(), !this.opts.asShipped).catch((err: unknown) => {
        throw new OperatorFault(`engine:${language}`, `The Moonshine model in ${dir} cannot be loaded: ${err}`, {
          cause: err,
        });
      });
      model.catch(() => this.models.delete(language));
      this.models.set(language, model);
    }
    return model;
  }
}

async function loadModel(dir: string, threads: number, optimise: boolean): Promise<Model> {
  // The graphs are sequential: inter-op threads would only add hand-offs.
  const options: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    // The int8 weights come as DequantizeLinear nodes on constants, which ONNX Runtime leaves unfolded
    // (for QDQ fusions these graphs have no use for): every decoder step dequantized the 32768 × 416
    // output embedding again. Folding constants through them once at load gives the same floats.
    ...(optimise ? { extra: { session: { disable_quant_qdq: '1' } } } : {}),
    // ONNX Runtime's arena grows by doubling and never gives memory back, per session: with a thread
    // per core, each with three sessions, a call's longest chunks ratcheted the worker's peak up with
    // the call's length (bench:asr, 20 min vs 5 min: +57 to +156 MiB). Without it, freed buffers go
    // back to the allocator: the same speed there, and no growth (+15, −107 MiB).
    ...(optimise ? { enableCpuMemArena: false } : {}),
  };
  const decoderFile = path.join(dir, 'decoder_model_merged.onnx');
  const [encoder, decoder] = await Promise.all([
    ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options),
    loadDecoder(decoderFile, options, optimise),
  ]);
  const inputs = decoder.kind === 'merged' ? decoder.session.inputMetadata : decoder.later.inputMetadata;
  const selfNames = inputs.map((m) => m.name).filter((n) => /^past_key_values\.\d+\.decoder\./.test(n));
  // Shape [batch, heads, seq, headDim]; read from the model so en and es (or other sizes) need no constants.
  const meta = inputs.find((m) => m.name === selfNames[0]);
  const shape = meta?.isTensor ? meta.shape : [];
  const [heads, headDim] = [shape[1], shape[3]];
  if (typeof heads !== 'number' || typeof headDim !== 'number')
    throw new Error(`Unexpected decoder cache shape in ${dir}`);
  return { encoder, decoder, selfNames, heads, headDim };
}

async function loadDecoder(
  file: string,
  options: ort.InferenceSession.SessionOptions,
  optimise: boolean,
): Promise<MergedDecoder | SplitDecoderSessions> {
  const merged = async (): Promise<MergedDecoder> => {
    const session = await ort.InferenceSession.create(file, options);
    return { kind: 'merged', session, pastNames: session.inputNames.filter((n) => n.startsWith('past_key_values.')) };
  };
  if (!optimise) return merged();
  const split = splitDecoder(await readFile(file));
  if (!split) return merged();
  const [first, later] = await Promise.all([
    ort.InferenceSession.create(split.first, options),
    ort.InferenceSession.create(split.later, options),
  ]);
  const crossValues = later.inputNames.filter((n) => /^past_key_values\.\d+\.encoder\.value$/.test(n));
  return { kind: 'split', first, later, crossKeys: split.crossKeys, crossValues };
}

/** Texts scored in one decoder run: the logits of a batch are batch × tokens × 32768 floats. */
const SCORE_BATCH = 8;

/**
 * Teacher forcing: each sequence (after the start token) is fed whole to the decoder's first step, whose
 * logits at every position give the probability of the next token; the sum over the sequence and its
 * end token is the sequence's log-likelihood. Shorter sequences are padded at the end with the end token:
 * the decoder is causal, so padding never changes the positions before it.
 */
async function teacherForced(model: Model, hidden: ort.Tensor, sequences: readonly number[][]): Promise<number[]> {
  const n = sequences.length;
  const length = 1 + Math.max(...sequences.map((s) => s.length));
  const ids = new BigInt64Array(n * length).fill(BigInt(EOS_TOKEN));
  sequences.forEach((s, i) => {
    ids[i * length] = BigInt(START_TOKEN);
    s.forEach((t, k) => {
      ids[i * length + 1 + k] = BigInt(t);
    });
  });
  const inputIds = new ort.Tensor('int64', ids, [n, length]);
  // The encoder output once per sequence: the first step computes its cross-attention from it per row.
  const [, frames, width] = hidden.dims as [number, number, number];
  const tiled = new Float32Array(n * frames * width);
  for (let i = 0; i < n; i++) tiled.set(hidden.data as Float32Array, i * frames * width);
  const states = new ort.Tensor('float32', tiled, [n, frames, width]);
  const d = model.decoder;
  const out =
    d.kind === 'split'
      ? await d.first.run({ input_ids: inputIds, encoder_hidden_states: states }, ['logits'])
      : await d.session.run(
          {
            input_ids: inputIds,
            encoder_hidden_states: states,
            use_cache_branch: new ort.Tensor('bool', [false], [1]),
            ...Object.fromEntries(
              d.pastNames.map((k) => [
                k,
                new ort.Tensor('float32', new Float32Array(0), [n, model.heads, 0, model.headDim]),
              ]),
            ),
          },
          ['logits'],
        );
  const logits = out.logits!.data as Float32Array;
  const vocab = out.logits!.dims.at(-1)!;
  return sequences.map((s, i) => {
    let total = 0;
    // Position k predicts token k of the sequence; the one after the last predicts the end token.
    for (let k = 0; k <= s.length; k++) {
      const row = logits.subarray((i * length + k) * vocab, (i * length + k + 1) * vocab);
      total += row[k < s.length ? s[k]! : EOS_TOKEN]! - logSumExp(row);
    }
    return total;
  });
}

/**
 * Buffers one decode reuses from chunk to chunk: the reordered self-attention cache. Allocating it afresh
 * made a long call's memory swing with the garbage collector; reused, a job's peak is set by its longest
 * chunk, not by how many chunks the call has. One per decode running at the same time.
 */
class Scratch {
  private readonly buffers = new Map<string, Float32Array>();

  /** A buffer of `length` floats for `name`, grown (by half again, to grow rarely) and then kept. */
  get(name: string, length: number): Float32Array {
    let b = this.buffers.get(name);
    if (!b || b.length < length) {
      b = new Float32Array(Math.max(length, Math.ceil((b?.length ?? 0) * 1.5)));
      this.buffers.set(name, b);
    }
    return b.subarray(0, length);
  }
}

/**
 * The decoder as a batched step for beam search: the first step (batch of one, no cache) yields the
 * chunk's cross-attention keys and values, the same for every hypothesis; they are fed as they are, one
 * row, which the graph's MatMuls broadcast over the batch. Later steps feed one token per hypothesis and
 * the self-attention cache, reordered to follow each hypothesis' parent.
 */
function decoderStep(model: Model, hidden: ort.Tensor, scratch: Scratch): DecoderStep {
  const d = model.decoder;
  const present = (past: string) => past.replace('past_key_values', 'present');
  let self: Record<string, ort.Tensor> = {};
  // The cross-attention inputs of later steps, from the first step's outputs.
  let cross: Record<string, ort.Tensor> = {};
  const laterFetches = ['logits', ...model.selfNames.map(present)];

  const first = async (inputIds: ort.Tensor) => {
    if (d.kind === 'split') {
      const out = await d.first.run({ input_ids: inputIds, encoder_hidden_states: hidden }, [
        ...laterFetches,
        ...d.crossValues.map(present),
        ...d.crossKeys.map((k) => k.output),
      ]);
      cross = Object.fromEntries([
        ...d.crossValues.map((v) => [v, out[present(v)]!]),
        ...d.crossKeys.map((k) => [k.input, out[k.output]!]),
      ]);
      return out;
    }
    const empty = new ort.Tensor('float32', new Float32Array(0), [1, model.heads, 0, model.headDim]);
    const out = await d.session.run({
      input_ids: inputIds,
      encoder_hidden_states: hidden,
      use_cache_branch: new ort.Tensor('bool', [false], [1]),
      ...Object.fromEntries(d.pastNames.map((k) => [k, empty])),
    });
    cross = Object.fromEntries(d.pastNames.filter((k) => k.includes('.encoder.')).map((k) => [k, out[present(k)]!]));
    return out;
  };

  const later = (inputIds: ort.Tensor, past: Record<string, ort.Tensor>) =>
    d.kind === 'split'
      ? d.later.run({ input_ids: inputIds, ...cross, ...past }, laterFetches)
      : // The cache branch reads the encoder only through the cross-attention cache; its hidden-states input just has to be there.
        d.session.run(
          {
            input_ids: inputIds,
            encoder_hidden_states: new ort.Tensor('float32', scratch.get('hidden', hidden.dims[2]!).fill(0), [
              1,
              1,
              hidden.dims[2]!,
            ]),
            use_cache_branch: new ort.Tensor('bool', [true], [1]),
            ...cross,
            ...past,
          },
          laterFetches,
        );

  return async (tokens, parents) => {
    const n = tokens.length;
    const inputIds = new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [n, 1]);
    const out = parents
      ? await later(
          inputIds,
          Object.fromEntries(model.selfNames.map((k) => [k, gather(self[k]!, parents, scratch, k)])),
        )
      : await first(inputIds);
    self = Object.fromEntries(model.selfNames.map((k) => [k, out[present(k)]!]));
    const logits = out.logits!;
    const vocab = logits.dims.at(-1)!;
    const perRow = logits.data.length / n;
    const data = logits.data as Float32Array;
    // The last position of each row (one position per row after the first step).
    return Array.from({ length: n }, (_, i) => data.subarray((i + 1) * perRow - vocab, (i + 1) * perRow));
  };
}

/**
 * Rows of `t` (batch first) in the order `rows` names, in `scratch`'s buffer for `name` (the tensor
 * is fed to the next run at once and not kept).
 */
function gather(t: ort.Tensor, rows: readonly number[], scratch: Scratch, name: string): ort.Tensor {
  const src = t.data as Float32Array;
  const size = src.length / t.dims[0]!;
  if (rows.length === t.dims[0] && rows.every((r, i) => r === i)) return t;
  const data = scratch.get(name, size * rows.length);
  for (const [i, r] of rows.entries()) data.set(src.subarray(r * size, (r + 1) * size), i * size);
  return new ort.Tensor('float32', data, [rows.length, ...t.dims.slice(1)]);
}

/** The decoded tokens without the words `heardWords` finds no speech under. */
function keepHeard(decoded: Decoded, seconds: number, avgLogProb: number): Decoded {
  // Words as '▁'-led runs of pieces (as wordConfidence counts them), compared without case or punctuation.
  const starts: number[] = [];
  const words: string[] = [];
  for (const [i, t] of decoded.tokens.entries()) {
    const piece = llamaTokenizer.vocabById[t] ?? '';
    if (t <= EOS_TOKEN || t >= llamaTokenizer.vocabById.length) continue;
    if (!words.length || (piece.startsWith('▁') && piece.length > 1)) {
      starts.push(i);
      words.push('');
    }
    words[words.length - 1] += piece.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  }
  const kept = heardWords({ words, seconds, noSpeech: decoded.noSpeech ?? 0, avgLogProb });
  if (kept === words.length) return decoded;
  const end = kept === 0 ? 0 : (starts[kept] ?? decoded.tokens.length);
  return { tokens: decoded.tokens.slice(0, end), logProbs: decoded.logProbs.slice(0, end) };
}

// Below this probability a word is shown as uncertain (the least likely of its tokens counts).
const UNCERTAIN_WORD = 0.5;

/**
 * The decoder's own confidence: for the chunk, the geometric mean of its tokens' probabilities; for each
 * word (a '▁'-led run of Llama pieces), the probability of its least likely token. Words are indexed as
 * `text.split(' ')`; when pieces and words do not line up (odd spacing), only the chunk's figure is given.
 */
function wordConfidence(
  text: string,
  tokens: number[],
  logProbs: number[],
): { confidence: number; uncertainWords?: number[] } {
  const kept = tokens
    .map((t, i) => [t, logProbs[i]!] as const)
    .filter(([t]) => t > EOS_TOKEN && t < llamaTokenizer.vocabById.length);
  const confidence = Math.exp(kept.reduce((a, [, lp]) => a + lp, 0) / Math.max(1, kept.length));
  const words: number[] = [];
  for (const [t, lp] of kept) {
    const piece = llamaTokenizer.vocabById[t] ?? '';
    if (piece.startsWith('▁') && piece.length > 1) words.push(lp);
    else if (words.length) words[words.length - 1] = Math.min(words.at(-1)!, lp);
    else words.push(lp);
  }
  const round3 = Math.round(confidence * 1000) / 1000;
  if (words.length !== text.split(' ').length) return { confidence: round3 };
  const uncertain = words.flatMap((lp, i) => (Math.exp(lp) < UNCERTAIN_WORD ? [i] : []));
  return { confidence: round3, ...(uncertain.length ? { uncertainWords: uncertain } : {}) };
}
