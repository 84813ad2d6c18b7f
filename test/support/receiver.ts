import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status, a status with a body, or 'hang' (never answers, for timeouts). */
export type Reply = number | 'hang' | { status: number; body: string };

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A real HTTP webhook receiver on loopback whose answers a test scripts: a list used in order (the
 * last one repeating) or a function of the request's number (from 1) and the request.
 */
export async function startReceiver(replies: Reply[] | ((n: number, r: Received) => Reply) = [200]) {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const n = received.length;
      const reply = typeof replies === 'function' ? replies(n, r) : replies[Math.min(n - 1, replies.length - 1)]!;
      if (reply !== 'hang') {
        const { status, body } = typeof reply === 'number' ? { status: reply, body: `reply ${n}` } : reply;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      }
      for (const w of waiters.filter((w) => n >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Resolves once `count` requests arrived; rejects after `ms`. */
    waitFor(count: number, ms = 60_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests in ${ms} ms`)),
          ms,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
