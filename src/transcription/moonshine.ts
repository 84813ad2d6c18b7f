import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import llamaTokenizer from 'llama-tokenizer-js';
import type { ChunkTranscript, TranscriptionEngine } from './engine.ts';
import { UnsupportedLanguageError } from './engine.ts';
import { OperatorFault } from '../audio/failure.ts';

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
}

interface Model {
  encoder: ort.InferenceSession;
  decoder: ort.InferenceSession;
  /** Decoder past-key-value inputs per layer, e.g. `past_key_values.0.decoder.key`. */
  pastNames: string[];
  heads: number;
  headDim: number;
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

  constructor(opts: MoonshineOptions) {
    this.opts = opts;
    this.languages = opts.languages ?? moonshineLanguages(opts.modelsDir);
  }

  async transcribeChunk(samples: Float32Array, language: string | null): Promise<ChunkTranscript> {
    if (!language || !this.languages.includes(language))
      throw new UnsupportedLanguageError(language ?? 'auto', this.languages);
    const model = await this.model(language);
    const { last_hidden_state: hidden } = await model.encoder.run({
      input_values: new ort.Tensor('float32', samples, [1, samples.length]),
    });
    const maxTokens = Math.max(MIN_TOKENS, Math.ceil((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
    const { tokens, logProbs } = await greedyDecode(model, hidden!, maxTokens);
    // Moonshine's vocabulary is Llama's 32000 pieces plus unused padding ids; those never carry text.
    const known = tokens.filter((t) => t > EOS_TOKEN && t < llamaTokenizer.vocabById.length);
    const text = known.length ? llamaTokenizer.decode(known, false, true).trim() : '';
    const logProbSum = logProbs.reduce((a, b) => a + b, 0);
    return {
      text,
      avgLogProb: tokens.length ? logProbSum / tokens.length : -Infinity,
      ...(text ? wordConfidence(text, tokens, logProbs) : {}),
    };
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
      model = loadModel(dir, this.threads()).catch((err: unknown) => {
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

async function loadModel(dir: string, threads: number): Promise<Model> {
  // The graphs are sequential: inter-op threads would only add hand-offs.
  const options: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  };
  const [encoder, decoder] = await Promise.all([
    ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options),
    ort.InferenceSession.create(path.join(dir, 'decoder_model_merged.onnx'), options),
  ]);
  const pastNames = decoder.inputNames.filter((n) => n.startsWith('past_key_values.'));
  // Shape [batch, heads, seq, headDim]; read from the model so en and es (or other sizes) need no constants.
  const meta = decoder.inputMetadata.find((m) => m.name === pastNames[0]);
  const shape = meta?.isTensor ? meta.shape : [];
  const [heads, headDim] = [shape[1], shape[3]];
  if (typeof heads !== 'number' || typeof headDim !== 'number')
    throw new Error(`Unexpected decoder cache shape in ${dir}`);
  return { encoder, decoder, pastNames, heads, headDim };
}

/**
 * Greedy decoding with the merged decoder: the first step runs the no-cache branch (empty past) and yields
 * the cross-attention keys/values, which are reused as-is; later steps feed one token and the self-attention cache.
 */
async function greedyDecode(
  model: Model,
  hidden: ort.Tensor,
  maxTokens: number,
): Promise<{ tokens: number[]; logProbs: number[] }> {
  const empty = new ort.Tensor('float32', new Float32Array(0), [1, model.heads, 0, model.headDim]);
  const past: Record<string, ort.Tensor> = Object.fromEntries(model.pastNames.map((n) => [n, empty]));
  const tokens: number[] = [];
  const logProbs: number[] = [];
  // Reused every step: ONNX Runtime copies inputs in, so one buffer serves the whole chunk.
  const ids = new BigInt64Array(1);
  const inputIds = new ort.Tensor('int64', ids, [1, 1]);
  const firstStep = new ort.Tensor('bool', [false], [1]);
  const laterStep = new ort.Tensor('bool', [true], [1]);
  let next = START_TOKEN;
  for (let step = 0; step < maxTokens; step++) {
    ids[0] = BigInt(next);
    const out = await model.decoder.run({
      input_ids: inputIds,
      encoder_hidden_states: hidden,
      use_cache_branch: step > 0 ? laterStep : firstStep,
      ...past,
    });
    const logits = out.logits!;
    const vocab = logits.dims.at(-1)!;
    const data = logits.data as Float32Array;
    const row = data.subarray(data.length - vocab);
    const { index, logProb } = argmaxLogProb(row);
    for (const name of model.pastNames) {
      if (step > 0 && name.includes('.encoder.')) continue;
      past[name] = out[name.replace('past_key_values', 'present')]!;
    }
    if (index === EOS_TOKEN) break;
    tokens.push(index);
    logProbs.push(logProb);
    next = index;
  }
  return { tokens, logProbs };
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

function argmaxLogProb(row: Float32Array): { index: number; logProb: number } {
  let index = 0;
  for (let i = 1; i < row.length; i++) if (row[i]! > row[index]!) index = i;
  const max = row[index]!;
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += Math.exp(row[i]! - max);
  return { index, logProb: -Math.log(sum) };
}
