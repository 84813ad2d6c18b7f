import { clientIp } from '../http/client-ip.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, getOperationAST } from '../../schema/graphql-js.ts';
import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import { depthLimit } from './depth-limit.ts';
import { hostileInputPlugin } from './hostile-input.ts';
import { checkCsrf, CSRF_HEADER, getSession } from '../auth/session.ts';
import { schema } from '../../schema/index.ts';
import type { GraphQLContext } from '../../schema/context.ts';
import { CallUpdatesHub } from '../lifecycle/updates.ts';
import { Listener } from '../db/listener.ts';

export const GRAPHQL_PATH = '/graphql';

interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * CSRF, in two layers:
 * 1. Every request to the endpoint must carry `x-escucha-csrf` (any value). A cross-site form or
 *    <img> cannot set a custom header, and a cross-site fetch that does needs a CORS preflight,
 *    which this endpoint never grants (cors: false). This also covers sign-in (login CSRF).
 * 2. A mutation sent with a session cookie must carry that session's own csrf token. This stops
 *    same-site attackers (a sibling subdomain defeats SameSite=Lax) who could otherwise send the
 *    header: they cannot read the token, which only a same-origin response reveals.
 * Subscriptions therefore need a fetch-based SSE client; EventSource cannot send headers.
 */
function csrfPlugin(allowGraphiqlPage: boolean): Plugin<GraphQLContext> {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== GRAPHQL_PATH) return;
      if (allowGraphiqlPage && request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html'))
        return;
      if (!request.headers.get(CSRF_HEADER)) {
        endResponse(
          new fetchAPI.Response(
            JSON.stringify({ errors: [{ message: `Missing ${CSRF_HEADER} header.`, extensions: { code: 'CSRF' } }] }),
            {
              status: 403,
              headers: { 'Content-Type': 'application/json; charset=utf-8' },
            },
          ),
        );
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as GraphQLContext;
      const op = getOperationAST(args.document, args.operationName);
      if (op?.operation !== 'mutation' || !ctx.session) return;
      if (!checkCsrf(ctx.session, ctx.request)) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(`The ${CSRF_HEADER} header does not match this session; reload the session's csrfToken.`, {
              extensions: { code: 'CSRF', http: { status: 403 } },
            }),
          ],
        });
      }
    },
  };
}

/**
 * A mutation may change what this process keeps in memory for its account: the lists the calls
 * filters show (src/calls/filter-options-cache.ts) and its users' sessions (a user removed or
 * demoted, a sign-out; src/auth/session-cache.ts). The database announces every such change, but
 * the request that follows a mutation must not race that notification: a mutation drops its
 * account's entries in this process before it runs and again once it is done.
 */
function forgetCachesOnMutation(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as GraphQLContext;
      const { filterOptions, sessions } = ctx.app;
      if (!ctx.session || getOperationAST(args.document, args.operationName)?.operation !== 'mutation') return;
      const accountId = ctx.session.user.accountId;
      const forget = () => {
        filterOptions?.forget(accountId);
        sessions?.forgetAccount(accountId);
      };
      forget();
      return { onExecuteDone: forget };
    },
  };
}

export function createGraphqlServer(app: AppContext): {
  yoga: YogaServerInstance<ServerContext, GraphQLContext>;
  callUpdates: CallUpdatesHub;
} {
  if (!app.config.databaseUrl) throw new Error('GraphQL subscriptions need config.databaseUrl');
  // The process's shared LISTEN connection; an app built without one (tests) gets its own.
  const listener = app.listener ?? new Listener(app.config.databaseDirectUrl ?? app.config.databaseUrl, app.log);
  const callUpdates = new CallUpdatesHub(listener, app.log);
  const dev = app.config.env === 'development';
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // Same-origin web app only: reflecting any Origin (yoga's default) would let other sites read
    // responses with the user's cookie, csrf token included.
    cors: false,
    graphiql: dev
      ? {
          title: 'Escucha GraphQL',
          headers: JSON.stringify({ [CSRF_HEADER]: 'paste session.csrfToken for mutations' }),
        }
      : false,
    landingPage: false,
    logging: false,
    maskedErrors: {
      // Unexpected errors reach clients as "Unexpected error." with code INTERNAL_SERVER_ERROR; the detail goes to the log only.
      maskError: (error, message) => {
        const original = isGraphQLError(error) ? error.originalError : error;
        if (isGraphQLError(error) && (!original || isGraphQLError(original))) return error;
        const path = isGraphQLError(error) ? error.path : undefined;
        // An expected failure outside a mutation's typed result (a bad cursor, an overlong search)
        // is the client's to fix: it keeps its message and code instead of being masked.
        if (original instanceof DomainError) {
          return new GraphQLError(original.message, { ...(path ? { path } : {}), extensions: { code: original.code } });
        }
        app.log.error({ err: original ?? error }, 'graphql resolver error');
        return new GraphQLError(message, { ...(path ? { path } : {}), extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    // 15: the standard introspection query (GraphiQL, codegen) is 14 deep; schema fields stop at 12.
    plugins: [csrfPlugin(dev), forgetCachesOnMutation(), depthLimit(15), hostileInputPlugin(app.config)],
    context: async ({ request, req, res }): Promise<GraphQLContext> => {
      const session = await getSession(app, req, res);
      return {
        app,
        request,
        res,
        ip: clientIp(req, app.config),
        // Set by src/http/server.ts before any handler runs.
        requestId: String(res.getHeader('X-Request-Id') ?? ''),
        session,
        callUpdates,
        setCookie: (value) => {
          if (!res.headersSent) res.appendHeader('Set-Cookie', value);
        },
      };
    },
  });
  return { yoga, callUpdates };
}

// Duck-typed on purpose: graphql ships CJS and ESM builds, and a test runner may load both, so an
// error from one copy is not `instanceof` the other's GraphQLError.
function isGraphQLError(error: unknown): error is GraphQLError {
  return (
    error instanceof Error &&
    (error.name === 'GraphQLError' || error instanceof GraphQLError || ('extensions' in error && 'locations' in error))
  );
}
