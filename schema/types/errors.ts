import type { ZodError, z } from 'zod';
import { builder } from '../builder.ts';
import { DomainError } from '../../src/domain/errors.ts';

/*
 * Expected failures are typed members of each mutation's result union, chosen by the DomainError's
 * `code`. The classes below never need to be thrown: `instanceof` is redefined so that the errors
 * plugin sorts any DomainError thrown by src/domain into the right GraphQL type by its code.
 * Anything else (a bug, a lost database) stays a GraphQL error and yoga masks it.
 */
const family = (test: (code: string) => boolean) => (value: unknown) =>
  value instanceof DomainError && test(value.code);

const isNotFound = (c: string) => c === 'not_found';
const isCredentials = (c: string) => c === 'invalid_credentials';
const isValidation = (c: string) =>
  (c.startsWith('invalid_') && !isCredentials(c)) || c === 'weak_password' || c === 'private_address';
const isConflict = (c: string) =>
  c.endsWith('_taken') ||
  ['last_owner', 'invitation_used', 'not_ready', 'not_transcribed', 'no_template', 'webhook_disabled'].includes(c);
const isLimit = (c: string) => c === 'seat_limit' || c === 'no_minutes' || c === 'webhook_endpoint_limit';
const isForbidden = (c: string) => c === 'forbidden';
const isRateLimited = (c: string) => c === 'rate_limited';

export class NotFoundError extends DomainError {
  static override [Symbol.hasInstance] = family(isNotFound);
}
export class ValidationError extends DomainError {
  static override [Symbol.hasInstance] = family(isValidation);
}
export class ConflictError extends DomainError {
  static override [Symbol.hasInstance] = family(isConflict);
}
export class LimitError extends DomainError {
  static override [Symbol.hasInstance] = family(isLimit);
}
export class ForbiddenError extends DomainError {
  static override [Symbol.hasInstance] = family(isForbidden);
}
export class InvalidCredentialsError extends DomainError {
  static override [Symbol.hasInstance] = family(isCredentials);
}
export class RateLimitedError extends DomainError {
  static override [Symbol.hasInstance] = family(isRateLimited);
}

export interface Issue {
  path: string;
  message: string;
}

/** Validates resolver input after authorisation (so a viewer learns nothing from validation messages). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(result.error);
}

export function validationError(error: ZodError): DomainError {
  const issues: Issue[] = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return new DomainError(
    'invalid_input',
    issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
    { issues },
  );
}

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description:
    'An expected failure the user can act on. `code` is stable and machine-readable; `message` is English for people.',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
  }),
});

const Issue = builder.objectRef<Issue>('ValidationIssue').implement({
  fields: (t) => ({
    path: t.exposeString('path', {
      description: 'Dotted path of the offending input, e.g. `criteria[2].weight`; empty for the whole input.',
    }),
    message: t.exposeString('message'),
  }),
});

builder.objectType(DomainError, {
  name: 'DomainError',
  description: 'An expected failure with no more specific type.',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The id does not exist in your account (ids of other accounts are reported the same way).',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
builder.objectType(ValidationError, {
  name: 'ValidationError',
  description:
    'Input is not acceptable; codes like `invalid_input`, `invalid_name`, `invalid_code`, `invalid_language`, `invalid_template`, `invalid_invitation`, `invalid_webhook_url`, `private_address`, `weak_password`.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    issues: t.field({
      type: [Issue],
      resolve: (e) => (Array.isArray(e.details?.issues) ? (e.details.issues as Issue[]) : []),
    }),
  }),
});
builder.objectType(ConflictError, {
  name: 'ConflictError',
  description:
    'Clashes with existing data or state: `code_taken`, `name_taken`, `email_taken`, `last_owner`, `invitation_used`, `not_ready`, `not_transcribed`, `no_template`, `webhook_disabled`.',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
builder.objectType(LimitError, {
  name: 'LimitError',
  description: 'A plan limit is reached: `seat_limit`, `no_minutes`, `webhook_endpoint_limit` (10 endpoints).',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    limit: t.int({ nullable: true, resolve: (e) => (typeof e.details?.seats === 'number' ? e.details.seats : null) }),
  }),
});
builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  description: 'Allowed for your role in general but not for this target, e.g. an admin granting the owner role.',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
builder.objectType(InvalidCredentialsError, {
  name: 'InvalidCredentialsError',
  description: 'Wrong email or password (the same answer for an unknown email), or a wrong current password.',
  interfaces: [ErrorInterface],
  fields: () => ({}),
});
builder.objectType(RateLimitedError, {
  name: 'RateLimitedError',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    retryAfterSeconds: t.int({ resolve: (e) => Number(e.details?.retryAfterSeconds ?? 60) }),
  }),
});

/** Every mutation lists all of them (order is irrelevant: the plugin tries subclasses before DomainError). */
export const ALL_ERRORS = [
  DomainError,
  NotFoundError,
  ValidationError,
  ConflictError,
  LimitError,
  ForbiddenError,
  InvalidCredentialsError,
  RateLimitedError,
];
