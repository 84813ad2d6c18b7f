// GET/HEAD /api/calls/:id/recording: the stored file, byte ranges for the player, tenant isolation.
import { createHash } from 'node:crypto';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { signedIn, wavBytes, type Signed } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

let svc: TestService;
let owner: Signed;
let viewer: Signed;
let other: Signed;
let callId: string;
let otherCallId: string;
const bytes = wavBytes(10_000);
const FILE_NAME = 'llamada señal (1).wav';

test.beforeAll(async ({ service }) => {
  svc = service;
  const a = await seedAccount(svc);
  const b = await seedAccount(svc);
  const posted = await postCall(svc.url, {
    key: a.key,
    fields: { agent_code: 'AG-07' },
    file: { blob: new Blob([bytes], { type: 'audio/wav' }), name: FILE_NAME },
  });
  expect(posted.status).toBe(201);
  callId = posted.body.id;
  const theirs = await postCall(svc.url, {
    key: b.key,
    fields: { agent_code: 'AG-07' },
    file: { blob: new Blob([wavBytes(2000)], { type: 'audio/wav' }), name: 'theirs.wav' },
  });
  otherCallId = theirs.body.id;
  owner = await signedIn(svc.app.db, a.account.id, 'owner');
  viewer = await signedIn(svc.app.db, a.account.id, 'viewer');
  other = await signedIn(svc.app.db, b.account.id, 'owner');
});

const get = (id: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${svc.url}/api/calls/${id}/recording`, { method, headers });
const body = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe('GET /api/calls/:id/recording', () => {
  test('streams the whole file with its type, length, validator and file name', async () => {
    const r = await get(callId, owner.headers());
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^audio\/(wav|x-wav|wave)/);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(r.headers.get('etag')).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
    expect(r.headers.get('content-disposition')).toBe(
      `inline; filename="llamada senal (1).wav"; filename*=UTF-8''llamada%20se%C3%B1al%20%281%29.wav`,
    );
    expect((await body(r)).equals(bytes)).toBe(true);
  });

  test('viewers may download too', async () => {
    const r = await get(callId, viewer.headers({ csrf: false }));
    expect(r.status).toBe(200);
    expect((await body(r)).length).toBe(bytes.length);
  });

  test('bytes=a-b → 206 with exactly those bytes and Content-Range', async () => {
    const r = await get(callId, { ...owner.headers(), range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(r.headers.get('content-length')).toBe('100');
    expect((await body(r)).equals(bytes.subarray(100, 200))).toBe(true);
  });

  test('bytes=a- → from a to the end; an end past the size is clamped', async () => {
    const open = await get(callId, { ...owner.headers(), range: 'bytes=9000-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 9000-9999/${bytes.length}`);
    expect((await body(open)).equals(bytes.subarray(9000))).toBe(true);
    const past = await get(callId, { ...owner.headers(), range: 'bytes=9990-20000' });
    expect(past.headers.get('content-range')).toBe(`bytes 9990-9999/${bytes.length}`);
    expect((await body(past)).equals(bytes.subarray(9990))).toBe(true);
  });

  test('suffix range bytes=-n → the last n bytes', async () => {
    const r = await get(callId, { ...owner.headers(), range: 'bytes=-16' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${bytes.length - 16}-${bytes.length - 1}/${bytes.length}`);
    expect((await body(r)).equals(bytes.subarray(bytes.length - 16))).toBe(true);
  });

  test('a range starting past the end → 416 with Content-Range: bytes */size', async () => {
    const r = await get(callId, { ...owner.headers(), range: `bytes=${bytes.length}-` });
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect((await r.json()).error.code).toBe('range_not_satisfiable');
  });

  test('several ranges or a malformed header → the whole file (200)', async () => {
    for (const range of ['bytes=0-1,5-6', 'lines=1-2', 'bytes=5-1']) {
      const r = await get(callId, { ...owner.headers(), range });
      expect(r.status, range).toBe(200);
      expect((await body(r)).length).toBe(bytes.length);
    }
  });

  test('HEAD → the same headers and no body', async () => {
    const r = await get(callId, owner.headers(), 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect((await body(r)).length).toBe(0);
    const ranged = await get(callId, { ...owner.headers(), range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  test('If-None-Match with the ETag → 304; If-Range with a stale ETag → the whole file', async () => {
    const etag = (await get(callId, owner.headers(), 'HEAD')).headers.get('etag')!;
    expect((await get(callId, { ...owner.headers(), 'if-none-match': etag })).status).toBe(304);
    const stale = await get(callId, { ...owner.headers(), range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  test("another account's call → 404 not_found, never its bytes", async () => {
    const r = await get(otherCallId, owner.headers());
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const mine = await get(otherCallId, other.headers());
    expect(mine.status).toBe(200);
    await mine.arrayBuffer();
  });

  test('unknown or malformed ids → 404', async () => {
    expect((await get('00000000-0000-4000-8000-000000000000', owner.headers())).status).toBe(404);
    expect((await get('not-a-uuid', owner.headers())).status).toBe(404);
  });

  test('no session (or a bogus cookie) → 401 JSON', async () => {
    for (const headers of [{}, { cookie: 'escucha_session=nope' }] as Record<string, string>[]) {
      const r = await get(callId, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect((await r.json()).error.code).toBe('unauthorized');
    }
  });
});
