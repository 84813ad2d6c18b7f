import { OperatorFault } from '../audio/failure.ts';
import { EngineError } from '../transcription/engine.ts';

/** The operator's fault behind an error, or null when the error is something else. */
export function asOperatorFault(error: unknown): OperatorFault | null {
  if (error instanceof OperatorFault) return error;
  // Whatever the transcription API answers (down, 429, 5xx, a rejected key, a wrong URL or model),
  // it says nothing about the recording.
  if (error instanceof EngineError) return new OperatorFault('transcription_api', error.message, { cause: error });
  const e = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof e?.syscall === 'string' && e.syscall.startsWith('spawn') && (e.code === 'ENOENT' || e.code === 'EACCES'))
    return new OperatorFault(
      'decoder',
      `cannot run ${String(e.path)} (${e.code}): install it or set FFMPEG_PATH / FFPROBE_PATH`,
      { cause: error },
    );
  return null;
}

export interface FaultEntry {
  check: string;
  message: string;
  since: Date;
}

/**
 * What the workers of this process last met that only the operator can fix, by check name; shown
 * by /readyz and the admins' banner next to the checks that look at files and connections.
 * A check's entry is cleared when the same kind of work next succeeds.
 */
export class FaultBoard {
  private readonly entries = new Map<string, FaultEntry>();

  report(fault: OperatorFault): void {
    const known = this.entries.get(fault.check);
    this.entries.set(fault.check, { check: fault.check, message: fault.message, since: known?.since ?? new Date() });
  }

  clear(check: string): void {
    this.entries.delete(check);
  }

  list(): FaultEntry[] {
    return [...this.entries.values()];
  }
}

/** Seconds before a waiting call is tried again: 5 s doubling per wait, at most `maxSeconds`. */
export function operatorRetryDelaySeconds(waits: number, maxSeconds: number): number {
  return Math.min(maxSeconds, 5 * 2 ** Math.min(waits, 20));
}
