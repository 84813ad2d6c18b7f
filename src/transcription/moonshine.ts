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
  biasTrie,
  forcedBias,
  trieTokens,
  type BiasTrie,
  type Decoded,
  type DecoderStep,
  type TokenWeight,
} from './beam.ts';
import type { ChunkOptions, ChunkTranscript, TranscriptionEngine } from './engine.ts';
import { UnsupportedLanguageError } from './engine.ts';
import { OperatorFault } from '../audio/failure.ts';
import {
  attentionDecoder,
  crossAttentionModel,
  crossAttentionShapes,
  lastPositionOutputs,
  lastPositionName,
  slotCrossAttention,
  logSumExpModel,
  slotQuantized,
  splitDecoder,
  type SplitDecoder,
} from './onnx-rewrite.ts';
import { GraphCache } from './graph-cache.ts';
import { type Aligner, alignerSessionOptions, alignWords, type WordTiming } from './align.ts';
import { heardWords } from './unheard.ts';
import { detachBuffer, releaseMemory } from './memory.ts';
import {
  expectedCandidates,
  LOW_CONFIDENCE,
  FIRST_WORD,
  GUESS_SECONDS,
  isStockPhrase,
  SHORT_SECONDS,
  RESCORE_MARGIN,
  WIDE_BEAM,
} from './expected.ts';

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
  /**
   * Short answers and expected words (src/transcription/expected.ts): rescore short chunks against
   * yes/no, digits and the vocabulary, and decode doubtful chunks again with a wider beam. Default on.
   */
  expected?: boolean;
  /** Run the ONNX files exactly as shipped, without the load-time speed-ups (bench:asr's baseline). */
  asShipped?: boolean;
  /**
   * The first decoder step in a model of its own, as before issue 30 (a second copy of the decoder's
   * weights per thread; the Spanish decoder as shipped): bench:asr's and bench:pipeline's baseline only.
   */
  firstStepModel?: boolean;
  /**
   * Chunks decoded together (ASR_BATCH): the beams of up to this many chunks in flight go through each
   * decoder step as one batch, so the weights are read once per step for all of them (StepBatcher).
   * 0 or 1: every chunk steps alone. Only where the decoder can be batched exactly (slotQuantized with
   * slotCrossAttention: English); other languages step alone.
   */
  batch?: number;
  /**
   * Batched, while other chunks decode: new chunks start once this share of a batch's worth wait (0.5 was
   * the scheduling before batches one at a time, kept for bench:asr's comparison). Default: they wait
   * until nothing else decodes and start a batch at a time (StepBatcher.ready).
   */
  startShare?: number;
  /**
   * The encoder runs elsewhere (MoonshineThreads' encoder thread): each chunk comes with its encoder
   * states (`Encoded`), and this engine loads no encoder unless one is asked for without them.
   */
  encodedElsewhere?: boolean;
}

/** A chunk's encoder states (`last_hidden_state`, [1, frames, width]), from the encoder thread. */
export interface Encoded {
  data: Float32Array;
  dims: readonly number[];
  /**
   * The chunk's length in samples. With the states, the samples themselves are not needed (only their
   * length is read), so MoonshineThreads sends the recognition thread this number instead of them.
   */
  sampleCount?: number;
  /** Chunks of the same language still being encoded (or waiting for the encoder) when these states came. */
  following?: number;
}

