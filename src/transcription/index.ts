import type { TranscriptionEngine } from './engine.ts';
import { MoonshineEngine } from './moonshine.ts';
import { OpenAiEngine } from './openai.ts';

export * from './engine.ts';
export { transcribeFile, coveredLanguages, type TranscribeOptions, type TranscribeResult } from './transcribe.ts';
export { resolveModelsDir } from './models.ts';
export { UndecodableAudioError, TooLongError } from '../audio/decode.ts';

export interface TranscriptionConfig {
  engine: 'moonshine' | 'openai';
  modelsDir: string;
  /** Threads per Moonshine ONNX session; leave unset to share the cores among `concurrency` jobs. */
  intraOpThreads?: number;
  /** Transcriptions that run at the same time (WORKER_CONCURRENCY). */
  concurrency?: number;
  openai?: { baseUrl: string; apiKey?: string | undefined; model: string; languages?: readonly string[] };
}

/** The engine list for `transcribeFile`; Moonshine models are loaded only when first used. */
export function createEngines(config: TranscriptionConfig): TranscriptionEngine[] {
  if (config.engine === 'openai') {
    if (!config.openai) throw new Error("Transcription engine 'openai' needs openai.baseUrl and openai.model");
    return [new OpenAiEngine(config.openai)];
  }
  return [
    new MoonshineEngine({
      modelsDir: config.modelsDir,
      ...(config.intraOpThreads ? { intraOpThreads: config.intraOpThreads } : {}),
      ...(config.concurrency ? { concurrency: config.concurrency } : {}),
    }),
  ];
}
