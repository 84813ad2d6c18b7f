import type { Logger } from '../log.ts';

/**
 * How an upload that did not become a call ended: the client went away, was too slow, or was
 * refused before or while sending (the code is the error code it was answered with).
 */
export type IntakeOutcome =
  | { outcome: 'aborted' }
  | { outcome: 'timed_out'; code: 'request_timeout' }
  | { outcome: 'refused'; code: string; status: number };

/**
 * The one place aborted, timed-out and refused uploads are reported: an info line with the request
 * id (from the log context) and the outcome, so an operator sees an attack or a flaky network.
 * Issue 9's metrics counter (escucha_intake_outcomes_total) hangs here too.
 */
export function reportIntakeOutcome(log: Logger, route: string, o: IntakeOutcome, requestId?: string): void {
  log.info({ route, requestId, ...o }, `upload ${o.outcome}`);
}

/**
 * Storage faults (full disk, read-only or failing volume) are logged once as an operator alert,
 * not once per request; a later successful write re-arms the alert.
 */
export class StorageAlert {
  private raised = false;
  private readonly log: Logger;
  constructor(log: Logger) {
    this.log = log;
  }
  fault(err: unknown, context: Record<string, unknown> = {}): void {
    if (this.raised) return;
    this.raised = true;
    this.log.error(
      { err, alert: 'storage', ...context },
      'ALERT storage cannot write recordings (disk full or failing): intake answers 507 until it recovers',
    );
  }
  recovered(): void {
    if (!this.raised) return;
    this.raised = false;
    this.log.warn({ alert: 'storage' }, 'storage writes work again: intake accepts recordings');
  }
}

/** Errors of the disk itself rather than of the request (ENOSPC and friends). */
export function isStorageFault(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('code' in error)) return false;
  return ['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG', 'EMFILE', 'ENFILE', 'EACCES', 'EPERM'].includes(
    String((error as { code: unknown }).code),
  );
}
