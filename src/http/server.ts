import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context.ts';
import { type ErrorCode, httpStatusOf } from '../domain/errors.ts';
import { logContext } from '../log.ts';
import { sendError } from './respond.ts';

export interface RequestContext {
  requestId: string;
  url: URL;
  params: Record<string, string>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, rc: RequestContext) => Promise<void> | void;

export interface Route {
  method: string | string[];
  /** Named groups become `params`. */
  path: RegExp;
  /** Label in metrics (default: the path pattern). */
  name?: string;
  handler: Handler;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,100}$/;

export function createHttpServer(app: AppContext, routes: Route[], fallback?: Handler): http.Server {
  // Behind https, browsers are told to never come back over plain http (a year, renewed on each visit).
  const hsts = app.config?.publicUrl?.startsWith('https://') ?? false;
  const server = http.createServer(async (req, res) => {
    if (hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    let routeName = 'not_found';
    await logContext.run({ reqId: requestId }, async () => {
      res.on('finish', () => {
        const seconds = (performance.now() - started) / 1000;
        app.metrics?.httpRequests.inc({ route: routeName, status: String(res.statusCode) });
        app.metrics?.httpDuration.observe({ route: routeName }, seconds);
        app.log.info(
          {
            method: req.method,
            path: req.url?.slice(0, 200),
            status: res.statusCode,
            ms: Math.round(performance.now() - started),
          },
          'request',
        );
      });
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
      } catch {
        return sendError(res, 'bad_request', 'The request target is not a valid path.', { Connection: 'close' });
      }
      try {
        const match = findRoute(routes, req.method ?? 'GET', url.pathname);
        if (match === 'method') {
          return sendError(res, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}.`);
        }
        if (match) {
          routeName = match.route.name ?? `${req.method} ${match.route.path.source}`;
          return await match.route.handler(req, res, { requestId, url, params: match.params });
        }
        if (fallback) {
          routeName = 'web app';
          return await fallback(req, res, { requestId, url, params: {} });
        }
        sendError(res, 'not_found', `Nothing at ${url.pathname}.`);
      } catch (error) {
        app.log.error({ err: error }, 'unhandled error');
        if (!res.headersSent) {
          sendError(
            res,
            'internal_error',
            `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
          );
        } else res.destroy();
      }
    });
  });
  server.on('clientError', answerClientError);
  // Uploads of ~20 MB over slow links need time; idle sockets do not.
  server.requestTimeout = 10 * 60_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

/**
 * Errors Node's HTTP parser raises before a request exists (headers over 16 KB, a broken request
 * line or chunk, the 30 s header timeout) get the same `{error:{code,message}}` JSON as every other
 * answer (intake document §1), written straight to the socket as Node's own handler would.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'The request headers are larger than 16 KB.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request headers did not arrive in time.']
        : ['bad_request', 'The request is not valid HTTP.'];
  const status = httpStatusOf(code);
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
      body,
  );
}

function findRoute(routes: Route[], method: string, pathname: string) {
  let pathMatched = false;
  for (const route of routes) {
    const m = route.path.exec(pathname);
    if (!m) continue;
    pathMatched = true;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes(method) || (method === 'HEAD' && methods.includes('GET'))) {
      return { route, params: { ...(m.groups ?? {}) } };
    }
  }
  return pathMatched ? ('method' as const) : null;
}
