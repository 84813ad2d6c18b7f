import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface HttpDrain {
  /**
   * Stops accepting connections, ends live-update (SSE) streams at once, lets the other requests in
   * flight (uploads) finish for up to `graceMs`, then closes whatever is left.
   */
  close(graceMs: number): Promise<void>;
}

/** Tracks the requests in flight on `server` so a shutdown can wait for them. */
export function trackRequests(server: http.Server): HttpDrain {
  const inFlight = new Map<ServerResponse, IncomingMessage>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(res, req);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const [res, req] of inFlight) {
        // A stream never finishes by itself; its client reconnects (to another process, or after the restart).
        if (/text\/event-stream/.test(req.headers.accept ?? '')) res.end();
        // A keep-alive client must not send its next request to a process that is going away.
        else if (!res.headersSent) res.setHeader('Connection', 'close');
      }
      const drained = new Promise<void>((resolve) => {
        const check = () => (inFlight.size === 0 ? resolve() : setTimeout(check, 50).unref());
        check();
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
    },
  };
}
