// Issue 16, stored XSS: whatever a client declares, a recording is served as audio (or octet-stream)
// with a sandbox CSP, so a planted page never runs on the app's origin.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '../support/harness.ts';
import type { TestDb } from '../support/db.ts';
import { postCall } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';
import { signedIn, type Signed } from '../http/support.ts';

let t: TestDb;
let svc: TestService;
let key: string;
let owner: Signed;
const PAGE = Buffer.from('<html><body><script>fetch("/graphql")</script></body></html>'.padEnd(400, ' '));
const SANDBOX = "default-src 'none'; sandbox";

test.beforeAll(async ({ db, service, seed }) => {
  t = db;
  svc = service;
  const a = await seed();
  key = a.key;
  owner = await signedIn(svc.app.db, a.account.id, 'owner');
});

async function download(id: string) {
  const res = await fetch(`${svc.url}/api/calls/${id}/recording`, { headers: owner.headers() });
  await res.arrayBuffer();
  return res;
}

describe('recordings sent through the API', () => {
  for (const declared of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'text/javascript']) {
    test(`declared ${declared} is stored and served as audio with the sandbox CSP`, async () => {
      const r = await postCall(svc.url, {
        key,
        fields: { agent_code: 'AG-07' },
        file: { blob: new Blob([PAGE], { type: declared }), name: 'x.wav' },
      });
      expect(r.status).toBe(201);
      const [row] = await t.sql('SELECT content_type FROM calls WHERE id = $1', [r.body.id]);
      expect(row.content_type).toBe('audio/wav');
      const res = await download(r.body.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/wav');
      expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });
  }

  test('a declared audio type with an unknown extension is stored as application/octet-stream, never echoed', async () => {
    const r = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07' },
      file: { blob: new Blob([PAGE], { type: 'audio/x-evil' }), name: 'x.html' },
    });
    expect(r.status).toBe(201);
    const res = await download(r.body.id);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
  });
});

test('the manual upload of the app stores the same inert type', async () => {
  const form = new FormData();
  form.append('agent_code', 'AG-07');
  form.append('file', new Blob([PAGE], { type: 'text/html' }), 'page.mp3');
  const res = await fetch(`${svc.url}/api/uploads`, { method: 'POST', body: form, headers: owner.headers() });
  expect(res.status).toBe(200);
  const { results } = (await res.json()) as { results: { id: string; ok: boolean }[] };
  expect(results[0]!.ok).toBe(true);
  const served = await download(results[0]!.id);
  expect(served.headers.get('content-type')).toBe('audio/mp3');
  expect(served.headers.get('content-security-policy')).toBe(SANDBOX);
});

test('rows stored before the fix are served as audio, and the migration rewrites their type', async () => {
  const r = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07' },
    file: { blob: new Blob([PAGE], { type: 'text/html' }), name: 'old.wav' },
  });
  const n = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07' },
    file: { blob: new Blob([PAGE], { type: 'audio/x-evil' }), name: 'old.bin' },
  });
  // What the service stored before issue 16: the declared type.
  await t.sql(`UPDATE calls SET content_type = 'text/html' WHERE id = $1`, [r.body.id]);
  await t.sql(`UPDATE calls SET content_type = 'image/svg+xml' WHERE id = $1`, [n.body.id]);
  expect((await download(r.body.id)).headers.get('content-type')).toBe('audio/wav');
  expect((await download(n.body.id)).headers.get('content-type')).toBe('application/octet-stream');

  const sql = readFileSync(
    new URL('../../prisma/migrations/20261123100001_inert_recording_types/migration.sql', import.meta.url),
    'utf8',
  );
  await t.sql(sql);
  const rows = await t.sql('SELECT id, content_type FROM calls WHERE id = ANY($1::uuid[]) ORDER BY file_name DESC', [
    [r.body.id, n.body.id],
  ]);
  expect(rows.map((x: { content_type: string }) => x.content_type)).toEqual(['audio/wav', 'application/octet-stream']);
});

test('the CSV export carries the sandbox CSP and nosniff', async () => {
  const res = await fetch(`${svc.url}/api/calls/export.csv`, { headers: owner.headers() });
  await res.text();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});
