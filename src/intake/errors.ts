import { DomainError } from '../domain/errors.ts';

/** HTTP status of every intake error code (intake document §7 and PRODUCT.md's decided table). */
export const INTAKE_STATUS: Record<string, number> = {
  bad_request: 400,
  unauthorized: 401,
  no_minutes: 402,
  not_audio: 415,
  agent_required: 422,
  unknown_agent: 422,
  ambiguous_agent: 422,
  rate_limited: 429,
  internal_error: 500,
  // Issue 16 (hostile input, intake under pressure):
  invalid_text: 400,
  request_timeout: 408,
  insufficient_storage: 507,
};

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
