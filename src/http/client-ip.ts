import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

/** The client's address: the socket's, or X-Forwarded-For's first hop when a proxy is trusted. */
export function clientIp(req: IncomingMessage, config: Pick<Config, 'trustProxy'>): string {
  if (config.trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
