import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { get as httpGet } from 'node:http';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickEncoding, webAppFallback } from '../../src/http/web-app.ts';
import { precompress } from '../../scripts/build-web.ts';
import { createLogger } from '../../src/log.ts';

const app = { log: createLogger('silent') } as unknown as AppContext;
const dirs: string[] = [];
const servers: http.Server[] = [];

async function serve(dist: string, opts: { sourceMaps?: boolean } = {}): Promise<string> {
  const server = createHttpServer(
    app,
    [{ method: 'GET', path: /^\/api\/real$/, handler: (_q, r) => void r.end('api') }],
    webAppFallback(app, dist, opts),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A GET that keeps the body as sent (fetch would decompress it). */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

let built: string;
let missing: string;
let production: string;
const BIG_JS = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word-${i}`))};\n`;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'escucha-dist-'));
  dirs.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  writeFileSync(path.join(path.dirname(dist), 'secret.txt'), 'outside');
  built = await serve(dist);
  missing = await serve(path.join(dist, 'nope'));
  // A production build: a big script with its map, precompressed as scripts/build-web.ts does.
  const prod = mkdtempSync(path.join(os.tmpdir(), 'escucha-dist-'));
  dirs.push(prod);
  mkdirSync(path.join(prod, 'assets'));
  writeFileSync(path.join(prod, 'index.html'), `<!doctype html><div id="root"></div>${' '.repeat(2000)}`);
  writeFileSync(path.join(prod, 'assets', 'index-big1.js'), BIG_JS);
  writeFileSync(path.join(prod, 'assets', 'index-big1.js.map'), '{"version":3}');
  writeFileSync(path.join(prod, 'assets', 'late-2.js'), BIG_JS);
  await precompress(prod);
  rmSync(path.join(prod, 'assets', 'late-2.js.br'));
  rmSync(path.join(prod, 'assets', 'late-2.js.gz'));
  production = await serve(prod, { sourceMaps: false });
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('webAppFallback', () => {
  it('answers client routes with index.html, never cached', async () => {
    for (const p of ['/', '/calls', '/calls/3f2b8a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b?view=failed', '/invite/tok_123']) {
      const res = await fetch(built + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('id="root"');
    }
  });

  it('serves hashed assets for a year and other files for an hour', async () => {
    const js = await fetch(`${built}/assets/index-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${built}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
    const head = await fetch(`${built}/assets/index-abc123.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('leaves API paths and missing files as 404s, and nothing outside the build is reachable', async () => {
    expect((await fetch(`${built}/api/real`)).status).toBe(200);
    for (const p of ['/api/unknown', '/graphql/x', '/v1/nothing', '/assets/old-chunk.js', '/missing.png']) {
      const res = await fetch(built + p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
    const res = await fetch(`${built}/..%2Fsecret.txt`);
    expect(await res.text()).not.toContain('outside');
    expect((await fetch(`${built}/calls`, { method: 'POST' })).status).toBe(404);
  });

  it('says how to build the app when there is no build', async () => {
    const res = await fetch(`${missing}/calls`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('web app not built: run npm run build:web');
  });

  it('sends scripts compressed (brotli over gzip, precompressed or made once) and never the source maps in production', async () => {
    for (const file of ['index-big1.js', 'late-2.js']) {
      const br = await rawGet(`${production}/assets/${file}`, 'gzip, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.body.length).toBeLessThan(BIG_JS.length / 3);
      expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);
      const gz = await rawGet(`${production}/assets/${file}`, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);
      const plain = await rawGet(`${production}/assets/${file}`, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(BIG_JS);
    }
    const html = await rawGet(`${production}/calls`, 'br');
    expect(html.headers['content-encoding']).toBe('br');
    expect(html.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(html.body).toString()).toContain('id="root"');
    expect((await fetch(`${production}/assets/index-big1.js.map`)).status).toBe(404);
    expect((await fetch(`${production}/assets/index-big1.js.br`)).status).toBe(404);
  });

  it('picks the encoding the client accepts', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('*')).toBe('br');
  });
});
