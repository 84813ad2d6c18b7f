// Issue 25.2: one APP_SECRET for every process. The service records its key check in the database;
// a CLI (or another service process) whose APP_SECRET differs — e.g. run from a shell with another
// DATA_DIR, whose generated app-secret is another — refuses with one line instead of sealing
// webhook secrets the service cannot open.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_SECRET_MISMATCH } from '../../src/crypto/key-check.ts';
import { describe, expect, test } from '../support/harness.ts';
import type { ServiceProcess } from '../support/process.ts';
import { repoRoot } from './support.ts';

let svc: ServiceProcess;
let otherDir: string;

test.beforeAll(async ({ serviceProcess }) => {
  otherDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-other-shell-'));
  // The README's setup: no APP_SECRET set, so each DATA_DIR generates its own (DATA_DIR/app-secret).
  svc = await serviceProcess({
    env: { NODE_ENV: 'development', APP_SECRET: undefined, PUBLIC_URL: undefined },
    args: ['--role', 'api'],
    ownDataDir: true,
  });
}, 120_000);
test.afterAll(() => rmSync(otherDir, { recursive: true, force: true }));

/** A shell with the service's settings, in `dataDir`: the service's own, or another one's. */
function env(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...svc.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
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

describe('one APP_SECRET for every process', () => {
  test('webhook:set from a shell with another DATA_DIR refuses with one line and changes nothing; with the service’s DATA_DIR it works', async ({
    db,
    seed,
  }) => {
    const { account } = await seed();
    const args = ['scripts/cli.ts', 'webhook:set', '--account', account.id, '--url', 'http://127.0.0.1:9/hook'];

    const refused = await run(args, env(otherDir));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`error: ${APP_SECRET_MISMATCH}\n`);
    expect(await db.sql('SELECT id FROM webhook_endpoints WHERE account_id = $1', [account.id])).toEqual([]);

    const ok = await run(args, env(svc.env.DATA_DIR!));
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).secret).toMatch(/^whsec_/);
  });

  test('a second service process with another APP_SECRET refuses to start, saying what to set', async () => {
    const r = await run(
      ['src/main.ts', '--role', 'api'],
      env(otherDir, { APP_SECRET: 'another-secret-'.padEnd(48, 'z') }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`Escucha cannot start: ${APP_SECRET_MISMATCH}`);
  });
});
