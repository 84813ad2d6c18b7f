import http from 'node:http';

export interface RawResponse {
  status: number | null;
  body: any;
  /** The connection was closed or reset before any response arrived. */
  closedWithoutResponse: boolean;
}

/** Builds a multipart body by hand, so tests can send exactly the bytes they mean to. */
export function multipart(
  boundary: string,
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
  opts: { close?: boolean } = {},
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/**
 * Sends a request whose body is produced by `write` (so tests can stream, stall or hang up)
 * and collects whatever answer comes back, tolerating the server closing mid-upload.
 */
export function rawRequest(
  url: string,
  headers: Record<string, string | number>,
  write: (req: http.ClientRequest) => void | Promise<void>,
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers });
    let done = false;
    const finish = (r: RawResponse) => {
      if (!done) {
        done = true;
        resolve(r);
      }
    };
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {}
        finish({ status: res.statusCode ?? null, body, closedWithoutResponse: false });
      });
      res.on('error', () => finish({ status: res.statusCode ?? null, body: null, closedWithoutResponse: false }));
    });
    req.on('error', () => setTimeout(() => finish({ status: null, body: null, closedWithoutResponse: true }), 50));
    Promise.resolve(write(req)).catch(() => {});
  });
}

/** Writes `total` bytes of `fill` in 64 KB chunks, respecting back-pressure, stopping if the socket dies. */
export async function writeBytes(req: http.ClientRequest, total: number, fill = 0): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let left = total;
  while (left > 0 && !req.destroyed) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!req.write(piece))
      await new Promise<void>((r) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          r();
        };
        req.on('drain', done);
        req.on('close', done);
      });
  }
}
