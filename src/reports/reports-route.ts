import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import { CSV_FORMAT } from '../export/csv-safe.ts';
import { isReportTable, reportCsv, reportFileName, reportParamsFromQuery } from './reports-csv.ts';
import { FILE_RESPONSE_HEADERS, sendDomainError } from '../http/respond.ts';
import type { RequestContext } from '../http/server.ts';
import { requireSession } from '../auth/require-session.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import type { AppRoute } from '../auth/route-access.ts';
import { blindFilter } from '../calibration/read.ts';

const PATH = /^\/api\/reports\/([a-z]+)\.csv$/;

/**
 * GET /api/reports/<trend|agents|campaigns|criteria|distribution|topics|sentiment|disputes>.csv?<ReportFilter fields>&interval=
 * — a dashboard table as CSV, for viewers and above (the `member` scope of the GraphQL report fields;
 * agent users are refused, as `reportAgents` refuses them), scoped to the session's account. The tables come from
 * the rollups (a few hundred rows), so the file is built whole rather than streamed.
 */
export function reportExportRoute(app: AppContext): AppRoute {
  async function handler(req: IncomingMessage, res: ServerResponse, rc: RequestContext) {
    const session = await requireSession(app, req, res, 'reportCsv');
    if (!session) return;
    const table = PATH.exec(rc.url.pathname)?.[1] ?? '';
    let csv: string;
    let fileName: string;
    try {
      if (!isReportTable(table)) throw new DomainError('not_found', `No report table "${table}".`);
      const { filter, interval } = reportParamsFromQuery(rc.url.searchParams);
      // As on the page: the calls the reader grades blind in an open calibration are left out.
      const { columns, rows } = await reportCsv(
        app.db,
        session.user.accountId,
        table,
        await blindFilter(app.db, session.user.id, filter),
        interval,
      );
      csv = stringify(rows, { header: true, columns, ...CSV_FORMAT });
      fileName = reportFileName(table, filter);
    } catch (error) {
      if (error instanceof DomainError) return sendDomainError(res, error);
      throw error;
    }
    res.writeHead(200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition('attachment', fileName),
      'Cache-Control': 'no-store',
      ...FILE_RESPONSE_HEADERS,
    });
    res.end(req.method === 'HEAD' ? undefined : csv);
  }

  return { access: 'reportCsv', method: 'GET', path: PATH, handler };
}
