// Issue 25.2: one APP_SECRET for every process. The service records its key check in the database;
// a CLI (or another service process) whose APP_SECRET differs — e.g. run from a shell with another
// DATA_DIR, whose generated app-secret is another — refuses with one line instead of sealing
// webhook secrets the service cannot open.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SECRET_MISMATCH } from '../../src/crypto/key-check.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { type ServiceProcess, startServiceProcess } from '../support/process.ts';
import { seedAccount } from '../support/service.ts';
import { repoRoot } from './support.ts';

let t: TestDb;
let serviceDir: string;
let otherDir: string;
let svc: ServiceProcess;

/** The README's setup: no APP_SECRET set, so each DATA_DIR generates its own (DATA_DIR/app-secret). */
function env(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { APP_SECRET: _, ...rest } = process.env;
  return {
    ...rest,
    NODE_ENV: 'development',
    DATABASE_URL: t.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

function run(
  cmd: string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...cmd], { cwd: repoRoot, env: environment });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  t = await createTestDb();
  serviceDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-service-'));
  otherDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-other-shell-'));
  svc = await startServiceProcess({ ...env(serviceDir), LOG_LEVEL: 'info' }, ['--role', 'api']);
}, 120_000);
afterAll(async () => {
  svc?.child.kill('SIGTERM');
  await svc?.exited;
  await t?.drop();
  rmSync(serviceDir, { recursive: true, force: true });
  rmSync(otherDir, { recursive: true, force: true });
});

describe('one APP_SECRET for every process', () => {
  it('webhook:set from a shell with another DATA_DIR refuses with one line and changes nothing; with the service’s DATA_DIR it works', async () => {
    const { account } = await seedAccount({ app: { db: t.db } } as Parameters<typeof seedAccount>[0]);
    const args = ['scripts/cli.ts', 'webhook:set', '--account', account.id, '--url', 'http://127.0.0.1:9/hook'];

    const refused = await run(args, env(otherDir));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`error: ${APP_SECRET_MISMATCH}\n`);
    expect(await t.sql('SELECT id FROM webhook_endpoints WHERE account_id = $1', [account.id])).toEqual([]);

    const ok = await run(args, env(serviceDir));
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).secret).toMatch(/^whsec_/);
  });

  it('a second service process with another APP_SECRET refuses to start, saying what to set', async () => {
    const r = await run(
      ['src/main.ts', '--role', 'api'],
      env(otherDir, { APP_SECRET: 'another-secret-'.padEnd(48, 'z') }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`Escucha cannot start: ${APP_SECRET_MISMATCH}`);
  });
});
