// Issue 16.7: intake under pressure — a real full filesystem (tmpfs), real slow sockets, too many
// uploads per key. Every refusal is readable, typed, leaves no file or row, and is reported once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';
import { describe, expect, test } from '../support/harness.ts';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob, wavBuffer } from '../support/intake.ts';
import { multipart, rawRequest } from '../support/raw-http.ts';
import { seedAccount, startTestService, type TestService } from '../support/service.ts';

let t: TestDb;
test.beforeAll(({ db }) => {
  t = db;
});

const countCalls = async () => Number((await t.sql('SELECT count(*) AS n FROM calls'))[0].n);
const incoming = (svc: TestService) => readdirSync(svc.config.tmpDir);

describe('a full disk (a real 40 MB tmpfs)', () => {
  let mount: string;
  let svc: TestService;
  let refusing: TestService;
  let key: string;
  beforeAll(async () => {
    mount = mkdtempSync(path.join(os.tmpdir(), 'escucha-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', mount]);
    svc = await startTestService(t, { env: { STORAGE_DIR: path.join(mount, 'a'), MIN_FREE_DISK_MB: '0' } });
    refusing = await startTestService(t, { env: { STORAGE_DIR: path.join(mount, 'b'), MIN_FREE_DISK_MB: '1000' } });
    ({ key } = await seedAccount(svc));
  });
  afterAll(async () => {
    await svc?.stop();
    await refusing?.stop();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  test('answers 507 insufficient_storage with Retry-After, keeps nothing, alerts once, and recovers', async () => {
    const alerts = vi.spyOn(svc.app.log, 'error');
    // Leave about 1 MB free: a 6 MB upload then fails halfway through with ENOSPC.
    const filler = path.join(mount, 'filler');
    writeFileSync(filler, Buffer.alloc(39 * 1_048_576));
    const before = await countCalls();
    for (let i = 0; i < 2; i++) {
      const r = await postCall(svc.url, {
        key,
        fields: { agent_code: 'AG-07' },
        file: { blob: new Blob([wavBuffer(6 * 1_048_576)], { type: 'audio/wav' }), name: 'big.wav' },
      });
      expect(r.status).toBe(507);
      expect(r.body.error.code).toBe('insufficient_storage');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await countCalls()).toBe(before);
    expect(incoming(svc)).toEqual([]);
    expect(alerts.mock.calls.filter(([, msg]) => String(msg).startsWith('ALERT storage'))).toHaveLength(1);

    rmSync(filler);
    const ok = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07' },
      file: { blob: new Blob([wavBuffer(6 * 1_048_576)], { type: 'audio/wav' }), name: 'big.wav' },
    });
    expect(ok.status).toBe(201);
  }, 60_000);

  test('refuses early, before reading the file, while free space is below MIN_FREE_DISK_MB', async () => {
    const { key: k } = await seedAccount(refusing);
    const r = await postCall(refusing.url, {
      key: k,
      fields: { agent_code: 'AG-07' },
      file: { blob: wavBlob(), name: 'a.wav' },
    });
    expect(r.status).toBe(507);
    expect(r.body.error.code).toBe('insufficient_storage');
    expect(r.headers.get('retry-after')).toBe('60');
    expect(incoming(refusing)).toEqual([]);
  });
});

describe('slow and greedy clients (real sockets)', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService(t, {
      env: {
        INTAKE_IDLE_TIMEOUT_SECONDS: '2',
        INTAKE_MIN_BYTES_PER_SECOND: '1000',
        INTAKE_MIN_RATE_WINDOW_SECONDS: '4',
        INTAKE_MAX_CONCURRENT_PER_KEY: '2',
      },
    });
    ({ key } = await seedAccount(svc));
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const B = 'slowBoundary';
  const head = Buffer.concat([
    multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false }),
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    wavBuffer(4096),
  ]);
  const headers = () => ({
    authorization: `Bearer ${key}`,
    'content-type': `multipart/form-data; boundary=${B}`,
    'content-length': 5 * 1_048_576,
  });

  test('a client that goes silent is answered 408 request_timeout and its temporary file removed', async () => {
    const info = vi.spyOn(svc.app.log, 'info');
    const r = await rawRequest(`${svc.url}/v1/calls`, headers(), (req) => void req.write(head));
    expect(r.status).toBe(408);
    expect(r.body.error.code).toBe('request_timeout');
    await expect.poll(() => incoming(svc)).toEqual([]);
    expect(info.mock.calls.some(([o]) => (o as any)?.outcome === 'timed_out')).toBe(true);
  }, 30_000);

  test('a client trickling one byte at a time is cut once its average falls below the floor', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await rawRequest(`${svc.url}/v1/calls`, headers(), (req) => {
      req.write(head);
      timer = setInterval(() => req.write(Buffer.from([0])), 500);
      req.on('close', () => clearInterval(timer));
    });
    clearInterval(timer);
    expect(r.status).toBe(408);
    expect(r.body.error.message).toMatch(/averaged less than 1000 bytes\/s/);
    await expect.poll(() => incoming(svc)).toEqual([]);
  }, 30_000);

  test('more than INTAKE_MAX_CONCURRENT_PER_KEY uploads at once: 429 with Retry-After, reported as refused', async () => {
    const info = vi.spyOn(svc.app.log, 'info');
    const timers: NodeJS.Timeout[] = [];
    const slow = [0, 1].map(() =>
      rawRequest(`${svc.url}/v1/calls`, headers(), (req) => {
        req.write(head);
        // Fast enough for the floor, never finishing while the third request is made.
        const timer = setInterval(() => req.write(Buffer.alloc(2048)), 250);
        timers.push(timer);
        req.on('close', () => clearInterval(timer));
      }),
    );
    await expect.poll(() => incoming(svc).length).toBe(2);
    const third = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07' },
      file: { blob: wavBlob(), name: 'c.wav' },
    });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(info.mock.calls.some(([o]) => (o as any)?.outcome === 'refused' && (o as any)?.status === 429)).toBe(true);
    for (const timer of timers) clearInterval(timer);
    await Promise.all(slow);
    await expect.poll(() => incoming(svc)).toEqual([]);
  }, 30_000);

  test('an aborted upload leaves nothing and is reported with its request id', async () => {
    const info = vi.spyOn(svc.app.log, 'info');
    await rawRequest(`${svc.url}/v1/calls`, { ...headers(), 'x-request-id': 'abort-test-0001' }, async (req) => {
      req.write(head);
      await expect.poll(() => incoming(svc).length).toBe(1);
      req.destroy();
    });
    await expect.poll(() => incoming(svc)).toEqual([]);
    await expect.poll(() => info.mock.calls.some(([o]) => (o as any)?.outcome === 'aborted')).toBe(true);
  }, 30_000);
});
