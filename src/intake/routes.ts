import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { authenticateApiKey } from '../accounts/api-keys.ts';
import { DomainError, type ErrorCode, httpStatusOf } from '../domain/errors.ts';
import { sendDomainError, sendError, sendEarlyError, sendJson, sentErrorCode } from '../http/respond.ts';
import type { Route } from '../http/server.ts';
import { logContext } from '../log.ts';
import { acceptRecording } from './accept.ts';
import { freeSpaceCheck } from '../storage/free-space.ts';
import { insufficientStorage } from './errors.ts';
import { ClientGone, type ReceivedForm, receiveForm, tooLarge } from './multipart.ts';
import { isStorageFault, reportIntakeOutcome, StorageAlert } from './outcome.ts';
import { IntakeLeases } from './leases.ts';
import { IntakeRateLimit, type RequestCount } from './rate-limit.ts';

/** Strictly less than 20 MB (20 × 1,048,576 bytes) for the whole request (intake document §8). */
export const INTAKE_MAX_BYTES = 20 * 1_048_576;

const BEARER = 'Bearer realm="escucha", error="invalid_token"';
/** What a client is told to wait after a storage fault (507) or a full concurrency quota (429). */
const STORAGE_RETRY_SECONDS = 60;
const CONCURRENCY_RETRY_SECONDS = 5;
const ROUTE = 'POST /v1/calls';

