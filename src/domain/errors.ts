/**
 * The error catalog: every error code Escucha answers with, its kind and its HTTP status. GraphQL
 * error types (schema/types/errors.ts), HTTP statuses (src/http/respond.ts) and CLI exit codes
 * (src/cli/run.ts) are derived from the kind, each through a `Record<ErrorKind, …>`, so a new kind
 * must be placed everywhere before it compiles, and `DomainError` only takes codes listed here.
 *
 * Adding a code is one line here: `code: { kind, status }` (and, when it is new to clients, a line
 * in the docs' tables).
 */
export const ERRORS = {
  // The request as a whole is malformed (intake document §7).
  bad_request: { kind: 'request', status: 400 },
  method_not_allowed: { kind: 'request', status: 405 },
  range_not_satisfiable: { kind: 'request', status: 416 },
  not_audio: { kind: 'request', status: 415 },
  // Hostile or stalled input (issue 16): the client sent too much, too slowly, or broken text.
  payload_too_large: { kind: 'request', status: 413 },
  request_timeout: { kind: 'request', status: 408 },
  headers_too_large: { kind: 'request', status: 431 },

  unauthorized: { kind: 'unauthenticated', status: 401 },
  invalid_credentials: { kind: 'credentials', status: 401 },
  forbidden: { kind: 'forbidden', status: 403 },
  csrf: { kind: 'forbidden', status: 403 },
  not_found: { kind: 'not_found', status: 404 },
  rate_limited: { kind: 'rate_limited', status: 429 },

  // Input a user can correct, field by field.
  invalid_input: { kind: 'validation', status: 400 },
  invalid_name: { kind: 'validation', status: 400 },
  invalid_code: { kind: 'validation', status: 400 },
  invalid_email: { kind: 'validation', status: 400 },
  invalid_invitation: { kind: 'validation', status: 400 },
  invalid_language: { kind: 'validation', status: 400 },
  invalid_template: { kind: 'validation', status: 400 },
  invalid_webhook_url: { kind: 'validation', status: 400 },
  invalid_time_zone: { kind: 'validation', status: 400 },
  invalid_agent_channel: { kind: 'validation', status: 400 },
  invalid_score_bands: { kind: 'validation', status: 400 },
  invalid_period: { kind: 'validation', status: 400 },
  invalid_plan: { kind: 'validation', status: 400 },
  invalid_search: { kind: 'validation', status: 400 },
  invalid_cursor: { kind: 'validation', status: 400 },
  weak_password: { kind: 'validation', status: 400 },
  private_address: { kind: 'validation', status: 400 },
  // NUL or broken Unicode in a text (details.field names it).
  invalid_text: { kind: 'validation', status: 400 },
  invalid_event_types: { kind: 'validation', status: 400 },
  invalid_rate: { kind: 'validation', status: 400 },
  invalid_since: { kind: 'validation', status: 400 },
  // Retention periods are whole days from 1 to 36,500, or empty (keep).
  invalid_retention: { kind: 'validation', status: 400 },
  invalid_dispute_window: { kind: 'validation', status: 400 },
  // Intake's agent rules (intake document §7: 422).
  agent_required: { kind: 'validation', status: 422 },
  unknown_agent: { kind: 'validation', status: 422 },
  ambiguous_agent: { kind: 'validation', status: 422 },

  // Clashes with existing data or state.
  code_taken: { kind: 'conflict', status: 409 },
  name_taken: { kind: 'conflict', status: 409 },
  email_taken: { kind: 'conflict', status: 409 },
  last_owner: { kind: 'conflict', status: 409 },
  invitation_used: { kind: 'conflict', status: 409 },
  not_ready: { kind: 'conflict', status: 409 },
  not_transcribed: { kind: 'conflict', status: 409 },
  no_template: { kind: 'conflict', status: 409 },
  webhook_disabled: { kind: 'conflict', status: 409 },
  // A bulk deletion was confirmed for a count that no longer matches the filter (details.count).
  count_changed: { kind: 'conflict', status: 409 },
  // Retention removed the recording; the call itself stays (410 Gone on download).
  recording_deleted: { kind: 'not_found', status: 410 },
  // Agents' acknowledgements and disputes (src/review/disputes.ts).
  dispute_window_closed: { kind: 'conflict', status: 409 },
  already_disputed: { kind: 'conflict', status: 409 },
  dispute_closed: { kind: 'conflict', status: 409 },
  coaching_done: { kind: 'conflict', status: 409 },
  calibration_closed: { kind: 'conflict', status: 409 },

  // Plan limits.
  no_minutes: { kind: 'limit', status: 402 },
  seat_limit: { kind: 'limit', status: 402 },
  webhook_endpoint_limit: { kind: 'limit', status: 409 },

  internal_error: { kind: 'internal', status: 500 },
  // Our disk is full or failing: not the client's fault; answered with Retry-After.
  insufficient_storage: { kind: 'internal', status: 507 },
} as const satisfies Record<string, { kind: ErrorKind; status: number }>;

/** What the client can do about it; each kind maps to one GraphQL type and one CLI exit code. */
export type ErrorKind =
  | 'request'
  | 'unauthenticated'
  | 'credentials'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'validation'
  | 'conflict'
  | 'limit'
  | 'internal';

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);
export const httpStatusOf = (code: ErrorCode): number => ERRORS[code].status;
export const kindOf = (code: ErrorCode): ErrorKind => ERRORS[code].kind;

/** An expected failure a user can fix; `code` is stable and machine-readable. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
    this.name = 'DomainError';
  }

  get kind(): ErrorKind {
    return kindOf(this.code);
  }

  get status(): number {
    return httpStatusOf(this.code);
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);

/** What a lookup found, or `not_found` naming what was looked for. */
export async function found<T>(lookup: PromiseLike<T | null>, what: string): Promise<T> {
  const row = await lookup;
  if (!row) throw notFound(what);
  return row;
}
