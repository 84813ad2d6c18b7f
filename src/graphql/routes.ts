import type { AppContext } from '../context.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendEarlyError } from '../http/respond.ts';
import type { Route } from '../http/server.ts';
import { createGraphqlServer, GRAPHQL_PATH } from './server.ts';
import type { CallUpdatesHub } from '../lifecycle/updates.ts';

const hubs = new WeakMap<AppContext, CallUpdatesHub>();

/** The GraphQL endpoint (queries, mutations, SSE subscriptions; GraphiQL in development). */
export function graphqlRoutes(app: AppContext): Route[] {
  const { yoga, callUpdates } = createGraphqlServer(app);
  hubs.set(app, callUpdates);
  const path = new RegExp(`^${GRAPHQL_PATH}$`);
  return [
    {
      method: ['GET', 'POST', 'OPTIONS'],
      path,
      handler: async (req, res) => {
        if (req.method === 'POST') {
          const body = await readBounded(req, res, app.config.graphqlMaxBodyBytes);
          if (!body) return;
          // yoga takes a body already read from `req.body` (as behind a body-parsing framework).
          if (body.length) (req as IncomingMessage & { body?: Buffer }).body = body;
        }
        // requestListener (unlike handleNodeRequestAndResponse) also writes the response, streaming SSE.
        await yoga.requestListener(req, res);
      },
    },
  ];
}

/** The process's call_updated listener for an app (tests wait on it before making changes). */
export function callUpdatesHubOf(app: AppContext): CallUpdatesHub | undefined {
  return hubs.get(app);
}

/**
 * Reads a GraphQL body of at most `max` bytes before anything parses it (a visitor who is not
 * signed in must not make the server parse megabytes). Over the limit — declared or counted —
 * answers 413 `payload_too_large`, drains the rest (bounded) so the client reads the answer, and
 * resolves null.
 */
function readBounded(req: IncomingMessage, res: ServerResponse, max: number): Promise<Buffer | null> {
  const refuse = () =>
    sendEarlyError(
      req,
      res,
      'payload_too_large',
      `A GraphQL request must weigh at most ${max} bytes (GRAPHQL_MAX_BODY_BYTES).`,
    );
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    refuse();
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.off('end', onEnd);
        refuse();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => resolve(null));
    req.on('close', () => {
      if (!req.complete) resolve(null);
    });
  });
}
