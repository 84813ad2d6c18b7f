import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing: the code the Escucha sender itself signs every delivery with.
 * `secrets` holds the current secret and, during a rotation's overlap, the previous one: the
 * header then carries one `v1,` signature per secret, separated by a space, and a receiver that
 * knows either secret accepts the request.
 */
export function signatureHeader(id: string, timestamp: Date, body: string, secrets: readonly string[]): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one secret');
  return secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ');
}

export interface SignedRequest {
  /** The `webhook-id`: receivers deduplicate on it. */
  id: string;
  /** The exact bytes to POST (a signature covers these bytes, not the parsed JSON). */
  body: string;
  headers: {
    'content-type': 'application/json';
    'webhook-id': string;
    'webhook-timestamp': string;
    'webhook-signature': string;
  };
}

/** The headers of one delivery attempt. */
export function deliveryHeaders(
  id: string,
  body: string,
  secrets: readonly string[],
  at = new Date(),
): SignedRequest['headers'] {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(id, at, body, secrets),
  };
}

/**
 * An event as Escucha would POST it, signed with `secret` (`whsec_…`): for an integrator's tests.
 * `id` defaults to a fresh `msg_…`, `at` (the signing time) to now.
 */
export function signEvent(
  event: { type: string; timestamp: string; data: unknown },
  secret: string | readonly string[],
  options: { id?: string; at?: Date } = {},
): SignedRequest {
  const id = options.id ?? `msg_${randomHex(16)}`;
  const body = JSON.stringify(event);
  return { id, body, headers: deliveryHeaders(id, body, typeof secret === 'string' ? [secret] : secret, options.at) };
}

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}
