import type { AppContext } from '../app/context.ts';
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