/** How many samples the chunk has: its samples', or (sent without them) its states' count. */
function chunkLength(samples: Float32Array, encoded: Encoded | undefined): number {
  return encoded?.sampleCount ?? samples.length;
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
  /** Null when the encoder states come from elsewhere (MoonshineOptions.encodedElsewhere). */
  encoder: ort.InferenceSession | null;
  /**
   * The decoder: as shipped (one graph, its If choosing the branch), split into its two steps
   * (splitDecoder, before issue 30), or one later-step model for every step (CachedDecoder).
   */
  decoder: MergedDecoder | SplitDecoderSessions | CachedDecoder;
  /** The self-attention cache's inputs per layer, e.g. `past_key_values.0.decoder.key`. */
  selfNames: string[];
  heads: number;
  headDim: number;
  /** The decoder's steps of every chunk in flight, run together (null: each decode steps alone). */
  batcher: StepBatcher | null;
  /** log Σ exp of logits over the vocabulary, per position (logSumExpModel): teacher forcing's normaliser. */
  logSumExp: ort.InferenceSession;
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

/**
 * One copy of the decoder's weights: every step, the first one included, runs the later-step model;
 * the first step's cross-attention inputs come from a small model holding only the nodes that compute
 * them from the encoder's states (crossAttentionModel), and its self-attention cache is empty. Checked
 * bit for bit against the first-step model on both languages' decoders (logits and caches), so the
 * words are the same; the process holds the 54 MB float output projection once per thread, not twice.
 */
interface CachedDecoder {
  kind: 'cached';
  cross: ort.InferenceSession;
  later: ort.InferenceSession;
  /** The cross model's inputs besides the encoder's states (it reads the batch size from `input_ids`). */
  crossReadsIds: boolean;
  /** Per later-step input of the cross-attention: the cross model's output that feeds it. */
  crossInputs: { input: string; output: string }[];
  /**
   * Slots of the later model (slotQuantized over slotCrossAttention): each chunk's rows run in a slot of
   * their own, its cross-attention inputs are `<input>/slot<g>` and `rows` says how many rows each slot has.
   */
  slots?: { count: number; rows: string };
}

/** How many log-probabilities scorePhrases sums for a text: its tokens and the end token. */
export function scoredTokens(text: string): number {
  const t = text.trim();
  return (t ? (llamaTokenizer.encode(t, false, true) as number[]).length : 0) + 1;
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
  /** Tasks that do not go through the batcher running now, and those waiting their turn (unbatchedTurn). */
  private unbatchedRunning = 0;
  private readonly unbatchedWaiting: (() => void)[] = [];
  /** The last model load asked for: the next one starts once it has ended (`loaded`). */
  private loads: Promise<void> = Promise.resolve();

  constructor(opts: MoonshineOptions) {
    this.opts = opts;
    this.languages = opts.languages ?? moonshineLanguages(opts.modelsDir);
  }

  async transcribeChunk(
    samples: Float32Array,
    language: string | null,
    chunk?: ChunkOptions,
    encoded?: Encoded,
  ): Promise<ChunkTranscript> {
    if (!language || !this.languages.includes(language))
      throw new UnsupportedLanguageError(language ?? 'auto', this.languages);
    const model = await this.model(language);
    const turn = !model.batcher && (this.opts.batch ?? 0) > 1 ? await this.unbatchedTurn() : null;
    // Chunks that arrive together start their decodes together (StepBatcher.arrive).
    const arrived = model.batcher?.arrive();
    if (encoded?.following !== undefined) model.batcher?.expect(encoded.following);
    try {
      const hidden = await this.encoded(model, language, samples, encoded);
      return await this.recognise(model, hidden, chunkLength(samples, encoded), language, chunk, arrived);
    } finally {
      arrived?.();
      turn?.();
    }
  }

  /**
   * Batched, work that does not go through the batcher — the chunks of a language whose decoder cannot be
   * batched (Spanish), decoded each alone, and phrase scoring — runs interleaved on this thread: more at
   * once gains nothing, and each holds its cross-attention keys and values. MoonshineThreads hands a
   * batched thread two batches' worth of tasks (for full batches); at most `batch` of these run at once,
   * as before. Resolves with the call that ends the turn.
   */
  private async unbatchedTurn(): Promise<() => void> {
    if (this.unbatchedRunning >= (this.opts.batch ?? 1))
      await new Promise<void>((resolve) => this.unbatchedWaiting.push(resolve));
    else this.unbatchedRunning++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = this.unbatchedWaiting.shift();
      // The turn passes straight to the next chunk waiting (the count stays), or is given back.
      if (next) next();
      else this.unbatchedRunning--;
    };
  }

  /** The encoder states of `samples`: as given, or from this engine's encoder. */
  private async encoded(
    model: Model,
    language: string,
    samples: Float32Array,
    given: Encoded | undefined,
  ): Promise<ort.Tensor> {
    if (given) return new ort.Tensor('float32', given.data, [...given.dims]);
    const encoder = model.encoder ?? (await this.encoder(language));
    const { last_hidden_state: hidden } = await encoder.run({
      input_values: new ort.Tensor('float32', samples, [1, samples.length]),
    });
    return hidden!;
  }

  private readonly encoders = new Map<string, Promise<ort.InferenceSession>>();

  /** The encoder of `language`: the model's, or (encoded elsewhere, asked for without the states) loaded alone. */
  private encoder(language: string): Promise<ort.InferenceSession> {
    const loaded = this.models.get(language);
    if (loaded && !this.opts.encodedElsewhere) return loaded.then((m) => m.encoder!);
    return this.loaded(this.encoders, language, (dir) =>
      ort.InferenceSession.create(
        path.join(dir, 'encoder_model.onnx'),
        sessionOptions(this.threads(), !this.opts.asShipped, (this.opts.batch ?? 0) > 1),
      ),
    );
  }

  private async recognise(
    model: Model,
    hidden: ort.Tensor,
    length: number,
    language: string,
    chunk: ChunkOptions | undefined,
    arrived: (() => void) | undefined,
  ): Promise<ChunkTranscript> {
    const maxTokens = Math.max(MIN_TOKENS, Math.ceil((length / SAMPLE_RATE) * TOKENS_PER_SECOND));
    const width = this.opts.beam ?? DEFAULT_BEAM;
    const expected = this.opts.expected !== false;
    const decode = async (beam: number, speak = false) => {
      // Jobs running side by side interleave their decoder steps: each decode has its own scratch.
      const scratch = model.batcher ? null : (this.scratch.pop() ?? new Scratch());
      const batched = model.batcher?.decoder(hidden, arrived);
      try {
        const step = batched ? batched.step : decoderStep(model, hidden, scratch!);
        return await beamSearch(step, {
          width: beam,
          maxTokens,
          start: START_TOKEN,
          eos: EOS_TOKEN,
          vocabSize: llamaTokenizer.vocabById.length,
          bias: chunk?.vocabulary ? this.trie(chunk.vocabulary) : null,
          speak,
        });
      } finally {
        batched?.done();
        if (scratch) this.scratch.push(scratch);
      }
    };
    const mean = (d: Decoded) =>
      d.tokens.length ? d.logProbs.reduce((a, b) => a + b, 0) / d.tokens.length : Number.NEGATIVE_INFINITY;
    let decoded = await decode(width);
    // A chunk the decoder itself doubts is decoded again with a wider beam before its words are shown
    // as uncertain; the wider decode is kept only when the model finds it likelier (per token).
    const seconds = length / SAMPLE_RATE;
    // Only short chunks (answers): on long ones the second decode costs much and changed nothing measured.
    const doubtful = decoded.tokens.length > 0 && Math.exp(mean(decoded)) < LOW_CONFIDENCE;
    if (expected && doubtful && seconds <= SHORT_SECONDS && width < WIDE_BEAM) {
      const wide = await decode(WIDE_BEAM);
      if (mean(wide) > mean(decoded)) decoded = wide;
    }
    // A short chunk the decoder ends at once (no speech, it says) is asked what it would say if it had
    // to: a short answer the VAD heard ("No.", "Thursday.") starts that forced decode with a word the
    // model gives a real chance, noise with one it does not (see FIRST_WORD).
    const decodedFirst = decoded.tokens.length > 0;
    let spoken: Decoded | null = null;
    if (expected && !decoded.tokens.length && seconds <= SHORT_SECONDS) {
      spoken = await decode(WIDE_BEAM, true);
      if ((spoken.logProbs[0] ?? Number.NEGATIVE_INFINITY) >= FIRST_WORD) decoded = { ...spoken, noSpeech: 0 };
    }
    // A turn the voice detector is sure of (it stood above background talkers) that the decoder still
    // ends at once: under 5 dB babble it does so on whole agent turns. Its best guess is kept, marked as
    // a guess (every word uncertain), unless it is one of the decoder's stock phrases for noise ("Gracias
    // por ver el video.", which it also says over real turns): then the turn is kept with no words, so
    // the analysis knows speech went unheard there (Segment.guessed).
    let guessed = false;
    if (
      expected &&
      chunk?.speech &&
      !decoded.tokens.length &&
      seconds >= GUESS_SECONDS[0] &&
      seconds <= GUESS_SECONDS[1]
    ) {
      guessed = true;
      spoken ??= await decode(WIDE_BEAM, true);
      const known = spoken.tokens.filter((t) => t > EOS_TOKEN && t < llamaTokenizer.vocabById.length);
      const guess = known.length ? llamaTokenizer.decode(known, false, true).trim() : '';
      if (guess && !isStockPhrase(guess, language)) decoded = { ...spoken, noSpeech: 0 };
    }
    const avgLogProb = decoded.tokens.length ? mean(decoded) : -Infinity;
    // Words the decoder wrote with no speech under them are cut (src/transcription/unheard.ts).
    let { tokens, logProbs } = keepHeard(decoded, seconds, avgLogProb);
    // Moonshine's vocabulary is Llama's 32000 pieces plus unused padding ids; those never carry text.
    const known = tokens.filter((t) => t > EOS_TOKEN && t < llamaTokenizer.vocabById.length);
    let text = known.length ? llamaTokenizer.decode(known, false, true).trim() : '';
    // Rescoring is for short chunks the decoder doubted (or could only be made to speak): a confident
    // decode was never beaten by 2 nats in what was measured, and scoring every turn doubled the CPU.
    if (expected && text && !guessed && seconds <= SHORT_SECONDS && (doubtful || !decodedFirst)) {
      const better = await rescoreExpected(model, hidden, text, seconds, language, chunk?.vocabulary);
      if (better) ({ text, tokens, logProbs } = better);
    }
    if (guessed) {
      // A guess: every word uncertain, and never rescored into an expected answer. The free decode's
      // figure is the one given: it heard nothing (language detection must not count a guess).
      if (!text) return { text, avgLogProb: Number.NEGATIVE_INFINITY, guessed: true };
      const { confidence } = wordConfidence(text, tokens, logProbs);
      return {
        text,
        avgLogProb: Number.NEGATIVE_INFINITY,
        confidence,
        uncertainWords: text.split(' ').map((_, i) => i),
        guessed: true,
      };
    }
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
  async alignChunk(samples: Float32Array, language: string, text: string, encoded?: Encoded): Promise<WordTiming[]> {
    if (!this.languages.includes(language)) throw new UnsupportedLanguageError(language, this.languages);
    const model = await this.model(language);
    let aligner = this.aligners.get(language);
    if (!aligner) {
      const file = path.join(this.opts.modelsDir, `moonshine-base-${language}`, 'decoder_model_merged.onnx');
      aligner = readFile(file).then(async (bytes) => {
        const rewritten = attentionDecoder(bytes);
        if (!rewritten) throw new Error(`The decoder in ${file} has no cross-attention to align words with`);
        const decoder = await ort.InferenceSession.create(rewritten.model, alignerSessionOptions(this.threads()));
        return afterLoad({ decoder, attention: rewritten.attention, startToken: START_TOKEN });
      });
      aligner.catch(() => this.aligners.delete(language));
      this.aligners.set(language, aligner);
    }
    const length = chunkLength(samples, encoded);
    if (!length || !text.trim()) return [];
    const hidden = await this.encoded(model, language, samples, encoded);
    return alignWords(await aligner, length, hidden, text);
  }

  /**
   * How likely each text is as the whole transcript of `samples` (the teacher-forced decoder
   * log-likelihood of its tokens and the end token, in nats), for checking whether an expected phrase
   * was said where the free decoding heard something else (src/analysis/acoustic.ts). The audio is
   * encoded once and its cross-attention computed once; each text's score is the one it gets alone,
   * whatever texts it is asked with (teacherForcedTokens). With a vocabulary, each text also earns the
   * boost the decoder would have given its tokens (forcedBias): a name the decoder was biased towards
   * costs its rarity in the model's prior otherwise ("Acme" 6–13 nats even when said, bench:verdicts).
   */
  async scorePhrases(
    samples: Float32Array,
    language: string,
    texts: readonly string[],
    vocabulary?: readonly string[],
    encoded?: Encoded,
  ): Promise<number[]> {
    if (!this.languages.includes(language)) throw new UnsupportedLanguageError(language, this.languages);
    if (!texts.length) return [];
    const model = await this.model(language);
    const turn = (this.opts.batch ?? 0) > 1 ? await this.unbatchedTurn() : null;
    try {
      const hidden = await this.encoded(model, language, samples, encoded);
      const sequences = texts.map((t) => {
        const text = t.trim();
        return text ? (llamaTokenizer.encode(text, false, true) as number[]) : [];
      });
      const bias = vocabulary?.length ? this.trie(vocabulary) : null;
      const best = bias ? { at: trieTokens(bias), lps: [] as number[][], end: [] as boolean[][] } : undefined;
      const scores = await teacherForcedTokens(model, hidden, sequences, best);
      return scores.map(
        (lps, i) =>
          lps.reduce((a, b) => a + b, 0) +
          (bias && best ? forcedBias(bias, sequences[i]!, lps, best.lps[i]!, best.end[i]!) : 0),
      );
    } finally {
      turn?.();
    }
  }

  scoredTokens(text: string): number {
    return scoredTokens(text);
  }

  /**
   * How the decoder steps of `language` ran batched so far: runs of the later model, and chunk-steps
   * in them (more chunk-steps than runs: chunks shared runs). Null when its steps are not batched.
   */
  async batchedSteps(language: string): Promise<{ runs: number; chunkSteps: number } | null> {
    const { batcher } = await this.model(language);
    return batcher ? { runs: batcher.runs, chunkSteps: batcher.chunkSteps } : null;
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

  /** A missing model is the operator's to fix: the call waits, it is not failed. */
  private missing(language: string): OperatorFault | null {
    if (moonshineLanguages(this.opts.modelsDir).includes(language)) return null;
    return new OperatorFault(
      `engine:${language}`,
      `The Moonshine model for '${language}' is not in ${this.opts.modelsDir}/moonshine-base-${language} (run \`npm run models:fetch\`, set MODELS_DIR, or leave '${language}' out of MOONSHINE_LANGUAGES)`,
    );
  }

  private model(language: string): Promise<Model> {
    const decoder = this.opts.asShipped ? 'shipped' : this.opts.firstStepModel ? 'split' : 'cached';
    return this.loaded(this.models, language, (dir) =>
      loadModel(dir, this.threads(), decoder, this.opts.batch ?? 0, !this.opts.encodedElsewhere, this.opts.startShare),
    );
  }

  /**
   * `language`'s entry of `cache`, loaded once (then collected: afterLoad). A missing or unloadable model
   * is the operator's to fix (the call waits); a failed load is forgotten, so the next chunk tries again.
   */
  private loaded<T>(cache: Map<string, Promise<T>>, language: string, load: (dir: string) => Promise<T>): Promise<T> {
    let loading = cache.get(language);
    if (!loading) {
      const missing = this.missing(language);
      if (missing) return Promise.reject(missing);
      const dir = path.join(this.opts.modelsDir, `moonshine-base-${language}`);
      // One load at a time, each collected before the next starts: a load's peak (the graphs rewritten,
      // ONNX Runtime building the sessions) would otherwise add up with another's, as when a call of unknown
      // language tries both languages' models on its first chunks at once.
      loading = this.loads
        .then(() => load(dir))
        .then(afterLoad)
        .catch((err: unknown) => {
          throw new OperatorFault(`engine:${language}`, `The Moonshine model in ${dir} cannot be loaded: ${err}`, {
            cause: err,
          });
        });
      loading.catch(() => cache.delete(language));
      this.loads = loading.then(
        () => {},
        () => {},
      );
      cache.set(language, loading);
    }
    return loading;
  }
}

type DecoderKind = 'shipped' | 'split' | 'cached';

/**
 * Memory given back once a model has loaded (releaseMemory). Loading reads the ONNX files and writes the
 * edited graphs as buffers and objects (about 200 MB per language, garbage once the sessions exist); a
 * recognition thread then allocates little on its own heap, so V8 kept them for the life of the thread:
 * measured with both languages on two threads, 1,389 MiB after the first chunks, 895 MiB with a full
 * collection, and the heap's emptied pages are now given back too.
 */
function afterLoad<T>(loaded: T): T {
  releaseMemory();
  return loaded;
}

async function loadModel(
  dir: string,
  threads: number,
  kind: DecoderKind,
  batch: number,
  withEncoder = true,
  startShare?: number,
): Promise<Model> {
  const options = sessionOptions(threads, kind !== 'shipped', batch > 1);
  const decoderFile = path.join(dir, 'decoder_model_merged.onnx');
  const [encoder, decoder, logSumExp] = await Promise.all([
    withEncoder ? ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options) : null,
    loadDecoder(decoderFile, options, kind, batch),
    ort.InferenceSession.create(logSumExpModel(), options),
  ]);
  const inputs = decoder.kind === 'merged' ? decoder.session.inputMetadata : decoder.later.inputMetadata;
  const selfNames = inputs.map((m) => m.name).filter((n) => /^past_key_values\.\d+\.decoder\./.test(n));
  // Shape [batch, heads, seq, headDim]; read from the model so en and es (or other sizes) need no constants.
  const meta = inputs.find((m) => m.name === selfNames[0]);
  const shape = meta?.isTensor ? meta.shape : [];
  const [heads, headDim] = [shape[1], shape[3]];
  if (typeof heads !== 'number' || typeof headDim !== 'number')
    throw new Error(`Unexpected decoder cache shape in ${dir}`);
  const model: Model = { encoder, decoder, selfNames, heads, headDim, batcher: null, logSumExp };
  if (decoder.kind === 'cached' && decoder.slots)
    model.batcher = new StepBatcher(model, decoder, decoder.slots, startShare);
  return model;
}

export function sessionOptions(
  threads: number,
  optimise: boolean,
  batched = false,
): ort.InferenceSession.SessionOptions {
  // The graphs are sequential: inter-op threads would only add hand-offs.
  return {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    // The int8 weights come as DequantizeLinear nodes on constants, which ONNX Runtime leaves unfolded
    // (for QDQ fusions these graphs have no use for): every decoder step dequantized the 32768 × 416
    // output embedding again. Folding constants through them once at load gives the same floats.
    ...(optimise
      ? {
          extra: {
            session: {
              disable_quant_qdq: '1',
              // Several intra-op threads (one batched thread using the cores): idle workers sleep
              // instead of spinning, which on a shared machine took the CPU the other work needed.
              ...(threads > 1 && batched ? { intra_op: { allow_spinning: '0' } } : {}),
            },
          },
        }
      : {}),
    // ONNX Runtime's arena grows by doubling and never gives memory back, per session: with a thread
    // per core, each with three sessions, a call's longest chunks ratcheted the worker's peak up with
    // the call's length (bench:asr, 20 min vs 5 min: +57 to +156 MiB). Without it, freed buffers go
    // back to the allocator: the same speed there, and no growth (+15, −107 MiB).
    ...(optimise ? { enableCpuMemArena: false } : {}),
  };
}

async function loadDecoder(
  file: string,
  options: ort.InferenceSession.SessionOptions,
  kind: DecoderKind,
  batch = 0,
): Promise<MergedDecoder | SplitDecoderSessions | CachedDecoder> {
  const merged = async (): Promise<MergedDecoder> => {
    const session = await ort.InferenceSession.create(file, options);
    return { kind: 'merged', session, pastNames: session.inputNames.filter((n) => n.startsWith('past_key_values.')) };
  };
  if (kind === 'shipped') return merged();
  if (kind === 'cached') return (await cachedDecoder(file, options, batch)) ?? merged();
  const split = splitDecoder(await readFile(file));
  if (!split) return merged();
  const [first, later] = await Promise.all([
    ort.InferenceSession.create(split.first, options),
    ort.InferenceSession.create(split.later, options),
  ]);
  const crossValues = later.inputNames.filter((n) => /^past_key_values\.\d+\.encoder\.value$/.test(n));
  return { kind: 'split', first, later, crossKeys: split.crossKeys, crossValues };
}

/** What the graph cache records beside the cached decoder's graphs: what the loader read off the rewrite. */
interface CachedDecoderRecord {
  crossKeys: SplitDecoder['crossKeys'];
  slots?: { count: number; rows: string };
}

const CACHED_GRAPHS = ['later', 'cross'] as const;

/** A session from a graph's file when it could be written (src/transcription/graph-cache.ts), else its bytes. */
async function sessionFrom(
  cache: GraphCache | null,
  name: string,
  bytes: Uint8Array,
  options: ort.InferenceSession.SessionOptions,
): Promise<ort.InferenceSession> {
  const file = await cache?.write(name, bytes);
  if (!file) return ort.InferenceSession.create(bytes, options);
  // ONNX Runtime reads the file itself: the bytes are freed before it builds the session, not after.
  detachBuffer(bytes);
  return ort.InferenceSession.create(file, options);
}

/**
 * The cached-step decoder (CachedDecoder) of the merged decoder in `file`: its two graphs from the graph
 * cache when a start wrote them before, else rewritten (and written there, when it can be, for the
 * session to be built from the file). Null when the decoder does not have the shape to split.
 */
async function cachedDecoder(
  file: string,
  options: ort.InferenceSession.SessionOptions,
  batch: number,
): Promise<CachedDecoder | null> {
  const cache = await GraphCache.open(file, `cached-b${Math.max(1, batch)}`).catch(() => null);
  const written = await cache?.read<CachedDecoderRecord>(CACHED_GRAPHS);
  if (cache && written) {
    let later: ort.InferenceSession | undefined;
    try {
      // One after the other, as when rewritten: two sessions being built at once would add their peaks.
      later = await ort.InferenceSession.create(cache.path('later'), options);
      const cross = await ort.InferenceSession.create(cache.path('cross'), options);
      return cachedSessions(later, cross, written);
    } catch {
      // A file gone since it was read (another version of the code, sharing the folder, wrote its own
      // set and removed this one) or damaged: rewritten (and written again), as on a first start.
      await later?.release().catch(() => {});
    }
  }
  const bytes = await readFile(file);
  const split = splitDecoder(bytes, { plainBranches: true });
  if (!split) return null;
  // Each graph's bytes are freed as soon as the next one is made from them (`detachBuffer`), not at the thread's
  // next collection: with both languages, the model load's peak −25 to −50 MiB (bench:asr's child).
  detachBuffer(bytes);
  const { first, crossKeys } = split;
  // Each rewrite leaves its decoded graph behind (objects and buffers, a few hundred MB per language):
  // given back between the rewrites and before ONNX Runtime builds the session, so they do not add up
  // with it and the models already loaded (load peak with both languages 850 → 738 MiB, bench:asr's child).
  releaseMemory();
  // Batched: each chunk's quantized products and cross-attention in a slot of its own, so a chunk's
  // numbers are bit for bit those it gets alone (docs/benchmarks/asr.md); one model serves one chunk too.
  let perSlot = batch > 1 ? slotCrossAttention(split.later, batch) : null;
  if (perSlot) releaseMemory();
  let slotted = perSlot ? slotQuantized(perSlot, batch) : null;
  if (perSlot) detachBuffer(perSlot);
  perSlot = null;
  // Batched steps fetch each cache's last position, not the whole caches (StepBatcher.run).
  if (slotted) {
    const withLast = lastPositionOutputs(slotted.model);
    detachBuffer(slotted.model);
    slotted = withLast ? { ...slotted, model: withLast } : null;
  }
  if (slotted) detachBuffer(split.later);
  const laterModel = slotted?.model ?? split.later;
  const record: CachedDecoderRecord = {
    crossKeys,
    ...(slotted ? { slots: { count: batch, rows: slotted.slotRows } } : {}),
  };
  releaseMemory();
  const later = await sessionFrom(cache, 'later', laterModel, options);
  detachBuffer(laterModel);
  const outputs = crossInputsOf(later, record).map((c) => c.output);
  const constants = await firstStepShapes(first, outputs, options);
  const crossModel = crossAttentionModel(first, outputs, constants);
  detachBuffer(first);
  const cross = await sessionFrom(cache, 'cross', crossModel, options);
  detachBuffer(crossModel);
  await cache?.finish(record);
  return cachedSessions(later, cross, record);
}

/**
 * The later model's cross-attention inputs: the keys as the split left them (scaled and transposed, or
 * as shipped) and the values; each is a first-step output of the same name or a named tensor. (A
 * slotted model names them per slot: `<input>/slot0` stands for the input.)
 */
function crossInputsOf(later: ort.InferenceSession, { crossKeys, slots }: CachedDecoderRecord) {
  const present = (past: string) => past.replace('past_key_values', 'present');
  return later.inputNames
    .filter((n) => /^past_key_values\.\d+\.encoder\./.test(n) && (!slots || n.endsWith('/slot0')))
    .map((n) => n.replace(/\/slot0$/, ''))
    .map((input) => ({ input, output: crossKeys.find((k) => k.input === input)?.output ?? present(input) }));
}

function cachedSessions(
  later: ort.InferenceSession,
  cross: ort.InferenceSession,
  record: CachedDecoderRecord,
): CachedDecoder {
  return {
    kind: 'cached',
    cross,
    later,
    crossInputs: crossInputsOf(later, record),
    crossReadsIds: cross.inputNames.includes('input_ids'),
    ...(record.slots ? { slots: record.slots } : {}),
  };
}

/**
 * The values of the shapes crossAttentionModel may fold (crossAttentionShapes) at the first step: one row
 * of the start token, run twice on encoder states of two lengths; a shape that is the same both times
 * does not depend on the audio (the decoder's own [1, 1, 416]) and becomes a constant. The probe, which
 * still holds the decoder's layers, is released at once.
 */
async function firstStepShapes(
  first: Uint8Array,
  outputs: readonly string[],
  options: ort.InferenceSession.SessionOptions,
): Promise<Map<string, bigint[]>> {
  const shapes = crossAttentionShapes(first, outputs);
  if (!shapes.length) return new Map();
  const probe = await ort.InferenceSession.create(crossAttentionModel(first, [...outputs, ...shapes]), options);
  try {
    const width = probe.inputMetadata.find((m) => m.name === 'encoder_hidden_states');
    const dims = width?.isTensor ? width.shape : [];
    const hiddenSize = dims[2];
    if (typeof hiddenSize !== 'number') return new Map();
    const run = async (frames: number) => {
      const out = await probe.run(
        {
          ...(probe.inputNames.includes('input_ids')
            ? { input_ids: new ort.Tensor('int64', BigInt64Array.from([BigInt(START_TOKEN)]), [1, 1]) }
            : {}),
          encoder_hidden_states: new ort.Tensor('float32', new Float32Array(frames * hiddenSize), [
            1,
            frames,
            hiddenSize,
          ]),
        },
        shapes,
      );
      return shapes.map((name) => [...(out[name]!.data as BigInt64Array)]);
    };
    const [a, b] = [await run(3), await run(5)];
    return new Map(
      shapes.flatMap((name, i) =>
        a[i]!.length === b[i]!.length && a[i]!.every((v, k) => v === b[i]![k]) ? [[name, a[i]!] as const] : [],
      ),
    );
  } finally {
    await probe.release();
  }
}

/**
 * Teacher forcing, per token: each sequence's token log-probabilities (its end token's last). The whole
 * sequence after the start token goes through the decoder in one run, whose logits at every position
 * give the probability of the next token. The decoder quantizes its activations per run (one scale over
 * every row), so sequences sharing a run moved each other's scores (by up to 0.9 nats in bench:verdicts,
 * enough to turn a criterion's verdict when another criterion's phrases joined the segment's batch).
 * Each sequence is therefore scored as it is alone: one to a run, or, in a slotted model (batched
 * recognition: slotQuantized, one row per slot, each quantized on its own), with sequences of the same
 * length only (padding would enter a row's range). test/transcription/score-alone.test.ts holds it.
 *
 * Recognition's later-step model reads a whole sequence with an empty cache (its causal mask covers
 * several new tokens) and gives the first-step model's logits bit for bit; the encoder's cross-attention
 * keys and values are computed once for all the sequences, as recognition does for a chunk's beam.
 */
async function teacherForcedTokens(
  model: Model,
  hidden: ort.Tensor,
  sequences: readonly number[][],
  /**
   * Filled when given: per sequence and position whose token is in `best.at` (the vocabulary's tokens:
   * elsewhere nothing is boosted), the likeliest token's log-probability and whether it is the end;
   * NaN and false at the other positions.
   */
  best?: { at: ReadonlySet<number>; lps: number[][]; end: boolean[][] },
): Promise<number[][]> {
  const d = model.decoder;
  let cross: Record<string, ort.Tensor> = {};
  if (d.kind === 'cached') {
    const projected = await d.cross.run({
      ...(d.crossReadsIds
        ? { input_ids: new ort.Tensor('int64', BigInt64Array.from([BigInt(START_TOKEN)]), [1, 1]) }
        : {}),
      encoder_hidden_states: hidden,
    });
    cross = Object.fromEntries(d.crossInputs.map((c) => [c.input, projected[c.output]!]));
  }
  const slots = d.kind === 'cached' ? d.slots : undefined;
  const empty = (n: number) => new ort.Tensor('float32', new Float32Array(0), [n, model.heads, 0, model.headDim]);
  const run = (inputIds: ort.Tensor, n: number) => {
    if (d.kind === 'cached') {
      const feeds: Record<string, ort.Tensor> = {
        input_ids: inputIds,
        ...Object.fromEntries(model.selfNames.map((k) => [k, empty(n)])),
      };
      if (!slots) Object.assign(feeds, cross);
      else {
        feeds[slots.rows] = new ort.Tensor(
          'int64',
          BigInt64Array.from({ length: slots.count }, (_, g) => (g < n ? 1n : 0n)),
          [slots.count],
        );
        for (const [input, t] of Object.entries(cross))
          for (let g = 0; g < slots.count; g++)
            feeds[`${input}/slot${g}`] =
              g < n ? t : new ort.Tensor('float32', new Float32Array(0), [0, ...t.dims.slice(1)]);
      }
      return d.later.run(feeds, ['logits']);
    }
    if (d.kind === 'split') return d.first.run({ input_ids: inputIds, encoder_hidden_states: hidden }, ['logits']);
    return d.session.run(
      {
        input_ids: inputIds,
        encoder_hidden_states: hidden,
        use_cache_branch: new ort.Tensor('bool', [false], [1]),
        ...Object.fromEntries(d.pastNames.map((k) => [k, empty(n)])),
      },
      ['logits'],
    );
  };
  const scores: number[][] = sequences.map(() => []);
  // Runs of sequences of one length, in the order given (the same runs for the same texts).
  const byLength = new Map<number, number[]>();
  for (const [i, s] of sequences.entries()) byLength.set(s.length, [...(byLength.get(s.length) ?? []), i]);
  const perRun = slots?.count ?? 1;
  for (const [size, all] of byLength)
    for (let from = 0; from < all.length; from += perRun) {
      const rows = all.slice(from, from + perRun);
      const length = 1 + size;
      const ids = new BigInt64Array(rows.length * length);
      rows.forEach((r, i) => {
        ids[i * length] = BigInt(START_TOKEN);
        sequences[r]!.forEach((t, k) => {
          ids[i * length + 1 + k] = BigInt(t);
        });
      });
      const out = await run(new ort.Tensor('int64', ids, [rows.length, length]), rows.length);
      const { log_sum_exp: normaliser } = await model.logSumExp.run({ logits: out.logits! });
      const logits = out.logits!.data as Float32Array;
      const lse = normaliser!.data as Float32Array;
      const vocab = out.logits!.dims.at(-1)!;
      rows.forEach((r, i) => {
        const s = sequences[r]!;
        // Position k predicts token k of the sequence; the one after the last predicts the end token.
        for (let k = 0; k <= s.length; k++)
          scores[r]!.push(
            logits[(i * length + k) * vocab + (k < s.length ? s[k]! : EOS_TOKEN)]! - lse[i * length + k]!,
          );
        if (best) {
          // As the beam reads a row: only the tokenizer's pieces (padding ids never carry text).
          const limit = Math.min(vocab, llamaTokenizer.vocabById.length);
          best.lps[r] = [];
          best.end[r] = [];
          for (let k = 0; k < s.length; k++) {
            if (!best.at.has(s[k]!)) {
              best.lps[r]!.push(Number.NaN);
              best.end[r]!.push(false);
              continue;
            }
            const row = (i * length + k) * vocab;
            let top = 0;
            for (let t = 1; t < limit; t++) if (logits[row + t]! > logits[row + top]!) top = t;
            best.lps[r]!.push(logits[row + top]! - lse[i * length + k]!);
            best.end[r]!.push(top === EOS_TOKEN);
          }
        }
      });
    }
  return scores;
}

/**
 * The free decode against the expected answers of src/transcription/expected.ts, all teacher-forced on
 * the chunk's encoding: the likeliest candidate replaces `text` when it beats it by RESCORE_MARGIN nats.
 */
async function rescoreExpected(
  model: Model,
  hidden: ort.Tensor,
  text: string,
  seconds: number,
  language: string,
  vocabulary: readonly string[] | undefined,
): Promise<{ text: string; tokens: number[]; logProbs: number[] } | null> {
  const candidates = expectedCandidates(text, seconds, language, vocabulary);
  if (!candidates.length) return null;
  const texts = [text, ...candidates];
  const sequences = texts.map((t) => llamaTokenizer.encode(t, false, true) as number[]);
  const scored = await teacherForcedTokens(model, hidden, sequences);
  const totals = scored.map((lps) => lps.reduce((a, b) => a + b, 0));
  let best = 0;
  // Strictly greater: ties keep the earlier text, so the choice never depends on anything but the list.
  for (let i = 1; i < totals.length; i++) if (totals[i]! > totals[best]!) best = i;
  if (best === 0 || totals[best]! < totals[0]! + RESCORE_MARGIN) return null;
  const tokens = [...sequences[best]!, EOS_TOKEN];
  return { text: texts[best]!, tokens, logProbs: scored[best]! };
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
    if (d.kind === 'cached') {
      const projected = await d.cross.run({
        ...(d.crossReadsIds ? { input_ids: inputIds } : {}),
        encoder_hidden_states: hidden,
      });
      cross = Object.fromEntries(d.crossInputs.map((c) => [c.input, projected[c.output]!]));
      const empty = new ort.Tensor('float32', new Float32Array(0), [1, model.heads, 0, model.headDim]);
      return d.later.run(
        { input_ids: inputIds, ...cross, ...Object.fromEntries(model.selfNames.map((k) => [k, empty])) },
        laterFetches,
      );
    }
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
    d.kind !== 'merged'
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

/** One chunk's decode as StepBatcher steps it. */
interface BatchedDecode {
  /**
   * The chunk's encoder states until its first step runs, which projects them to its cross-attention
   * inputs of the later model (one row, read by its slot's rows): a chunk waiting to start holds only
   * its states (0.4 MB for 6 s), not the keys and values of every layer (16 times as much).
   */
  hidden: ort.Tensor | null;
  cross: Record<string, ort.Tensor>;
  /**
   * The previous step's self-attention caches, as the caches that run was fed (`past`, the whole batch's,
   * one position fewer) and the position it added (`last`, its lastPositionOutputs), and where this chunk's
   * rows start in them: the next step's caches are those two put together, the numbers the run's own
   * caches hold, without copying those out of ONNX Runtime at every step.
   */
  past: Record<string, ort.Tensor> | null;
  last: Record<string, ort.Tensor> | null;
  /** The run those caches (and the logits beam search read) came from, freed once no decode reads it. */
  outputs: RunOutputs | null;
  offset: number;
  /** Tokens in the self-attention cache (the steps taken). */
  length: number;
}

/** A batched run's outputs, and the decodes still to read them (their next step copies their rows). */
interface RunOutputs {
  tensors: ort.Tensor[];
  readers: number;
}

interface StepRequest {
  decode: BatchedDecode;
  tokens: readonly number[];
  parents: readonly number[] | null;
  resolve: (rows: Float32Array[]) => void;
  reject: (e: unknown) => void;
}

/**
 * The decoder steps of every chunk in flight in this thread, run together (issue 30): each decode asks for
 * its step as beamSearch does, and the steps asked for by the time the batcher runs go through the later
 * model as one batch, each chunk's rows (its live hypotheses; finished ones are no longer asked for) in a
 * slot of their own, up to `slots.count` chunks per run. The slotted model quantizes each slot's rows and
 * attends over each slot's own encoder frames, so a chunk's logits are bit for bit those it gets alone
 * (scripts/bench/asr-batch-exact.ts, test/transcription/batched.test.ts); the weights are read once per
 * step for all of them. The graph takes a row's position from its cache length, so only chunks at the
 * same step share a run: chunks that arrive together start together (new decodes wait for chunks still
 * being encoded), and chunks arriving later wait until nothing else decodes, then start together, a batch
 * at a time (ready).
 */
class StepBatcher {
  /** Runs of the later model, and chunk-steps taken in them. */
  runs = 0;
  chunkSteps = 0;
  private pending: StepRequest[] = [];
  private arrivals = 0;
  private scheduled = false;
  private running = false;
  private readonly fetches: string[];
  private readonly model: Model;
  private readonly d: CachedDecoder;
  private readonly slots: { count: number; rows: string };
  /** MoonshineOptions.startShare, as a number of chunks (null: new chunks wait for the others to finish). */
  private readonly startGroup: number | null;
  /** Chunks still being encoded elsewhere, as the last chunk to come said (expect). */
  private following = 0;
  /** A lone chunk held for a companion (ready): the timer that starts it anyway. */
  private holding: NodeJS.Timeout | null = null;
  private heldTooLong = false;

  constructor(model: Model, d: CachedDecoder, slots: { count: number; rows: string }, startShare?: number) {
    this.model = model;
    this.d = d;
    this.slots = slots;
    this.startGroup = startShare === undefined ? null : Math.max(1, Math.ceil(slots.count * startShare));
    this.fetches = ['logits', ...model.selfNames.map((k) => lastPositionName(presentName(k)))];
  }

  /** A chunk on its way to its first step (being encoded): new decodes wait for it. Call the result once it is there. */
  arrive(): () => void {
    this.arrivals++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.arrivals--;
      this.schedule();
    };
  }

  /**
   * How many chunks are still being encoded on the encoder thread for this batcher's language (the
   * last chunk to come knows; MoonshineThreads counts them as it hands the states over).
   */
  expect(following: number): void {
    this.following = following;
  }

  /**
   * A beamSearch step for one decode of the chunk whose encoder states are `hidden`, and `done`, to call
   * once the search has ended: the decode's cross-attention inputs and last outputs are freed then.
   */
  decoder(hidden: ort.Tensor, arrived?: () => void): { step: DecoderStep; done: () => void } {
    const decode: BatchedDecode = { hidden, cross: {}, past: null, last: null, outputs: null, offset: 0, length: 0 };
    return {
      step: (tokens, parents) =>
        new Promise((resolve, reject) => {
          this.pending.push({ decode, tokens, parents, resolve, reject });
          arrived?.();
          this.schedule();
        }),
      done: () => {
        read(decode);
        for (const t of Object.values(decode.cross)) free(t);
        decode.cross = {};
        decode.hidden = null;
      },
    };
  }

  /** Runs what is asked for once the steps that resolve together have all asked (after their microtasks). */
  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.running = true;
    try {
      const ready = this.ready();
      if (!ready.length) return;
      this.pending = this.pending.filter((r) => !ready.includes(r));
      const byLength = new Map<number, StepRequest[]>();
      for (const r of ready) byLength.set(r.decode.length, [...(byLength.get(r.decode.length) ?? []), r]);
      for (const group of byLength.values())
        for (let from = 0; from < group.length; from += this.slots.count)
          await this.run(group.slice(from, from + this.slots.count));
    } finally {
      this.running = false;
      if (this.ready().length) this.schedule();
    }
  }

  /**
   * The steps to run now. First steps wait while other chunks are still being encoded, so that chunks
   * arriving together start together; and while other chunks are decoding (a chunk cannot join a decode
   * under way: the graph takes a row's position from its cache length), then start a batch at a time.
   * MoonshineThreads hands the thread two batches' worth of chunks (GROUPS_IN_FLIGHT), so by the time a
   * batch's last chunk finishes the next batch is encoded and waiting, and starts full. Starting new
   * chunks beside a decode under way (`startGroup`, the scheduling before) saves no run: the two groups
   * step in runs of their own either way, and every chunk decoding at once holds its cross-attention
   * keys and values.
   */
  private ready(): StepRequest[] {
    const going = this.pending.filter((r) => r.decode.length > 0);
    if (this.arrivals > 0) return going;
    const starting = this.pending.filter((r) => r.decode.length === 0);
    if (this.startGroup === null) {
      if (going.length) return going;
      if (starting.length === 1 && this.holdForCompanion()) return [];
      this.release();
      return likeLengths(starting, this.slots.count, this.crossFrames());
    }
    return !going.length || starting.length >= this.startGroup ? this.pending : going;
  }

  /**
   * Whether a chunk that would start alone waits for the next one being encoded (the encoder thread's
   * chunks come one after another): a group decodes until its longest chunk ends and a chunk cannot join
   * it later, so two chunks started together take the runs of the longer, where one after the other
   * take the sum (bench:asr's 1-minute call: a chunk started alone at the call's start, then the next
   * alone after it). The wait is bounded by HOLD_MS, in case the chunk expected never comes (its encode
   * failed). Holding again starts once a group has started.
   */
  private holdForCompanion(): boolean {
    if (this.following <= 0 || this.heldTooLong) return false;
    this.holding ??= setTimeout(() => {
      this.heldTooLong = true;
      this.schedule();
    }, HOLD_MS);
    // The timer must not keep a thread with nothing else to do alive.
    this.holding.unref();
    return true;
  }

  private release(): void {
    if (this.holding) clearTimeout(this.holding);
    this.holding = null;
    this.heldTooLong = false;
  }

  /**
   * Encoder frames whose cross-attention keys and values a group may hold (CROSS_BUDGET_BYTES): each
   * cross-attention input of the later model holds a chunk's frames × the hidden size in floats.
   */
  private crossFrames(): number {
    const hidden = this.pending.find((r) => r.decode.hidden)?.decode.hidden;
    const width = hidden?.dims[2];
    if (!width) return Number.POSITIVE_INFINITY;
    return Math.floor(CROSS_BUDGET_BYTES / (this.d.crossInputs.length * width * 4));
  }

  private async run(group: StepRequest[]): Promise<void> {
    const { model, d, slots } = this;
    try {
      for (const r of group) {
        if (!r.decode.hidden) continue;
        const projected = await d.cross.run({
          ...(d.crossReadsIds
            ? { input_ids: new ort.Tensor('int64', BigInt64Array.from(r.tokens, BigInt), [r.tokens.length, 1]) }
            : {}),
          encoder_hidden_states: r.decode.hidden,
        });
        r.decode.cross = Object.fromEntries(d.crossInputs.map((c) => [c.input, projected[c.output]!]));
        for (const [name, t] of Object.entries(projected)) if (!d.crossInputs.some((c) => c.output === name)) free(t);
        r.decode.hidden = null;
      }
    } catch (e) {
      for (const r of group) r.reject(e);
      return;
    }
    const sizes = group.map((r) => r.tokens.length);
    const total = sizes.reduce((a, b) => a + b, 0);
    const length = group[0]!.decode.length;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from(
          group.flatMap((r) => r.tokens),
          BigInt,
        ),
        [total, 1],
      ),
      [slots.rows]: new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: slots.count }, (_, g) => BigInt(sizes[g] ?? 0)),
        [slots.count],
      ),
    };
    for (const { input } of d.crossInputs) {
      const first = group[0]!.decode.cross[input]!;
      for (let g = 0; g < slots.count; g++)
        feeds[`${input}/slot${g}`] =
          group[g]?.decode.cross[input] ?? new ort.Tensor('float32', new Float32Array(0), [0, ...first.dims.slice(1)]);
    }
    for (const k of model.selfNames) {
      if (length === 0) {
        feeds[k] = new ort.Tensor('float32', new Float32Array(0), [total, model.heads, 0, model.headDim]);
        continue;
      }
      // Each row's cache: its parent's fed positions and the position its run added, head by head (the
      // layout is [rows, heads, positions, head size]). A buffer per run, kept as the next step's `past`
      // and freed once every decode of the run has read it (read): a kept scratch would be as large as
      // the largest step ever taken.
      const { heads, headDim } = model;
      const before = length - 1;
      const size = heads * length * headDim;
      const data = new Float32Array(total * size);
      let at = 0;
      for (const r of group) {
        const past = r.decode.past![k]!.data as Float32Array;
        const last = r.decode.last![k]!.data as Float32Array;
        for (const p of r.parents ?? [0]) {
          const row = r.decode.offset + p;
          if (before === 0) data.set(last.subarray(row * heads * headDim, (row + 1) * heads * headDim), at * size);
          else
            for (let h = 0; h < heads; h++) {
              const from = (row * heads + h) * before * headDim;
              const to = (at * heads + h) * length * headDim;
              data.set(past.subarray(from, from + before * headDim), to);
              const one = (row * heads + h) * headDim;
              data.set(last.subarray(one, one + headDim), to + before * headDim);
            }
          at++;
        }
      }
      feeds[k] = new ort.Tensor('float32', data, [total, model.heads, length, model.headDim]);
    }
    // The last step's caches are copied: freed (once every decode of their run has read its rows)
    // before this step's are allocated.
    for (const r of group) read(r.decode);
    let out: ort.InferenceSession.OnnxValueMapType;
    try {
      out = await d.later.run(feeds, this.fetches);
    } catch (e) {
      if (length > 0) for (const k of model.selfNames) free(feeds[k]);
      for (const r of group) r.reject(e);
      return;
    }
    this.runs++;
    this.chunkSteps += group.length;
    const past = Object.fromEntries(model.selfNames.map((k) => [k, feeds[k]!]));
    const last = Object.fromEntries(model.selfNames.map((k) => [k, out[lastPositionName(presentName(k))]!]));
    const logits = out.logits!;
    const outputs: RunOutputs = {
      tensors: [...Object.values(past), ...Object.values(last), logits],
      readers: group.length,
    };
    const vocab = logits.dims.at(-1)!;
    const data = logits.data as Float32Array;
    let at = 0;
    for (const r of group) {
      const n = r.tokens.length;
      r.decode.past = past;
      r.decode.last = last;
      r.decode.outputs = outputs;
      r.decode.offset = at;
      r.decode.length++;
      r.resolve(Array.from({ length: n }, (_, i) => data.subarray((at + i) * vocab, (at + i + 1) * vocab)));
      at += n;
    }
  }
}

