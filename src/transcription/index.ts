import type { TranscriptionEngine } from './engine.ts';
import { DEFAULT_BATCH } from './beam.ts';
import { MoonshineThreads } from './moonshine-threads.ts';
import { OpenAiEngine } from './openai.ts';

export * from './engine.ts';
export { transcribeFile, coveredLanguages, type TranscribeOptions, type TranscribeResult } from './transcribe.ts';
export { resolveModelsDir } from './models.ts';
export { UndecodableAudioError, TooLongError } from '../audio/decode.ts';
export { warmVoiceDetection } from '../audio/vad.ts';
export { trimUnavailable } from './heap-trim.ts';
export { graphCacheUnwritable } from './graph-cache.ts';

export interface TranscriptionConfig {
  /** 'openai' alone means no local models unless `moonshineLanguages` lists some. */
  engine: 'moonshine' | 'openai';
  modelsDir: string;
  /**
   * Languages the local Moonshine models serve. A listed language whose model is missing is the
   * operator's fault (the call waits); unset = the model folders present now.
   */
  moonshineLanguages?: readonly string[];
  /**
   * Recognition threads (ASR_THREADS), each with its own sessions; default one when batching, else one
   * per core, at most 4.
   */
  threads?: number;
  /** Chunks decoded together per decoder step (ASR_BATCH; 0 or 1 = each alone); default DEFAULT_BATCH. */
  batch?: number;
  /** Batched, the encoder on a thread of its own (ASR_ENCODER_THREAD); default on. */
  encoderThread?: boolean;
  /** Beam width of local decoding (1 = greedy) and the vocabulary boost per token. */
  beam?: number;
  biasBoost?: number;
  /** The API also takes every language the local models do not (tried after them). */
  openai?: { baseUrl: string; apiKey?: string | undefined; model: string; languages?: readonly string[] };
}

/**
 * The engine list for `transcribeFile`; Moonshine models are loaded only when first used, on recognition
 * threads that do not keep the process alive while idle (`closeEngines` stops them at once).
 */
export function createEngines(config: TranscriptionConfig): TranscriptionEngine[] {
  const engines: TranscriptionEngine[] = [];
  const local = config.moonshineLanguages ? config.moonshineLanguages.length > 0 : config.engine === 'moonshine';
  if (local)
    engines.push(
      new MoonshineThreads({
        modelsDir: config.modelsDir,
        ...(config.moonshineLanguages ? { languages: config.moonshineLanguages } : {}),
        ...(config.threads ? { threads: config.threads } : {}),
        batch: config.batch ?? DEFAULT_BATCH,
        ...(config.encoderThread !== undefined ? { encoderThread: config.encoderThread } : {}),
        ...(config.beam ? { beam: config.beam } : {}),
        ...(config.biasBoost !== undefined ? { biasBoost: config.biasBoost } : {}),
      }),
    );
  if (config.openai) engines.push(new OpenAiEngine(config.openai));
  else if (config.engine === 'openai')
    throw new Error("Transcription engine 'openai' needs openai.baseUrl and openai.model");
  return engines;
}

/** Stops the engines' threads (MoonshineThreads); others have nothing to stop. */
export async function closeEngines(engines: readonly TranscriptionEngine[]): Promise<void> {
  await Promise.all(engines.map((e) => (e instanceof MoonshineThreads ? e.close() : undefined)));
}
