import type { AppContext } from '../app/context.ts';
import type { Handler, Route } from './server.ts';
import { intakeRoutes } from '../intake/routes.ts';
import { appHttpRoutes } from './app-routes/index.ts';
import { graphqlRoutes } from '../graphql/routes.ts';
import { webAppFallback } from './web-app.ts';
import { opsRoutes } from '../ops/routes.ts';
import { openApiRoutes } from '../openapi/routes.ts';

/** Every HTTP route of the api role; each area contributes its own list. */
export async function buildRoutes(app: AppContext): Promise<Route[]> {
  return [...opsRoutes(app), ...intakeRoutes(app), ...openApiRoutes(app), ...appHttpRoutes(app), ...graphqlRoutes(app)];
}

/** What answers paths no route claims: the web app. */
export async function buildFallback(app: AppContext): Promise<Handler | undefined> {
  return webAppFallback(app);
}