/**
 * Up to `count` of the chunks waiting to start (in the order they came): the first, and those closest to it
 * in length (encoder frames; ties to the earlier). A batch steps until its longest chunk ends, its last steps
 * holding that chunk alone, so chunks of like length go together; the first always goes, so none waits for
 * ever however many others come.
 */
function likeLengths(starting: StepRequest[], count: number, maxFrames = Number.POSITIVE_INFINITY): StepRequest[] {
  const frames = (r: StepRequest) => r.decode.hidden?.dims[1] ?? 0;
  if (starting.length <= count && starting.reduce((a, r) => a + frames(r), 0) <= maxFrames) return starting;
  const first = frames(starting[0]!);
  // The closest in length first; one that would take the group past `maxFrames` is left for a later group.
  const closest = starting
    .slice(1)
    .map((r, i) => ({ r, i, gap: Math.abs(frames(r) - first) }))
    .sort((a, b) => a.gap - b.gap || a.i - b.i);
  const rest: typeof closest = [];
  let total = first;
  for (const c of closest) {
    if (rest.length === count - 1) break;
    if (total + frames(c.r) > maxFrames) continue;
    total += frames(c.r);
    rest.push(c);
  }
  rest.sort((a, b) => a.i - b.i);
  return [starting[0]!, ...rest.map((x) => x.r)];
}