export function intakeRoutes(app: AppContext): Route[] {
  // Counted in PostgreSQL: several api processes enforce one limit per account.
  const limit = new IntakeRateLimit(app.db, app.config.intakeRatePerMinute);

  const storageAlert = new StorageAlert(app.log);
  const freeSpace = freeSpaceCheck([app.config.tmpDir, app.config.storageDir], app.config.minFreeDiskMb);
  // Uploads in flight per API key across every api process, for INTAKE_MAX_CONCURRENT_PER_KEY.
  const leases = new IntakeLeases(app.db, app.log, {
    cap: app.config.intake.maxConcurrentPerKey,
    leaseMs: app.config.intake.leaseMs,
  });

  /** Answers an error before or while the body arrives, drains the rest, and reports the outcome. */
  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    reportIntakeOutcome(app.log, ROUTE, { outcome: 'refused', code, status: httpStatusOf(code) });
    sendEarlyError(req, res, code, message, headers);
  }

  function isRateLimited(error: unknown): error is DomainError {
    return error instanceof DomainError && error.code === 'rate_limited';
  }

  function refuseRateLimited(req: IncomingMessage, res: ServerResponse, error: DomainError) {
    const retry = Number(error.details?.retryAfterSeconds);
    refuse(req, res, 'rate_limited', error.message, { 'Retry-After': String(retry) });
  }

  /**
   * Every request counts against its account's rate limit, whatever its outcome: one that ends
   * before its facts statement counted it is counted here, and past the limit it answers 429
   * instead of `answer` (what it would have answered had the count come first).
   */
  async function answerCounted(req: IncomingMessage, res: ServerResponse, count: RequestCount, answer: () => void) {
    if (await countedWithin(req, res, count)) answer();
  }

  /** Counts the request if it is not yet; past the limit it answers 429 and returns false. */
  async function countedWithin(req: IncomingMessage, res: ServerResponse, count: RequestCount): Promise<boolean> {
    try {
      await count.ensureCounted();
      return true;
    } catch (error) {
      if (!isRateLimited(error)) throw error;
      refuseRateLimited(req, res, error);
      return false;
    }
  }

  async function postCall(req: IncomingMessage, res: ServerResponse) {
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    const key = token ? await (app.apiKeys?.authenticate(token) ?? authenticateApiKey(app.db, token)) : null;
    if (!key) {
      const message = token
        ? 'The API key is unknown or has been revoked.'
        : 'Send your API key as `Authorization: Bearer <API_KEY>`.';
      return refuse(req, res, 'unauthorized', message, { 'WWW-Authenticate': BEARER });
    }
    const store = logContext.getStore();
    if (store) store.accountId = key.accountId;

    const count = limit.request(key.accountId);
    // An account already past its limit in this window is counted and refused before its body is read.
    if (limit.knownBlocked(key.accountId) && !(await countedWithin(req, res, count))) return;
    const refuseCounted = (code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
      answerCounted(req, res, count, () => refuse(req, res, code, message, headers));

    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length >= INTAKE_MAX_BYTES) {
      const e = tooLarge(INTAKE_MAX_BYTES);
      return refuseCounted('bad_request', e.message);
    }
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
      return refuseCounted('bad_request', 'The body must be multipart/form-data with a `file` part.');
    }

    // Refuse early rather than fail halfway through a file (and leave the disk fuller still).
    const space = await freeSpace();
    if (!space.ok) {
      storageAlert.fault(null, { freeMb: space.freeMb, minFreeMb: space.minFreeMb });
      const e = insufficientStorage();
      return refuseCounted(e.code, e.message, { 'Retry-After': String(STORAGE_RETRY_SECONDS) });
    }

    const lease = await leases.take(key.keyId);
    if (!lease) {
      const cap = app.config.intake.maxConcurrentPerKey;
      return refuseCounted(
        'rate_limited',
        `This API key already has ${cap} uploads in progress (at most ${cap}); retry when one ends.`,
        { 'Retry-After': String(CONCURRENCY_RETRY_SECONDS) },
      );
    }
    try {
      await receiveAndAccept(req, res, key.accountId, count);
    } finally {
      await lease.release();
    }
  }

  async function receiveAndAccept(req: IncomingMessage, res: ServerResponse, accountId: string, count: RequestCount) {
    let form: ReceivedForm;
    try {
      form = await receiveForm(req, {
        tmpDir: app.config.tmpDir,
        maxBodyBytes: INTAKE_MAX_BYTES,
        maxFiles: 1,
        pace: {
          idleMs: app.config.intake.idleTimeoutMs,
          minBytesPerSecond: app.config.intake.minBytesPerSecond,
          windowMs: app.config.intake.minRateWindowMs,
        },
      });
    } catch (error) {
      if (error instanceof ClientGone) {
        reportIntakeOutcome(app.log, ROUTE, { outcome: 'aborted' });
        res.destroy();
        // Nobody to answer, but the request still counts.
        return void count.ensureCounted().catch(() => {});
      }
      return answerCounted(req, res, count, () => {
        if (error instanceof DomainError && error.code === 'request_timeout') {
          reportIntakeOutcome(app.log, ROUTE, { outcome: 'timed_out', code: 'request_timeout' });
          sendError(res, error.code, error.message, { Connection: 'close' });
          // A trickling client is not waited for: the answer goes out, then the socket is cut.
          return void setTimeout(() => req.destroy(), 250).unref();
        }
        if (error instanceof DomainError) return refuse(req, res, error.code, error.message);
        if (isStorageFault(error)) return storageFault(req, res, error);
        throw error;
      });
    }

    try {
      const accepted = await acceptRecording(app, {
        accountId,
        source: 'api',
        file: form.files[0]!,
        fields: form.fields,
        count,
      });
      storageAlert.recovered();
      app.log.info({ callId: accepted.id, status: accepted.status }, 'call accepted');
      sendJson(res, accepted.status === 'queued' ? 201 : 200, accepted);
    } catch (error) {
      if (isRateLimited(error)) return refuseRateLimited(req, res, error);
      return answerCounted(req, res, count, () => {
        if (error instanceof DomainError) {
          reportIntakeOutcome(app.log, ROUTE, { outcome: 'refused', code: error.code, status: error.status });
          return sendDomainError(res, error);
        }
        if (isStorageFault(error)) return storageFault(req, res, error);
        throw error;
      });
    }
  }

  function storageFault(req: IncomingMessage, res: ServerResponse, error: unknown) {
    storageAlert.fault(error);
    const e = insufficientStorage();
    refuse(req, res, e.code, e.message, { 'Retry-After': String(STORAGE_RETRY_SECONDS) });
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

  return [{ method: 'POST', path: /^\/v1\/calls\/?$/, name: ROUTE, handler: countedPostCall }];
}
