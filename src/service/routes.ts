import type { AppContext } from '../context.ts';
import type { Handler, Route } from '../http/server.ts';
import { intakeRoutes } from '../intake/routes.ts';
import { auditExportRoute } from '../export/audit-route.ts';
import { exportRoute } from '../export/calls-route.ts';
import { reportExportRoute } from '../reports/reports-route.ts';
import { recordingRoute } from '../calls/recording-route.ts';
import { uploadRoute } from '../intake/upload.ts';
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
    // The web app's endpoints beside GraphQL (session cookie): byte streams and multipart that
    // GraphQL is not made for — CSV exports, the recording, manual upload.
    exportRoute(app),
    reportExportRoute(app),
    auditExportRoute(app),
    recordingRoute(app),
    uploadRoute(app),
    ...graphqlRoutes(app),
  ];
}

/** What answers paths no route claims: the web app. */
export async function buildFallback(app: AppContext): Promise<Handler | undefined> {
  return webAppFallback(app);
}
