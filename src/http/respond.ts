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
export function sendDomainError(
  res: ServerResponse,
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> },
): void {
  // A text-hygiene refusal names the field, so a client can say which of its values was broken.
  const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
  sentCodes.set(res, error.code);
  sendJson(res, httpStatusOf(error.code), {
    error: { code: error.code, message: error.message, ...(field && { field }) },
  });
}

/** The `error.code` this response answered with, if it answered an error (for metrics). */
export function sentErrorCode(res: ServerResponse): string | undefined {
  return sentCodes.get(res);
}

/** What an early refusal still reads of the unread body, so that the client sees the answer. */
export const DRAIN_MAX_BYTES = 64 * 1_048_576;
export const DRAIN_MAX_MS = 30_000;

/**
 * Reads and discards what is left of a request body, at most `maxBytes` and `maxMs`, then closes
 * the connection — only then. Clients that write the whole body before reading (Node's fetch,
 * Python's requests, many SDKs) see an early answer only if the server keeps reading until they
 * have finished writing: a socket closed under a client still writing resets, and the client
 * reports EPIPE/ECONNRESET instead of the answer. Node itself destroys a `Connection: close`
 * socket as soon as the answer is written (`destroySoon`), body still arriving; here the socket
 * only half-closes then (the answer and a FIN go out, reading goes on) and is destroyed once the
 * body has ended. Past either bound it is cut all the same (measured with every client in its
 * own process: test/security/early-answers.test.ts).
 */
export function closeAfterBody(req: IncomingMessage, opts: { maxBytes?: number; maxMs?: number } = {}): void {
  const socket = req.socket;
  if (req.complete || req.destroyed || !socket) return;
  const maxBytes = opts.maxBytes ?? DRAIN_MAX_BYTES;
  let read = 0;
  // Called by Node once the answer is written: end our side only; the read side ends with the body.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
  };
  // The body has ended: the client has finished writing, so closing resets nothing (after the answer).
  const finish = () => {
    clearTimeout(timer);
    req.off('data', count);
    if (socket.writable) socket.end();
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const cut = () => {
    clearTimeout(timer);
    req.off('data', count);
    req.pause();
    // Let the answer leave the socket before the reset that unread bytes provoke.
    setTimeout(() => socket.destroy(), 250).unref();
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) cut();
  };
  const timer = setTimeout(cut, opts.maxMs ?? DRAIN_MAX_MS);
  timer.unref();
  req.unpipe();
  req.on('data', count);
  req.once('end', finish);
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => clearTimeout(timer));
  req.resume();
}

/**
 * Answers before the request body has been read (`Connection: close`: the socket is not reused),
 * then reads and discards the rest and closes (bounded, see closeAfterBody).
 */
export function sendEarlyError(
  req: IncomingMessage,
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendError(res, code, message, { Connection: 'close', ...headers });
  closeAfterBody(req);
}

/**
 * Headers of every file response (recording, CSV export, anything added later): whatever the
 * bytes are, a browser never runs them as a page of this origin.
 */
export const FILE_RESPONSE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
} as const;
