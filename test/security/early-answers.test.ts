// Issue 25.1: every early refusal (401, 429, 400 too large or wrong type, 507, 408, GraphQL 413)
// reaches every client an integrator uses — Node's fetch on Node 20, 22 and 24, got, curl, Python's
// requests and Java's HttpClient — at 1 kB, 2 MB and 30 MB, with the service (`src/main.ts`) in one
// child process and each client in another, as in production. (Issues 16.3 and 9.3 tested this with
// the client inside the server's own process, where the race these clients meet never happens.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from '../support/harness.ts';
import {
  type Client,
  type ClientCase,
  curlClient,
  fetchClient,
  gotClient,
  javaClient,
  requestsClient,
} from '../support/clients/index.ts';
import type { TestDb } from '../support/db.ts';
import type { ServiceProcess } from '../support/process.ts';
import { multipart } from '../support/raw-http.ts';

const SIZES = { '1 kB': 1024, '2 MB': 2 * 1_048_576, '30 MB': 30 * 1_048_576 } as const;
type Size = keyof typeof SIZES;
const BOUNDARY = 'escucha-interop-boundary';
/** Seconds without a byte before the service answers 408 (INTAKE_IDLE_TIMEOUT_SECONDS). */
const IDLE_SECONDS = 1;

let t: TestDb;
let api: ServiceProcess;
/** A second api process whose disk is always "full" (MIN_FREE_DISK_MB above any disk): 507. */
let full: ServiceProcess;
let dir: string;
let key: string;
let blockedKey: string;

interface Expected extends ClientCase {
  status: number;
  code: string;
}
let cases: Expected[] = [];

test.beforeAll(async ({ db, seed, serviceProcess }) => {
  t = db;
  dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-early-'));
  ({ key } = await seed());
  const blocked = await seed();
  blockedKey = blocked.key;
  // An account whose current rate-limit window is long past its limit (as after a burst).
  await t.sql(`INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1000000, $2)`, [
    `intake:${blocked.account.id}`,
    Date.now() + 3_600_000,
  ]);
  const env = {
    INTAKE_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
    // curl's slow link (256 B/s) is under the floor (1 kB/s) within a second.
    INTAKE_MIN_RATE_WINDOW_SECONDS: '1',
    GRAPHQL_MAX_BODY_BYTES: '1024',
  };
  [api, full] = await Promise.all([
    serviceProcess({ env, ownDataDir: true }),
    serviceProcess({ env: { ...env, MIN_FREE_DISK_MB: '1000000000' }, ownDataDir: true }),
  ]);
  cases = buildCases();
}, 180_000);

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bodyFile(name: string, data: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, data);
  return file;
}

/** The matrix: each refusal at each size it can happen at. */
function buildCases(): Expected[] {
  const out: Expected[] = [];
  const form = (n: number, close = true) =>
    multipart(
      BOUNDARY,
      [
        { name: 'agent_code', data: 'AG-07' },
        { name: 'file', filename: 'call.wav', type: 'audio/wav', data: Buffer.alloc(n, 1) },
      ],
      { close },
    );
  const formType = `multipart/form-data; boundary=${BOUNDARY}`;
  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  for (const [size, n] of Object.entries(SIZES) as [Size, number][]) {
    const forms = bodyFile(`form-${n}`, form(n));
    const add = (c: Omit<Expected, 'name' | 'file'> & { file?: string }, label: string) =>
      out.push({ file: forms, ...c, name: `${label} at ${size}` });
    add(
      { url: `${api.url}/v1/calls`, headers: { 'content-type': formType }, status: 401, code: 'unauthorized' },
      '401 no key',
    );
    // At 30 MB the 401, the 400 and the 413 stand for every refusal answered before reading (as the
    // 429 is): the large body is what matters, and each 30 MB case costs seconds per client.
    if (n < 20 * 1_048_576)
      add(
        {
          url: `${api.url}/v1/calls`,
          headers: { 'content-type': formType, ...bearer(blockedKey) },
          status: 429,
          code: 'rate_limited',
        },
        '429 rate limited',
      );
    if (n >= 20 * 1_048_576)
      add(
        {
          url: `${api.url}/v1/calls`,
          headers: { 'content-type': formType, ...bearer(key) },
          status: 400,
          code: 'bad_request',
        },
        '400 too large',
      );
    else {
      add(
        {
          url: `${api.url}/v1/calls`,
          headers: { 'content-type': 'application/octet-stream', ...bearer(key) },
          status: 400,
          code: 'bad_request',
        },
        '400 not multipart',
      );
      add(
        {
          url: `${full.url}/v1/calls`,
          headers: { 'content-type': formType, ...bearer(key) },
          status: 507,
          code: 'insufficient_storage',
        },
        '507 disk full',
      );
      add(
        {
          url: `${api.url}/v1/calls`,
          file: bodyFile(`stalled-${n}`, form(n, false)),
          headers: { 'content-type': formType, ...bearer(key) },
          stall: IDLE_SECONDS + 2,
          status: 408,
          code: 'request_timeout',
        },
        '408 stalled',
      );
    }
    const query = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(n) } });
    add(
      {
        url: `${api.url}/graphql`,
        file: bodyFile(`graphql-${n}`, Buffer.from(query)),
        headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
        status: 413,
        code: 'payload_too_large',
      },
      'GraphQL 413',
    );
  }
  return out;
}

const clients: Client[] = [
  fetchClient(20),
  fetchClient(22),
  fetchClient(24),
  gotClient,
  curlClient,
  requestsClient,
  javaClient,
];

describe('every client, in its own process, reads every early refusal', () => {
  for (const client of clients) {
    test(`${client.name}`, async () => {
      const results = await client.run(cases);
      const seen = results.map((r) => {
        let code: string | undefined;
        try {
          code = JSON.parse(r.body ?? '').error?.code;
        } catch {}
        return r.error ? `${r.name}: ${r.error}` : `${r.name}: ${r.status} ${code}`;
      });
      console.log(`${client.name}\n  ${seen.join('\n  ')}`);
      expect(seen).toEqual(cases.map((c) => `${c.name}: ${c.status} ${c.code}`));
    }, 600_000);
  }
});
