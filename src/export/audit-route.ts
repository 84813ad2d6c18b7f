import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../context.ts';
import { type AuditFilter, auditEntries, parseAuditActions } from '../accounts/audit-query.ts';
import { auditObjectReader } from '../accounts/audit-objects.ts';
import { blindAuditFilter } from '../calibration/read.ts';
import { DomainError } from '../domain/errors.ts';
import { CSV_FORMAT, safeText } from './csv-safe.ts';
import { FILE_RESPONSE_HEADERS, sendDomainError } from '../http/respond.ts';
import type { RequestContext } from '../http/server.ts';
import { requireSession } from '../auth/require-session.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { streamCsv } from '../http/streams.ts';
import type { AppRoute } from '../auth/route-access.ts';

export const AUDIT_CSV_COLUMNS = [
  'at',
  'actor_email',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'target_name',
  'detail',
];

function filterFromQuery(q: URLSearchParams): AuditFilter {
  const date = (name: string) => {
    const v = q.get(name);
    if (!v) return null;
    const d = new Date(v);
    if (Number.isNaN(d.getTime()))
      throw new DomainError('invalid_input', `${name} is not a date (ISO 8601).`, { field: name });
    return d;
  };
  const actions = q.getAll('action').flatMap((v) => v.split(',').filter(Boolean));
  return { actions: parseAuditActions(actions), from: date('from'), to: date('to') };
}

/**
 * GET /api/audit-log.csv?action=…&from=…&to=… — the account's audit log as CSV, owners only, newest
 * first, streamed in keyset batches like the calls export. Every text cell goes through the
 * export's formula guard (emails, names and details come from users).
 */
export function auditExportRoute(app: AppContext): AppRoute {
  async function handler(req: IncomingMessage, res: ServerResponse, rc: RequestContext) {
    const session = await requireSession(app, req, res, 'auditCsv');
    if (!session) return;
    let filter: AuditFilter;
    try {
      filter = filterFromQuery(rc.url.searchParams);
    } catch (error) {
      if (error instanceof DomainError) return sendDomainError(res, error);
      throw error;
    }
    // As the GraphQL log: no entry about a call the reader grades blind (src/calibration/read.ts).
    filter = await blindAuditFilter(app.db, session.user.id, filter);
    res.writeHead(200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition(
        'attachment',
        `escucha-audit-log-${new Date().toISOString().slice(0, 10)}.csv`,
      ),
      'Cache-Control': 'no-store',
      ...FILE_RESPONSE_HEADERS,
    });
    if (req.method === 'HEAD') return void res.end();
    const rows = Readable.from(
      (async function* () {
        const accountId = session.user.accountId;
        const objectsOf = auditObjectReader(app.db, accountId);
        type Entry = Parameters<typeof objectsOf>[0] & {
          createdAt: Date;
          actor: { email: string; name: string } | null;
          actorUserId: string | null;
        };
        // Named a chunk at a time: the chunk's objects are asked for together, one query per kind.
        const flush = async function* (rows: Entry[]) {
          const named = await Promise.all(rows.map((e) => objectsOf(e)));
          for (const [i, e] of rows.entries())
            yield [
              e.createdAt.toISOString(),
              safeText(e.actor?.email ?? null),
              safeText(e.actor?.name ?? (e.actorUserId ? null : 'system')),
              e.action,
              e.targetType,
              safeText(e.targetId),
              safeText(named[i]?.[0]?.name ?? null),
              safeText(JSON.stringify(e.detail)),
            ];
        };
        let chunk: Entry[] = [];
        for await (const e of auditEntries(app.db, accountId, filter)) {
          chunk.push({ ...e, accountId });
          if (chunk.length >= 500) {
            yield* flush(chunk);
            chunk = [];
          }
        }
        yield* flush(chunk);
      })(),
    );
    const csv = stringify({ header: true, columns: AUDIT_CSV_COLUMNS, ...CSV_FORMAT });
    await streamCsv(res, rows, csv, app.log, 'audit export');
  }

  return { access: 'auditCsv', method: 'GET', path: /^\/api\/audit-log\.csv$/, handler };
}
