// §7/§8 limits and malformed bodies: the documented error (or a clean close) and nothing left behind.
import { beforeEach } from 'vitest';
import { INTAKE_MAX_BYTES } from '../../src/intake/routes.ts';
import type { TestDb } from '../support/db.ts';
import { multipart, rawRequest, writeBytes } from '../support/raw-http.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { wavBlob } from '../support/intake.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let key: string;
const B = 'escuchaBoundary42';

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  ({ key } = await seedAccount(svc, { minutes: 100_000 }));
});

const wav = async (n: number) => Buffer.from(await wavBlob(n).arrayBuffer());
const headers = (extra: Record<string, string | number> = {}) => ({
  authorization: `Bearer ${key}`,
  'content-type': `multipart/form-data; boundary=${B}`,
  ...extra,
});

async function counts() {
  const [row] = await t.sql(`SELECT (SELECT count(*)::int FROM calls) AS calls,
    (SELECT coalesce(sum(minutes_reserved), 0)::int FROM usage_totals) AS reserved,
    (SELECT coalesce(sum(calls), 0)::int FROM usage_totals) AS counted,
    (SELECT count(*)::int FROM minute_ledger) AS ledger`);
  return { ...row, files: svc.storedFiles().length };
}

/** A form whose total size is exactly `total` bytes, the file padded to fit. */
async function formOfSize(total: number) {
  const head = multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false });
  const fileHead = Buffer.from(
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${B}--\r\n`);
  const fileLen = total - head.length - fileHead.length - tail.length;
  return Buffer.concat([head, fileHead, await wav(fileLen), tail]);
}

let baseline: Awaited<ReturnType<typeof counts>>;
beforeEach(async () => {
  baseline = await counts();
});

describe('§8 size of the whole request: strictly less than 20 MB', () => {
  test('a body of 20 MB − 1 byte is accepted (201)', async () => {
    const body = await formOfSize(INTAKE_MAX_BYTES - 1);
    const r = await rawRequest(
      `${svc.url}/v1/calls`,
      headers({ 'content-length': body.length }),
      (req) => void req.end(body),
    );
    expect(r.status).toBe(201);
    expect((await counts()).reserved - baseline.reserved).toBe(20);
  });

  test('a body of exactly 20 MB → 400 bad_request by Content-Length, without reading it, nothing stored', async () => {
    const r = await rawRequest(`${svc.url}/v1/calls`, headers({ 'content-length': INTAKE_MAX_BYTES }), async (req) => {
      // Send only the head: the answer must come from Content-Length alone.
      req.write(multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false }));
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('bad_request');
    expect(r.body.error.message).toMatch(/20 MB/);
    expect(await counts()).toEqual(baseline);
  });

  test('a chunked body (no Content-Length) reaching 20 MB → 400 bad_request counted while streaming, nothing stored', async () => {
    const r = await rawRequest(`${svc.url}/v1/calls`, headers({ 'transfer-encoding': 'chunked' }), async (req) => {
      req.write(multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false }));
      req.write(
        `--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      );
      req.write(await wav(1024));
      await writeBytes(req, INTAKE_MAX_BYTES + 1_000_000);
      req.end();
    });
    expect(r.closedWithoutResponse || r.status === 400).toBe(true);
    if (r.status) expect(r.body.error.code).toBe('bad_request');
    await new Promise((res) => setTimeout(res, 300));
    expect(await counts()).toEqual(baseline);
  });

  test('a small chunked body without Content-Length is accepted', async () => {
    const body = await formOfSize(100_000);
    const r = await rawRequest(`${svc.url}/v1/calls`, headers({ 'transfer-encoding': 'chunked' }), (req) => {
      req.write(body.subarray(0, 50_000));
      req.end(body.subarray(50_000));
    });
    expect(r.status).toBe(201);
  });
});

