import { once } from 'node:events';
import got, { type Response } from 'got';
import { guardedLookup, refusePrivateLiteral } from './address-guard.ts';
import { deliveryHeaders } from './kit/sign.ts';

const EXCERPT_BYTES = 2048;

export interface SendRequest {
  url: string;
  /** The current secret, then the previous one while a rotation's overlap lasts. */
  secrets: readonly string[];
  eventId: string;
  body: string;
  allowPrivate: boolean;
  timeoutMs: number;
}

/** One HTTP attempt, as recorded in webhook_attempts. Never throws: failures are outcomes. */
export interface SendOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** The reply headers kept for debugging and retry decisions (see KEPT_HEADERS). */
  responseHeaders: Record<string, string> | null;
}

/** Reply headers worth keeping: when to retry, and what the excerpt is. */
const KEPT_HEADERS = ['retry-after', 'content-type'] as const;

/** Signs (Standard Webhooks) and POSTs one event body. */
export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const sentAt = new Date();
  try {
    const url = new URL(req.url);
    if (!req.allowPrivate) refusePrivateLiteral(url);
    const stream = got.stream.post(url, {
      body: req.body,
      headers: { ...deliveryHeaders(req.eventId, req.body, req.secrets, sentAt), 'user-agent': 'Escucha-Webhooks/1' },
      timeout: { request: req.timeoutMs },
      // Retries follow our schedule, a redirect could lead to an address nobody validated, and
      // an error status is an outcome to record rather than an exception.
      retry: { limit: 0 },
      followRedirect: false,
      throwHttpErrors: false,
      dnsLookup: req.allowPrivate ? undefined : guardedLookup,
    });
    const [response] = (await once(stream, 'response')) as [Response];
    const responseExcerpt = await readExcerpt(stream);
    const statusCode = response.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    return {
      statusCode,
      durationMs: elapsed(),
      error: ok ? null : describeStatus(statusCode),
      responseExcerpt,
      responseHeaders: keptHeaders(response.headers),
    };
  } catch (error) {
    return {
      statusCode: null,
      durationMs: elapsed(),
      error: describeError(error),
      responseExcerpt: null,
      responseHeaders: null,
    };
  }
}

function keptHeaders(headers: Response['headers']): Record<string, string> | null {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value.slice(0, 200);
  }
  return Object.keys(kept).length ? kept : null;
}

/**
 * Retry-After as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * null when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The start of the reply, for people debugging their receiver; the rest is never downloaded. */
async function readExcerpt(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    // The status already arrived and decides the outcome; a reply body cut short is only context.
  } finally {
    stream.destroy();
  }
  if (size === 0) return null;
  // PostgreSQL text cannot hold NUL; a character split at the cut becomes U+FFFD.
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replaceAll('\0', '');
}

function describeStatus(statusCode: number): string {
  if (statusCode >= 300 && statusCode < 400)
    return `HTTP ${statusCode}: redirects are not followed; configure the final address`;
  return `HTTP ${statusCode}`;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  if (code === 'ETIMEDOUT') return `Timed out: ${error.message}`;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
