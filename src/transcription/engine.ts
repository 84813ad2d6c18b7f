/** Which side of the call a segment belongs to: stereo channels map to agent/customer, mono to 'speaker'. */
export type Speaker = 'agent' | 'customer' | 'speaker';

export interface Segment {
  start: number;
  end: number;
  speaker: Speaker;
  text: string;
  /** Index of the decoded channel the segment was heard on (0 = left / mono). */
  channel: number;
  /** The recogniser's confidence in the segment, 0–1 (absent on older calls and engines without one). */
  confidence?: number;
  /** Indexes into `text.split(' ')` of words the recogniser was unsure of (absent when none or unknown). */
  uncertainWords?: number[];
}

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
}

/** One speech-to-text backend. Chunks are 16 kHz mono speech of at most ~30 s (cut by the VAD). */
export interface TranscriptionEngine {
  readonly name: string;
  readonly languages: readonly string[];
  /** True when `transcribeChunk(samples, null)` detects the language itself and reports it. */
  readonly detectsLanguage: boolean;
  transcribeChunk(samples: Float32Array, language: string | null): Promise<ChunkTranscript>;
}

/** Base of every error that ends a transcription for good; `reason` is what the worker stores as failure_reason. */
export class TranscriptionFailure extends Error {
  readonly reason: string;
  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}

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
