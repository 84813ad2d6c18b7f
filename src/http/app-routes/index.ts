import type { AppContext } from '../../app/context.ts';
import type { Route } from '../server.ts';
import { exportRoute } from './export.ts';
import { recordingRoute } from './recording.ts';
import { uploadRoute } from './upload.ts';

/**
 * The web app's HTTP endpoints beside GraphQL (session cookie auth): recording download,
 * CSV export and manual upload — byte streams and multipart that GraphQL is not made for.
 */
export function appHttpRoutes(app: AppContext): Route[] {
  return [exportRoute(app), recordingRoute(app), uploadRoute(app)];
}
