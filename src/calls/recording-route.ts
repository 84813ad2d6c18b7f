import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context.ts';
import { isUuid } from '../accounts/api-keys.ts';
import { callScope } from '../auth/call-scope.ts';
import { servedAudioType } from '../intake/audio-type.ts';
import { FILE_RESPONSE_HEADERS, sendError } from '../http/respond.ts';
import type { RequestContext } from '../http/server.ts';
import { requireSession } from '../auth/require-session.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { parseRange } from '../http/range.ts';
import { isClientGone } from '../http/streams.ts';
import type { AppRoute } from '../auth/route-access.ts';

/**
 * GET/HEAD /api/calls/:id/recording — the original recording, for the app's player (which seeks
 * with Range requests) and for download. Any role of the call's account may fetch it (an agent
 * user only their own agent's calls); any other
 * id — foreign, deleted or malformed — is the same 404, so ids of other tenants reveal nothing.
 */
export function recordingRoute(app: AppContext): AppRoute {
  async function handler(req: IncomingMessage, res: ServerResponse, rc: RequestContext) {
    const session = await requireSession(app, req, res, 'recording');
    if (!session) return;
    const id = rc.params.id ?? '';
    const call = isUuid(id)
      ? await app.db.call.findFirst({
          // An agent user may hear only their own calls; any other call is the same 404.
          where: { id, ...callScope(session.user) },
          select: {
            storageKey: true,
            contentType: true,
            fileName: true,
            fileSha256: true,
            recordingDeletedAt: true,
            audioRedacted: true,
          },
        })
      : null;
    if (!call) return sendError(res, 'not_found', 'No such call.');
    if (call.recordingDeletedAt)
      return sendError(
        res,
        'recording_deleted',
        `The recording of this call was deleted on ${call.recordingDeletedAt.toISOString().slice(0, 10)} by the account's retention period.`,
      );

    let size: number;
    try {
      size = await app.storage.size(call.storageKey);
    } catch (error) {
      app.log.error({ err: error, callId: id }, 'recording missing from storage');
      return sendError(res, 'not_found', 'The recording of this call is not available.');
    }

    // The stored file changes at most once, when transcription replaces it with its redacted copy
    // (src/redaction/audio.ts), so the upload's sha256, marked for that copy, is a strong validator.
    const etag = call.audioRedacted ? `"${call.fileSha256}-redacted"` : `"${call.fileSha256}"`;
    const fileName = call.audioRedacted ? `${call.fileName.replace(/\.[^.]*$/, '')}.redacted.ogg` : call.fileName;
    const headers: Record<string, string | number> = {
      // Re-checked here too: a row stored before the fix must not be served as a page either.
      'Content-Type': servedAudioType(call.contentType, call.storageKey.split('.').pop() ?? null),
      'Accept-Ranges': 'bytes',
      ETag: etag,
      // Private: the response depends on the session. no-cache: revalidate (a cheap 304) so a
      // signed-out browser does not keep serving it from cache.
      'Cache-Control': 'private, no-cache',
      'Content-Disposition': contentDisposition('inline', fileName),
      ...FILE_RESPONSE_HEADERS,
    };

    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, { ETag: etag, 'Cache-Control': headers['Cache-Control']!, ...FILE_RESPONSE_HEADERS }).end();
      return;
    }
    // If-Range with a stale validator means "send it all": the client's partial copy is outdated.
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== etag ? ({ kind: 'full' } as const) : parseRange(req.headers.range, size);

    if (range.kind === 'unsatisfiable') {
      return sendError(res, 'range_not_satisfiable', `The recording has ${size} bytes.`, {
        ...FILE_RESPONSE_HEADERS,
        'Content-Range': `bytes */${size}`,
      });
    }
    const { start, end } = range.kind === 'partial' ? range : { start: 0, end: size - 1 };
    const length = end - start + 1;
    if (range.kind === 'partial') {
      res.writeHead(206, { ...headers, 'Content-Length': length, 'Content-Range': `bytes ${start}-${end}/${size}` });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': size });
    }
    if (req.method === 'HEAD' || length === 0) return void res.end();

    try {
      await pipeline(app.storage.read(call.storageKey, { start, end }), res);
    } catch (error) {
      // A player that seeks abandons its previous request all the time: not an error.
      if (!isClientGone(error, res)) app.log.error({ err: error, callId: id }, 'recording stream failed');
    }
  }

  return { access: 'recording', method: 'GET', path: /^\/api\/calls\/(?<id>[^/]+)\/recording\/?$/, handler };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
