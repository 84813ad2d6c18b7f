/**
 * Base of every error that ends a transcription for good; `reason` is what the worker stores as
 * failure_reason. It lives with the audio code (which raises `undecodable` and `too_long`) so that
 * src/transcription depends on src/audio and never the other way round.
 */
export class TranscriptionFailure extends Error {
  readonly reason: string;
  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}
