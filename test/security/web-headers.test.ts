// Issue 16.2: the web app's pages carry a strict CSP (no inline script or style allowed), and
// Strict-Transport-Security is sent when PUBLIC_URL is https.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/harness.ts';
import { webAppFallback } from '../../src/http/web-app.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { createLogger } from '../../src/log.ts';
import type { TestService } from '../support/service.ts';

let https: TestService;
let plain: TestService;
test.beforeAll(async ({ service, serviceWith }) => {
  https = service;
  plain = await serviceWith({ env: { PUBLIC_URL: 'http://localhost:3000' } });
});

test('pages of the app carry the strict CSP, with neither unsafe-inline nor unsafe-eval', async () => {
  const res = await fetch(`${https.url}/calls`);
  await res.text();
  const csp = res.headers.get('content-security-policy') ?? '';
  for (const directive of [
    "default-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ])
    expect(csp).toContain(directive);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
});

test('HSTS only when PUBLIC_URL is https', async () => {
  expect((await fetch(`${https.url}/healthz`)).headers.get('strict-transport-security')).toBe('max-age=31536000');
  expect((await fetch(`${plain.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
});

test('the "not built" page allows its one stylesheet by hash, not with unsafe-inline', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'escucha-nodist-'));
  const server = createHttpServer(
    { config: https.config, log: createLogger('silent') } as never,
    [],
    webAppFallback({ log: createLogger('silent') } as never, empty),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/`);
  const html = await res.text();
  expect(res.status).toBe(503);
  expect(html).toContain('<style>');
  expect(res.headers.get('content-security-policy')).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  server.close();
  rmSync(empty, { recursive: true, force: true });
});
