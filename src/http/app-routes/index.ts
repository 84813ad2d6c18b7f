import type { AppContext } from '../../app/context.ts';
import type { AppRoute } from './access.ts';
import { auditExportRoute } from './audit-export.ts';
import { exportRoute } from './export.ts';
import { recordingRoute } from './recording.ts';
import { reportExportRoute } from './report-export.ts';
import { uploadRoute } from './upload.ts';

/**
 * The web app's HTTP endpoints beside GraphQL (session cookie auth): recording download,
 * CSV exports (calls, dashboard tables, the owners' audit log) and manual upload — byte streams and
 * multipart that GraphQL is not made for.
 */
export function appHttpRoutes(app: AppContext): AppRoute[] {
  return [exportRoute(app), reportExportRoute(app), auditExportRoute(app), recordingRoute(app), uploadRoute(app)];
}
