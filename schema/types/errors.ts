import type { ZodError, z } from 'zod';
import { builder } from '../builder.ts';
import { DomainError, type ErrorKind } from '../../src/domain/errors.ts';

/*
 * Expected failures are typed members of each mutation's result union, chosen by the kind the error
 * catalog (src/domain/errors.ts) gives the DomainError's code. The classes below never need to be
 * thrown: `instanceof` is redefined so that the errors plugin sorts any DomainError thrown by
 * src/domain into the right GraphQL type. Anything else (a bug, a lost database) stays a GraphQL
 * error and yoga masks it.
 */
type GraphQLErrorType =
  | 'DomainError'
  | 'NotFoundError'
  | 'ValidationError'
  | 'ConflictError'
  | 'LimitError'
  | 'ForbiddenError'
  | 'InvalidCredentialsError'
  | 'RateLimitedError';

/** The GraphQL type of each error kind; `DomainError` is the generic one, chosen explicitly. */
export const GRAPHQL_TYPE_OF_KIND = {
  request: 'DomainError',
  unauthenticated: 'DomainError',
  internal: 'DomainError',
  credentials: 'InvalidCredentialsError',
  forbidden: 'ForbiddenError',
  not_found: 'NotFoundError',
  rate_limited: 'RateLimitedError',
  validation: 'ValidationError',
  conflict: 'ConflictError',
  limit: 'LimitError',
} as const satisfies Record<ErrorKind, GraphQLErrorType>;

const family = (type: GraphQLErrorType) => (value: unknown) =>
  value instanceof DomainError && GRAPHQL_TYPE_OF_KIND[value.kind] === type;

/** A GraphQL error type's class: any DomainError whose kind the catalog maps to `type` is an instance. */
const errorClass = (type: GraphQLErrorType) =>
  class extends DomainError {
    static override [Symbol.hasInstance] = family(type);
  };

export const NotFoundError = errorClass('NotFoundError');
export const ValidationError = errorClass('ValidationError');
export const ConflictError = errorClass('ConflictError');
export const LimitError = errorClass('LimitError');
export const ForbiddenError = errorClass('ForbiddenError');
export const InvalidCredentialsError = errorClass('InvalidCredentialsError');
export const RateLimitedError = errorClass('RateLimitedError');

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

/** An error type with no fields beyond the interface's `code` and `message`. */
function plainError(cls: typeof DomainError, name: GraphQLErrorType, description: string) {
  builder.objectType(cls, { name, description, interfaces: [ErrorInterface], fields: () => ({}) });
}

plainError(DomainError, 'DomainError', 'An expected failure with no more specific type.');
plainError(
  NotFoundError,
  'NotFoundError',
  'The id does not exist in your account (ids of other accounts are reported the same way).',
);
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
plainError(
  ConflictError,
  'ConflictError',
  'Clashes with existing data or state: `code_taken`, `name_taken`, `email_taken`, `last_owner`, `invitation_used`, `not_ready`, `not_transcribed`, `no_template`, `webhook_disabled`.',
);
builder.objectType(LimitError, {
  name: 'LimitError',
  description: 'A plan limit is reached: `seat_limit`, `no_minutes`, `webhook_endpoint_limit` (10 endpoints).',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    // The limit reached: `details.limit` (webhook endpoints), or the plan's seats for seat_limit.
    limit: t.int({
      nullable: true,
      resolve: (e) => {
        const limit = e.details?.limit ?? e.details?.seats;
        return typeof limit === 'number' ? limit : null;
      },
    }),
  }),
});
plainError(
  ForbiddenError,
  'ForbiddenError',
  'Allowed for your role in general but not for this target, e.g. an admin granting the owner role.',
);
plainError(
  InvalidCredentialsError,
  'InvalidCredentialsError',
  'Wrong email or password (the same answer for an unknown email), or a wrong current password.',
);
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
