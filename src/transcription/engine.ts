import type { Segment } from '../call-columns.ts';
import type { WordTiming } from './align.ts';

export type { Segment, Speaker } from '../call-columns.ts';

export interface EngineResult {
  segments: Segment[];
  language: string;
  durationSeconds: number;
}

export interface ChunkTranscript {
  text: string;
  /** Mean log-probability of the emitted tokens; comparable across models of one engine, used for language detection. */
  avgLogProb: number;
  /** Language the engine itself reported, when it detects languages. */
  language?: string;
  /** See Segment.confidence / Segment.uncertainWords. */
  confidence?: number;
  uncertainWords?: number[];
  /** The decoder heard no words on its own; the text is what it gave when made to speak (every word uncertain). */
  guessed?: boolean;
}

/** One speech-to-text backend. Chunks are 16 kHz mono speech of at most ~30 s (cut by the VAD). */
export interface TranscriptionEngine {
  readonly name: string;
  readonly languages: readonly string[];
  /** True when `transcribeChunk(samples, null)` detects the language itself and reports it. */
  readonly detectsLanguage: boolean;
  /** Chunks it recognises at the same time (default 1): transcribeFile keeps this many in flight. */
  readonly parallelism?: number;
  transcribeChunk(samples: Float32Array, language: string | null, opts?: ChunkOptions): Promise<ChunkTranscript>;
  /**
   * Where each word of `text` is said in `samples` (a chunk and what was heard in it), in seconds from
   * the chunk's start. Engines that can time words say so by having it (redaction of audio uses it).
   */
  alignChunk?(samples: Float32Array, language: string, text: string): Promise<WordTiming[]>;
  /**
   * Log-likelihood (nats) of each text as the whole transcript of `samples`, for engines that can say
   * (Moonshine: teacher-forced decoding). Criteria are then judged from the audio (src/analysis/acoustic.ts).
   * With a vocabulary, each text's score includes the boost biased decoding would give its words.
   */
  scorePhrases?(
    samples: Float32Array,
    language: string,
    texts: readonly string[],
    vocabulary?: readonly string[],
  ): Promise<number[]>;
  /** How many log-probabilities scorePhrases sums for `text` (Moonshine: its tokens and the end token). */
  scoredTokens?(text: string): number;
}

export type { WordTiming };

export interface ChunkOptions {
  /**
   * Words and phrases the call is likely to contain (the account's vocabulary, its templates'
   * phrases, agent and campaign names); an engine that can bias its decoding towards them does.
   * Pass the same array for every chunk of a call.
   */
  vocabulary?: readonly string[];
  /**
   * The voice detector is sure the chunk is its speaker talking (a turn that stood above the babble of
   * background talkers, src/audio/babble.ts). An engine whose decode ends at once on it may be asked for
   * its best guess at the words, shown as guessed (ChunkTranscript.guessed).
   */
  speech?: boolean;
}

import { TranscriptionFailure } from '../audio/failure.ts';

export { TranscriptionFailure };

export class UnsupportedLanguageError extends TranscriptionFailure {
  readonly language: string;
  constructor(language: string, supported: readonly string[]) {
    super(
      'unsupported_language',
      `No configured transcription engine covers language '${language}' (covered: ${supported.join(', ') || 'none'})`,
    );
    this.language = language;
  }
}

export class NoSpeechError extends TranscriptionFailure {
  constructor(message = 'No speech found in the recording') {
    super('no_speech', message);
  }
}

/** A backend failed (HTTP error, bad response). `retryable` tells the worker a later attempt may succeed. */
export class EngineError extends TranscriptionFailure {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: ErrorOptions) {
    super('engine_error', message, options);
    this.retryable = retryable;
  }
}
