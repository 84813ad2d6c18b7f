import type { AppContext } from '../app/context.ts';
import type { Handler, Route } from '../http/server.ts';
import { intakeRoutes } from '../http/intake-routes.ts';
import { appHttpRoutes } from '../http/app-routes/index.ts';
import { graphqlRoutes } from '../graphql/routes.ts';
import { webAppFallback } from '../http/web-app.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { opsRoutes } from '../ops/routes.ts';
import { openApiRoutes } from '../openapi/routes.ts';

/** Every HTTP route of the api role; each area contributes its own list. */
export async function buildRoutes(app: AppContext): Promise<Route[]> {
  return [
    ...opsRoutes(app),
    ...intakeRoutes(app),
    ...openApiRoutes(app),
    ...webhookRoutes(),
    ...appHttpRoutes(app),
    ...graphqlRoutes(app),
  ];
}

/** What answers paths no route claims: the web app. */
export async function buildFallback(app: AppContext): Promise<Handler | undefined> {
  return webAppFallback(app);
}