/** `decode` has read its last run's outputs (or ended): the run's tensors are freed when no decode needs them. */
function read(decode: BatchedDecode): void {
  const outputs = decode.outputs;
  decode.past = null;
  decode.last = null;
  decode.outputs = null;
  if (outputs && --outputs.readers === 0) for (const t of outputs.tensors) free(t);
}

/**
 * A tensor's memory given back now. ONNX Runtime's outputs live in buffers outside the JavaScript heap
 * that are freed when the thread's collector finds them dead, and a recognition thread allocates so
 * little on its own heap that dead caches, logits and cross-attention inputs piled up between its
 * collections (docs/benchmarks/asr.md). Its data (a buffer of its own, never a view into a shared one) is
 * detached: the tensor must not be read again.
 */
export function free(t: ort.Tensor | undefined): void {
  if (ArrayBuffer.isView(t?.data)) detachBuffer(t.data);
}

const presentName = (past: string) => past.replace('past_key_values', 'present');

/**
 * The cross-attention keys and values a batch of chunks starting together may hold, in bytes (issue 30:
 * one worker ≤ 700 MiB). Each chunk decoding holds its own (27.7 MB for a 25 s chunk), and a full batch
 * of dense speech's 5–15 s chunks held 38–72 MB; past this budget a group starts with fewer chunks (the
 * first waiting always goes), the others in the next group. Short chunks still fill a batch.
 */
const CROSS_BUDGET_BYTES = 48e6;

/**
 * How long a lone chunk waits for the next one being encoded (StepBatcher.holdForCompanion), in ms: a
 * safety net only, for a chunk that never comes; a 15 s chunk is encoded in about 0.4 s.
 */
const HOLD_MS = 1000;

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
