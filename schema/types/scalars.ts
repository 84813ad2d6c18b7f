import { GraphQLError, Kind } from '../graphql-js.ts';
import { builder } from '../builder.ts';

builder.scalarType('DateTime', {
  description: 'An instant as an ISO 8601 string with offset, e.g. `2024-01-15T10:30:00.000Z`.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string.');
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  // An offset is required: a bare local time would silently mean the server's time zone.
  if (typeof value !== 'string' || !/(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) {
    throw new GraphQLError('DateTime must be an ISO 8601 string with an offset (Z or ±hh:mm).');
  }
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new GraphQLError(`"${value}" is not a valid DateTime.`);
  return d;
}

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
