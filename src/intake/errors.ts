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
};

export const badRequest = (message: string) => new DomainError('bad_request', message);
