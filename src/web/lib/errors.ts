/**
 * API failures in words a manager understands. Mutations answer expected failures as typed results
 * (`… on Error { code message }`); those codes have a translation under `errors.<code>`, and the
 * server's English message is the fallback. Transport and GraphQL errors get generic wording.
 */
import type { CombinedError, OperationResult } from 'urql';
import { hasKey, type I18n } from '../i18n/index.tsx';

export interface ApiError {
  code: string;
  message: string;
  issues?: readonly { path: string; message: string }[];
  retryAfterSeconds?: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

type WithCode = { code: string; message: string };
type Success<T> = T extends WithCode ? never : T;

function fromCombined(error: CombinedError): ApiError {
  if (error.networkError) return { code: 'network', message: error.networkError.message };
  const first = error.graphQLErrors[0];
  const code = String((first?.extensions as { code?: unknown } | undefined)?.code ?? 'graphql');
  return { code, message: first?.message ?? error.message };
}

/** Splits a mutation answer into its success object or a failure (typed error, GraphQL error, network). */
export function outcome<D, K extends keyof D>(
  res: OperationResult<D, any>,
  field: K,
): Outcome<Success<NonNullable<D[K]>>> {
  if (res.error) return { ok: false, error: fromCombined(res.error) };
  const value = res.data?.[field];
  if (value == null) return { ok: false, error: { code: 'graphql', message: 'No answer from the server.' } };
  if (typeof value === 'object' && 'code' in value && 'message' in value)
    return { ok: false, error: value as unknown as ApiError };
  return { ok: true, value: value as Success<NonNullable<D[K]>> };
}

export function queryError(error: CombinedError | undefined): ApiError | null {
  return error ? fromCombined(error) : null;
}

/** GraphQL's own error codes, as the error catalog names the same failures. */
const GRAPHQL_CODES = new Map([
  ['UNAUTHENTICATED', 'session_expired'],
  ['FORBIDDEN', 'forbidden_role'],
  ['INTERNAL_SERVER_ERROR', 'internal'],
]);

/** The sentence to show for a failure, in the UI language. */
export function describeError(i18n: Pick<I18n, 't'>, error: ApiError | CombinedError | null | undefined): string {
  if (!error) return '';
  const e: ApiError = 'graphQLErrors' in error ? fromCombined(error) : error;
  const code = GRAPHQL_CODES.get(e.code) ?? e.code;
  const key = `errors.${code}`;
  if (hasKey(key)) {
    const minutes = e.retryAfterSeconds ? Math.max(1, Math.ceil(e.retryAfterSeconds / 60)) : 1;
    return i18n.t(key, { minutes });
  }
  // A typed domain failure has a message written for people; anything else (GraphQL validation,
  // query limits) is technical, so the user gets a plain sentence instead.
  return /^[a-z][a-z_]*$/.test(e.code) && e.code !== 'graphql' && e.message
    ? e.message
    : i18n.t(e.code === 'network' ? 'errors.network' : 'errors.graphql');
}

/** Validation issues keyed by path (`criteria[2].weight`), for showing next to fields. */
export function issuesByPath(error: ApiError | null): Map<string, string> {
  const m = new Map<string, string>();
  for (const i of error?.issues ?? []) if (!m.has(i.path)) m.set(i.path, i.message);
  return m;
}
