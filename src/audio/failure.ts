/**
 * Base of every error that ends a transcription for good; `reason` is what the worker stores as
 * failure_reason. It lives with the audio code (which raises `undecodable` and `too_long`) so that
 * src/transcription depends on src/audio and never the other way round.
 */
export class TranscriptionFailure extends Error {
  readonly reason: string;
  /**
   * The recording's length when it was known before the verdict (probed or decoded): a failed call
   * still shows how long it is. Set by whoever knows it (the decoder, transcribeFile).
   */
  durationSeconds?: number;
  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}

/**
 * Something the operator has to fix (a missing model or decoder, an unreachable or misconfigured
 * transcription API, an unreadable storage folder), not a verdict on the recording. A call that meets
 * one waits in the queue and is retried with backoff; it is never failed for it.
 * `check` names the readiness check that reports the same problem (see src/ops/readiness.ts). It lives here, below
 * every module that raises it (audio, transcription, workers).
 */
export class OperatorFault extends Error {
  readonly check: string;
  constructor(check: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'OperatorFault';
    this.check = check;
  }
}
