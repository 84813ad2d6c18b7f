import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ErrorCode, httpStatusOf } from '../domain/errors.ts';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

const sentCodes = new WeakMap<ServerResponse, string>();

/**
 * The error body of the intake document §2: `{error:{code,message}}`, with the status the error
 * catalog (src/domain/errors.ts) gives the code: routes never choose a status themselves.
 */
export function sendError(
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sentCodes.set(res, code);
  sendJson(res, httpStatusOf(code), { error: { code, message } }, headers);
}

/** A DomainError thrown below, answered with its code, message and catalog status. */
export function sendDomainError(res: ServerResponse, error: { code: ErrorCode; message: string }): void {
  sendError(res, error.code, error.message);
}

/** The `error.code` this response answered with, if it answered an error (for metrics). */
export function sentErrorCode(res: ServerResponse): string | undefined {
  return sentCodes.get(res);
}

/**
 * Answers before the request body has been read and closes the connection afterwards, so a
 * rejected 20 MB upload is not read to the end (and the socket is not reused mid-body).
 */
export function sendErrorAndClose(
  req: IncomingMessage,
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendError(res, code, message, { Connection: 'close', ...headers });
  res.on('finish', () => {
    // Give the client a moment to read the answer before the unread body makes the kernel reset.
    setTimeout(() => req.destroy(), 250).unref();
  });
}
