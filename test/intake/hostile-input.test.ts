// Inputs a careless or hostile client can send: none may crash the service or surface as a 500.
import net from 'node:net';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { multipart, rawRequest } from '../support/raw-http.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let key: string;
test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  ({ key } = await seedAccount(svc));
});

test('an unparseable request target answers 400 and the service keeps serving', async () => {
  const { port } = new URL(svc.url);
  const answer = await new Promise<string>((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.end('POST //[ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'),
    );
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('close', () => resolve(data));
  });
  expect(answer).toMatch(/^HTTP\/1\.1 400/);
  expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
});

test('control characters in text fields are dropped; NUL is refused as invalid_text naming the field (issue 16)', async () => {
  const r = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07', customer_name: 'Ana María\u0007', external_id: 'x\u0001y' },
    file: { blob: wavBlob(), name: 'call.wav' },
  });
  expect(r.status).toBe(201);
  const [row] = await t.sql('SELECT customer_name, external_id FROM calls WHERE id = $1', [r.body.id]);
  expect(row).toEqual({ customer_name: 'Ana María', external_id: 'xy' });

  const nul = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07', external_id: 'x\u0000y' },
    file: { blob: wavBlob(), name: 'call.wav' },
  });
  expect(nul.status).toBe(400);
  expect(nul.body.error).toMatchObject({ code: 'invalid_text', field: 'external_id' });

  // A NUL can also arrive percent-encoded in an RFC 5987 file name.
  const B = 'nulBoundary';
  const body = Buffer.concat([
    multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false }),
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''call%00.wav\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    Buffer.from(await wavBlob().arrayBuffer()),
    Buffer.from(`\r\n--${B}--\r\n`),
  ]);
  const raw = await rawRequest(
    `${svc.url}/v1/calls`,
    {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${B}`,
      'content-length': body.length,
    },
    (req) => void req.end(body),
  );
  expect(raw.status).toBe(400);
  expect(raw.body.error).toMatchObject({ code: 'invalid_text', field: 'file' });
});

test('an absurd file extension never reaches the storage key', async () => {
  const r = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07' },
    file: {
      blob: new Blob([Buffer.from('not sniffable audio bytes')], { type: 'audio/mpeg' }),
      name: `a.${'x'.repeat(300)}`,
    },
  });
  expect(r.status).toBe(201);
  const [row] = await t.sql('SELECT storage_key FROM calls WHERE id = $1', [r.body.id]);
  expect(row.storage_key).toMatch(/\.bin$/);
});
