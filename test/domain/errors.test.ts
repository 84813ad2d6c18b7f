// The error catalog is the one table: every code has a kind and a status, and each of GraphQL,
// HTTP and the CLI derives its answer from it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE } from '../../src/cli/run.ts';
import { DomainError, ERRORS, type ErrorCode } from '../../src/domain/errors.ts';
import {
  ConflictError,
  ForbiddenError,
  GRAPHQL_TYPE_OF_KIND,
  InvalidCredentialsError,
  LimitError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from '../../schema/types/errors.ts';

const CLASSES = {
  NotFoundError,
  ValidationError,
  ConflictError,
  LimitError,
  ForbiddenError,
  InvalidCredentialsError,
  RateLimitedError,
};
const codes = Object.keys(ERRORS) as ErrorCode[];

describe('error catalog', () => {
  it('sorts each code into exactly the GraphQL type of its kind, or only the generic DomainError', () => {
    for (const code of codes) {
      const error = new DomainError(code, 'x');
      const matching = Object.entries(CLASSES)
        .filter(([, cls]) => error instanceof cls)
        .map(([name]) => name);
      const expected = GRAPHQL_TYPE_OF_KIND[ERRORS[code].kind];
      expect({ code, types: matching }).toEqual({ code, types: expected === 'DomainError' ? [] : [expected] });
    }
  });

  it('keeps the GraphQL types of the codes mutations have always returned', () => {
    const typeOf = (code: ErrorCode) =>
      Object.entries(CLASSES).find(([, cls]) => new DomainError(code, 'x') instanceof cls)?.[0] ?? 'DomainError';
    expect(
      Object.fromEntries(
        (
          [
            'not_found',
            'invalid_name',
            'weak_password',
            'private_address',
            'invalid_credentials',
            'code_taken',
            'not_ready',
            'seat_limit',
            'no_minutes',
            'forbidden',
            'rate_limited',
            'bad_request',
          ] as const
        ).map((c) => [c, typeOf(c)]),
      ),
    ).toEqual({
      not_found: 'NotFoundError',
      invalid_name: 'ValidationError',
      weak_password: 'ValidationError',
      private_address: 'ValidationError',
      invalid_credentials: 'InvalidCredentialsError',
      code_taken: 'ConflictError',
      not_ready: 'ConflictError',
      seat_limit: 'LimitError',
      no_minutes: 'LimitError',
      forbidden: 'ForbiddenError',
      rate_limited: 'RateLimitedError',
      bad_request: 'DomainError',
    });
  });

  it('gives every code an error status and every kind a CLI exit code', () => {
    for (const code of codes) {
      expect(ERRORS[code].status, code).toBeGreaterThanOrEqual(400);
      expect(ERRORS[code].status, code).toBeLessThan(600);
      expect(EXIT_CODE[ERRORS[code].kind], code).toBeGreaterThan(0);
    }
  });

  it('answers the intake codes with the statuses of the intake table (docs/api/intake.md)', () => {
    const readme = readFileSync(new URL('../../docs/api/intake.md', import.meta.url), 'utf8');
    const table = readme.slice(0, readme.indexOf('Every response carries'));
    let rows = 0;
    for (const line of table.split('\n')) {
      const status = /\|\s*(\d{3})\b[^|]*\|\s*([^|]*)\|\s*$/.exec(line);
      if (!status || status[1]!.startsWith('2')) continue;
      for (const [, code] of status[2]!.matchAll(/`([a-z_]+)`/g)) {
        rows++;
        expect({ code, status: ERRORS[code as ErrorCode]?.status }).toEqual({ code, status: Number(status[1]) });
      }
    }
    expect(rows).toBeGreaterThanOrEqual(9);
  });
});
