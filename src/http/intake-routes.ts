import type { IncomingMessage, ServerResponse } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../app/context.ts';
import { authenticateApiKey } from '../domain/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import { sendDomainError, sendErrorAndClose, sendJson, sentErrorCode } from './respond.ts';
import type { Route } from './server.ts';
import { logContext } from '../log.ts';
import { acceptRecording } from '../intake/accept.ts';
import { ClientGone, type ReceivedForm, receiveForm, tooLarge } from '../intake/multipart.ts';

/** Strictly less than 20 MB (20 × 1,048,576 bytes) for the whole request (intake document §8). */
export const INTAKE_MAX_BYTES = 20 * 1_048_576;

const BEARER = 'Bearer realm="escucha", error="invalid_token"';

export function intakeRoutes(app: AppContext): Route[] {
  // Per process; with several api processes the effective limit is this times their number.
  const limiter = new RateLimiterMemory({ points: app.config.intakeRatePerMinute, duration: 60 });

  async function postCall(req: IncomingMessage, res: ServerResponse) {
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    const key = token ? await authenticateApiKey(app.db, token) : null;
    if (!key) {
      const message = token
        ? 'The API key is unknown or has been revoked.'
        : 'Send your API key as `Authorization: Bearer <API_KEY>`.';
      return sendErrorAndClose(req, res, 'unauthorized', message, { 'WWW-Authenticate': BEARER });
    }
    const store = logContext.getStore();
    if (store) store.accountId = key.accountId;

    try {
      await limiter.consume(key.accountId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      return sendErrorAndClose(req, res, 'rate_limited', `Too many requests for this account; retry in ${retry} s.`, {
        'Retry-After': String(retry),
      });
    }

    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length >= INTAKE_MAX_BYTES) {
      const e = tooLarge(INTAKE_MAX_BYTES);
      return sendErrorAndClose(req, res, 'bad_request', e.message);
    }
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
      return sendErrorAndClose(req, res, 'bad_request', 'The body must be multipart/form-data with a `file` part.');
    }

    let form: ReceivedForm;
    try {
      form = await receiveForm(req, { tmpDir: app.config.tmpDir, maxBodyBytes: INTAKE_MAX_BYTES, maxFiles: 1 });
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof DomainError) return sendErrorAndClose(req, res, error.code, error.message);
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
      if (error instanceof DomainError) return sendDomainError(res, error);
      throw error;
    }
  }

  // The one place intake outcomes are counted: whatever answered, once the exchange is over.
  function countedPostCall(req: IncomingMessage, res: ServerResponse) {
    res.once('close', () => {
      const code = !res.headersSent
        ? 'client_gone'
        : res.statusCode === 201
          ? 'queued'
          : res.statusCode === 200
            ? 'exists'
            : (sentErrorCode(res) ?? 'internal_error');
      app.metrics?.intakeOutcomes.inc({ code });
    });
    return postCall(req, res);
  }

  return [{ method: 'POST', path: /^\/v1\/calls\/?$/, name: 'POST /v1/calls', handler: countedPostCall }];
}