describe('PRODUCT: malformed multipart → 400 bad_request and nothing left behind', () => {
  const cases: [string, () => Promise<{ headers: Record<string, string | number>; body: Buffer }>][] = [
    [
      'a truncated body',
      async () => {
        const full = await formOfSize(50_000);
        return { headers: headers(), body: full.subarray(0, 30_000) };
      },
    ],
    [
      'a wrong boundary',
      async () => ({
        headers: headers({ 'content-type': 'multipart/form-data; boundary=somethingElse' }),
        body: await formOfSize(10_000),
      }),
    ],
    [
      'no boundary at all',
      async () => ({ headers: headers({ 'content-type': 'multipart/form-data' }), body: await formOfSize(10_000) }),
    ],
    [
      'not multipart (JSON)',
      async () => ({ headers: headers({ 'content-type': 'application/json' }), body: Buffer.from('{"file":"x"}') }),
    ],
    ['no file part', async () => ({ headers: headers(), body: multipart(B, [{ name: 'agent_code', data: 'AG-07' }]) })],
    [
      'a file under another part name',
      async () => ({
        headers: headers(),
        body: multipart(B, [
          { name: 'agent_code', data: 'AG-07' },
          { name: 'recording', filename: 'a.wav', type: 'audio/wav', data: await wav(2000) },
        ]),
      }),
    ],
    [
      'two file parts',
      async () => ({
        headers: headers(),
        body: multipart(B, [
          { name: 'agent_code', data: 'AG-07' },
          { name: 'file', filename: 'a.wav', type: 'audio/wav', data: await wav(2000) },
          { name: 'file', filename: 'b.wav', type: 'audio/wav', data: await wav(2000) },
        ]),
      }),
    ],
    [
      'an empty file',
      async () => ({
        headers: headers(),
        body: multipart(B, [
          { name: 'agent_code', data: 'AG-07' },
          { name: 'file', filename: 'a.wav', type: 'audio/wav', data: Buffer.alloc(0) },
        ]),
      }),
    ],
  ];
  for (const [name, make] of cases) {
    test(name, async () => {
      const { headers: h, body } = await make();
      const r = await rawRequest(`${svc.url}/v1/calls`, { ...h, 'content-length': body.length }, (req) => {
        req.write(body);
        if (name === 'a truncated body') setTimeout(() => req.socket?.end(), 100);
        else req.end();
      });
      if (name === 'a truncated body') expect(r.closedWithoutResponse || r.status === 400).toBe(true);
      else {
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe('bad_request');
        expect(typeof r.body.error.message).toBe('string');
      }
      await new Promise((res) => setTimeout(res, 200));
      expect(await counts()).toEqual(baseline);
    });
  }

  test('a 1 MB text field is cut to 300 characters, without holding it all (201)', async () => {
    const body = multipart(B, [
      { name: 'agent_code', data: 'AG-07' },
      { name: 'customer_name', data: 'n'.repeat(1_048_576) },
      { name: 'file', filename: 'a.wav', type: 'audio/wav', data: await wav(4000) },
    ]);
    const r = await rawRequest(
      `${svc.url}/v1/calls`,
      headers({ 'content-length': body.length }),
      (req) => void req.end(body),
    );
    expect(r.status).toBe(201);
    const [row] = await t.sql('SELECT customer_name FROM calls WHERE id = $1', [r.body.id]);
    expect(row.customer_name).toBe('n'.repeat(300));
  });

  test('a client that disconnects mid-upload leaves no row, no file (temporary or stored) and no charge', async () => {
    const r = await rawRequest(`${svc.url}/v1/calls`, headers({ 'content-length': 5_000_000 }), async (req) => {
      req.write(multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false }));
      req.write(
        `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      );
      req.write(await wav(1_000_000));
      await new Promise((res) => setTimeout(res, 200));
      req.destroy();
    });
    expect(r.status).toBeNull();
    await new Promise((res) => setTimeout(res, 500));
    expect(await counts()).toEqual(baseline);
  });
});
