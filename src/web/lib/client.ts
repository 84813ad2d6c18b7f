/**
 * The urql client: same-origin `/graphql` with the session cookie, the `x-escucha-csrf` header on
 * every request (the session's token once known, a placeholder before sign-in, as the server asks),
 * and `callUpdated` subscriptions over server-sent events (graphql-sse, distinct connections mode,
 * because EventSource cannot send the header).
 */
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import { cacheExchange, Client, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from 'urql';

export const CSRF_HEADER = 'x-escucha-csrf';
const ANONYMOUS = 'anonymous';
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
export function getCsrfToken(): string {
  return csrfToken ?? ANONYMOUS;
}
export function csrfHeaders(): Record<string, string> {
  return { [CSRF_HEADER]: getCsrfToken() };
}

/** Codes of GraphQL errors (extensions.code) in a combined error. */
export function errorCodes(error: CombinedError | undefined): string[] {
  return (error?.graphQLErrors ?? []).map((e) => String((e.extensions as { code?: unknown } | undefined)?.code ?? ''));
}

export function createGraphqlClient(opts: { onUnauthenticated: () => void }): { client: Client; dispose: () => void } {
  let sse: SseClient | null = null;
  const sseClient = () =>
    (sse ??= createSseClient({
      url: '/graphql',
      credentials: 'same-origin',
      headers: () => csrfHeaders(),
      retryAttempts: 1000,
      retry: async (retries) => new Promise((r) => setTimeout(r, Math.min(15_000, 500 * 2 ** Math.min(retries, 5)))),
    }));
  const client = new Client({
    url: '/graphql',
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ credentials: 'same-origin', headers: csrfHeaders() }),
    exchanges: [
      mapExchange({
        onError(error) {
          if (errorCodes(error).includes('UNAUTHENTICATED')) opts.onUnauthenticated();
        },
      }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              const unsubscribe = sseClient().subscribe(input, sink as never);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return { client, dispose: () => sse?.dispose() };
}
