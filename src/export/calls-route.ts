import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../context.ts';
import { scopeFilter } from '../auth/call-scope.ts';
import { blindFilter } from '../calibration/read.ts';
import { DomainError } from '../domain/errors.ts';
import { CSV_COLUMNS, exportCallRows, exportFileName } from './calls-csv.ts';
import { CSV_FORMAT } from './csv-safe.ts';
import { filterFromQuery } from './filter-params.ts';
import { FILE_RESPONSE_HEADERS, sendDomainError } from '../http/respond.ts';
import type { RequestContext } from '../http/server.ts';
import { requireSession } from '../auth/require-session.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { streamCsv } from '../http/streams.ts';
import type { AppRoute } from '../auth/route-access.ts';

/**
 * GET /api/calls/export.csv?<CallFilter fields> — the analyzed view as CSV, for any role.
 * Streamed: the database is read a batch at a time only as fast as the client takes the bytes
 * (pipeline propagates back-pressure from the socket through csv-stringify to the row source),
 * so memory stays flat whatever the number of calls; a client that hangs up stops the queries.
 */
export function exportRoute(app: AppContext): AppRoute {
  async function handler(req: IncomingMessage, res: ServerResponse, rc: RequestContext) {
    const session = await requireSession(app, req, res, 'callsCsv');
    if (!session) return;
    const { accountId } = session.user;
    let filter: ReturnType<typeof filterFromQuery>;
    try {
      // An agent user exports only their own agent's calls.
      filter = scopeFilter(filterFromQuery(rc.url.searchParams), session.user);
    } catch (error) {
      if (error instanceof DomainError) return sendDomainError(res, error);
      throw error;
    }
    // A calibration grader's blind calls stay out of the file, as out of the list.
    filter = await blindFilter(app.db, session.user.id, filter);
    const account = await app.db.account.findUniqueOrThrow({ where: { id: accountId }, select: { timeZone: true } });

    res.writeHead(200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition('attachment', exportFileName(new Date(), account.timeZone)),
      'Cache-Control': 'no-store',
      ...FILE_RESPONSE_HEADERS,
    });
    if (req.method === 'HEAD') return void res.end();

    const rows = Readable.from(exportCallRows(app.db, accountId, filter, { publicUrl: app.config.publicUrl }));
    const csv = stringify({ header: true, columns: [...CSV_COLUMNS], ...CSV_FORMAT });
    await streamCsv(res, rows, csv, app.log, 'export');
  }

  return { access: 'callsCsv', method: 'GET', path: /^\/api\/calls\/export\.csv$/, handler };
}
