import type { IncomingMessage, ServerResponse } from 'node:http';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../app/context.ts';
import { sharedLimiter } from '../db/rate-limiter.ts';
import { authenticateApiKey } from '../domain/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import { sendError, sendErrorAndClose, sendJson } from '../http/respond.ts';
import type { Route } from '../http/server.ts';
import { logContext } from '../log.ts';
import { acceptRecording } from './accept.ts';
import { INTAKE_STATUS } from './errors.ts';
import { ClientGone, receiveForm, tooLarge } from './multipart.ts';

/** Strictly less than 20 MB (20 × 1,048,576 bytes) for the whole request (intake document §8). */
export const INTAKE_MAX_BYTES = 20 * 1_048_576;

const BEARER = 'Bearer realm="escucha", error="invalid_token"';

export function intakeRoutes(app: AppContext): Route[] {
  // Counted in PostgreSQL: several api processes enforce one limit per account.
  const limiter = sharedLimiter(app.db, { keyPrefix: 'intake', points: app.config.intakeRatePerMinute, duration: 60 });

  async function postCall(req: IncomingMessage, res: ServerResponse) {
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    const key = token ? await authenticateApiKey(app.db, token) : null;
    if (!key) {
      const message = token
        ? 'The API key is unknown or has been revoked.'
        : 'Send your API key as `Authorization: Bearer <API_KEY>`.';
      return sendErrorAndClose(req, res, 401, 'unauthorized', message, { 'WWW-Authenticate': BEARER });
    }
    const store = logContext.getStore();
    if (store) store.accountId = key.accountId;

    try {
      await limiter.consume(key.accountId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      return sendErrorAndClose(
        req,
        res,
        429,
        'rate_limited',
        `Too many requests for this account; retry in ${retry} s.`,
        { 'Retry-After': String(retry) },
      );
    }

    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length >= INTAKE_MAX_BYTES) {
      const e = tooLarge(INTAKE_MAX_BYTES);
      return sendErrorAndClose(req, res, 400, 'bad_request', e.message);
    }
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
      return sendErrorAndClose(
        req,
        res,
        400,
        'bad_request',
        'The body must be multipart/form-data with a `file` part.',
      );
    }

    let form;
    try {
      form = await receiveForm(req, { tmpDir: app.config.tmpDir, maxBodyBytes: INTAKE_MAX_BYTES, maxFiles: 1 });
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof DomainError) return sendErrorAndClose(req, res, 400, error.code, error.message);
      throw error;
    }

    try {
      const accepted = await acceptRecording(app, {
        accountId: key.accountId,
        source: 'api',
        file: form.files[0]!,
        fields: form.fields,
      });
      app.log.info({ callId: accepted.id, status: accepted.status }, 'call accepted');
      sendJson(res, accepted.status === 'queued' ? 201 : 200, accepted);
    } catch (error) {
      if (error instanceof DomainError && INTAKE_STATUS[error.code]) {
        return sendError(res, INTAKE_STATUS[error.code]!, error.code, error.message);
      }
      throw error;
    }
  }

  return [{ method: 'POST', path: /^\/v1\/calls\/?$/, handler: postCall }];
}
