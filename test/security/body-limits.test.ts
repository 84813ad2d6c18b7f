// Issues 16.3 and 9.3: early refusals (401, 400 too large / wrong type, GraphQL 413) reach clients
// that write the whole body before reading (Node's fetch), as well as got and curl.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { seedAccount, startTestService, type TestService } from '../support/service.ts';

const run = promisify(execFile);
let t: TestDb;
let svc: TestService;
let key: string;
let dir: string;
const SIZES = { '1 kB': 1024, '2 MB': 2 * 1_048_576, '30 MB': 30 * 1_048_576 };

beforeAll(async () => {
  t = await createTestDb();
  svc = await startTestService(t);
  ({ key } = await seedAccount(svc));
  dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-bodies-'));
});
afterAll(async () => {
  await svc?.stop();
  await t?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function form(bytes: number) {
  const f = new FormData();
  f.append('agent_code', 'AG-07');
  f.append('file', new Blob([Buffer.alloc(bytes, 1)], { type: 'audio/wav' }), 'call.wav');
  return f;
}

describe('POST /v1/calls early errors', () => {
  for (const [label, bytes] of Object.entries(SIZES)) {
    it(`Node's fetch reads the 401 without a key at ${label}`, async () => {
      const res = await fetch(`${svc.url}/v1/calls`, { method: 'POST', body: form(bytes) });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.code).toBe('unauthorized');
    }, 60_000);

    it(`got reads the 401 without a key at ${label}`, async () => {
      const res = await got.post(`${svc.url}/v1/calls`, {
        body: form(bytes),
        throwHttpErrors: false,
        retry: { limit: 0 },
      });
      expect(res.statusCode).toBe(401);
      expect(JSON.parse(res.body).error.code).toBe('unauthorized');
    }, 60_000);

    it(`curl reads the 401 without a key at ${label}`, async () => {
      const file = path.join(dir, `body-${bytes}.wav`);
      writeFileSync(file, Buffer.alloc(bytes, 1));
      const { stdout } = await run('curl', [
        '-s',
        '-w',
        '\n%{http_code}',
        '-F',
        `file=@${file}`,
        `${svc.url}/v1/calls`,
      ]);
      const [body, status] = stdout.split('\n');
      expect(status).toBe('401');
      expect(JSON.parse(body!).error.code).toBe('unauthorized');
    }, 60_000);
  }

  it("Python's requests reads the 401 without a key at 30 MB", async () => {
    const script = `import requests,sys\nr=requests.post(sys.argv[1],files={'file':('call.wav',b'\\x01'*${SIZES['30 MB']})})\nprint(r.status_code, r.json()['error']['code'])`;
    const { stdout } = await run('python3', ['-c', script, `${svc.url}/v1/calls`]);
    expect(stdout.trim()).toBe('401 unauthorized');
  }, 60_000);

  it("Node's fetch reads the 400 for a body of 20 MB or more (30 MB) with a valid key", async () => {
    const res = await fetch(`${svc.url}/v1/calls`, {
      method: 'POST',
      body: form(30 * 1_048_576),
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toMatch(/less than 20 MB/);
  }, 60_000);

  it("Node's fetch reads the 400 for a body that is not multipart (2 MB)", async () => {
    const res = await fetch(`${svc.url}/v1/calls`, {
      method: 'POST',
      body: Buffer.alloc(2 * 1_048_576),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('bad_request');
  }, 60_000);
});

describe('GraphQL body limit (GRAPHQL_MAX_BODY_BYTES, 1 MB by default)', () => {
  const big = (bytes: number) => JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(bytes) } });

  for (const [label, bytes] of Object.entries({ '2 MB': 2 * 1_048_576, '30 MB': 30 * 1_048_576 })) {
    it(`an unauthenticated ${label} body gets a readable 413 with Node's fetch`, async () => {
      const res = await fetch(`${svc.url}/graphql`, {
        method: 'POST',
        body: big(bytes),
        headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as any).error.code).toBe('payload_too_large');
    }, 60_000);
  }

  it('a chunked body without Content-Length is counted too', async () => {
    const payload = Buffer.from(big(2 * 1_048_576));
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < payload.length; i += 65_536) c.enqueue(payload.subarray(i, i + 65_536));
        c.close();
      },
    });
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
    } as RequestInit);
    expect(res.status).toBe(413);
  }, 60_000);

  it('a body under the limit is still served', async () => {
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      body: JSON.stringify({ query: '{ __typename }' }),
      headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.__typename).toBe('Query');
  });
});
