import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { webAppFallback } from '../../src/http/web-app.ts';
import { createLogger } from '../../src/log.ts';

const app = { log: createLogger('silent') } as unknown as AppContext;
const dirs: string[] = [];
const servers: http.Server[] = [];

async function serve(dist: string): Promise<string> {
  const server = createHttpServer(
    app,
    [{ method: 'GET', path: /^\/api\/real$/, handler: (_q, r) => void r.end('api') }],
    webAppFallback(app, dist),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let built: string;
let missing: string;
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
});
