import { DomainError } from '../domain/errors.ts';

/** A field carried NUL or broken Unicode (details.field names it). */
export const INVALID_TEXT = 'invalid_text';
/** The client sent nothing for INTAKE_IDLE_TIMEOUT_SECONDS, or too little over a minute. */
export const requestTimeout = (message: string) => new DomainError('request_timeout', message);
/** Our disk is full or failing: the client should retry later (Retry-After), it did nothing wrong. */
export const insufficientStorage = () =>
  new DomainError(
    'insufficient_storage',
    'The service cannot store recordings right now; nothing was kept or charged. Retry later.',
  );

export const badRequest = (message: string) => new DomainError('bad_request', message);
