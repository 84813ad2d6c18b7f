import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import { checkFreeSpace } from '../storage/free-space.ts';
import { insufficientStorage } from './errors.ts';
import { isStorageFault } from './outcome.ts';
import { ClientGone, type ReceivedForm, receiveForm } from './multipart.ts';
import { acceptUploads, MAX_UPLOAD_FILES, uploadLimits } from './manual-upload.ts';
import { sendDomainError, sendEarlyError, sendJson } from '../http/respond.ts';
import type { RequestContext } from '../http/server.ts';
import { requireSession, requireWrite } from '../auth/require-session.ts';
import type { AppRoute } from '../auth/route-access.ts';

/**
 * POST /api/uploads — the app's manual upload: up to 20 `file` parts plus fields that apply to
 * all of them. Answers 200 with one result per file in the order sent; only a request that is
 * broken as a whole (auth, CSRF, role, malformed form, too big) gets an error status.
 */
export function uploadRoute(app: AppContext): AppRoute {
  async function handler(req: IncomingMessage, res: ServerResponse, rc: RequestContext) {
    const session = await requireSession(app, req, res, 'upload', { close: true, roleAfterCsrf: true });
    if (!session || !requireWrite(req, res, session, 'upload')) return;
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
      return sendEarlyError(req, res, 'bad_request', 'The body must be multipart/form-data with `file` parts.');
    }
    const space = await checkFreeSpace([app.config.tmpDir, app.config.storageDir], app.config.minFreeDiskMb);
    if (!space.ok) {
      const e = insufficientStorage();
      return sendEarlyError(req, res, e.code, e.message, { 'Retry-After': '60' });
    }
    const account = await app.db.account.findUniqueOrThrow({
      where: { id: session.user.accountId },
      select: { manualUploadMaxBytes: true },
    });
    const limits = uploadLimits(account.manualUploadMaxBytes);
    const tooBig = `The upload must weigh less than ${Math.floor(limits.requestBytes / 1_048_576)} MB in all; send the files in several uploads.`;
    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length >= limits.requestBytes)
      return sendEarlyError(req, res, 'bad_request', tooBig);

    let form: ReceivedForm;
    try {
      form = await receiveForm(req, {
        tmpDir: app.config.tmpDir,
        maxBodyBytes: limits.requestBytes,
        maxFiles: MAX_UPLOAD_FILES,
        maxFileBytes: limits.perFileBytes,
        tooLargeMessage: tooBig,
      });
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof DomainError) return sendEarlyError(req, res, error.code, error.message);
      if (isStorageFault(error)) {
        app.log.error({ err: error }, 'ALERT storage cannot write recordings (disk full or failing)');
        const e = insufficientStorage();
        return sendEarlyError(req, res, e.code, e.message, { 'Retry-After': '60' });
      }
      throw error;
    }

    try {
      const results = await acceptUploads(app, {
        accountId: session.user.accountId,
        files: form.files,
        fields: form.fields,
        perFileBytes: limits.perFileBytes,
        requestId: rc.requestId,
      });
      sendJson(res, 200, { results });
    } catch (error) {
      if (error instanceof DomainError) return sendDomainError(res, error);
      throw error;
    }
  }

  return { access: 'upload', method: 'POST', path: /^\/api\/uploads\/?$/, handler };
}
