// Issue 9 point 4: the embedded PostgreSQL as an operator meets it — a taken port, two instances side
// by side, a clone in a private folder as root — always a working start or one line saying what to change.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startService, type Service } from '../../src/service/start.ts';
import { loadConfig } from '../../src/config.ts';
import { StartupError } from '../../src/db/embedded.ts';
import { createLogger } from '../../src/log.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-pg-'));
  dirs.push(dir);
  return dir;
}

function env(dataDir: string, extra: Record<string, string> = {}) {
  const { DATABASE_URL: _no, EMBEDDED_PG_PORT: _none, ...rest } = process.env;
  return { ...rest, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...extra };
}

async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

it('a taken EMBEDDED_PG_PORT stops the start with one line naming the variable', async () => {
  const held = await holdPort();
  try {
    const config = loadConfig(env(tempDir(), { EMBEDDED_PG_PORT: String(held.port) }));
    const error = await startService(config, { api: true, worker: false }, createLogger('silent')).catch((e) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toContain(`EMBEDDED_PG_PORT=${held.port} is taken`);
    expect(error.message).not.toContain('\n');
  } finally {
    await held.close();
  }
}, 60_000);

it('two instances with their own DATA_DIR run side by side (the second picks a free port) and each serves its own data', async () => {
  const started: Service[] = [];
  try {
    for (let i = 0; i < 2; i++)
      started.push(
        await startService(loadConfig(env(tempDir())), { api: true, worker: false }, createLogger('silent')),
      );
    const ports = started.map((s) => new URL(s.app.config.databaseUrl!).port);
    expect(new Set(ports).size).toBe(2);
    for (const s of started) expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  } finally {
    for (const s of started) await s.close(1000);
  }
}, 120_000);

it('as root, a DATA_DIR inside a private folder (mode 700, like /root) stops `npm start` with one line saying what to change', async () => {
  expect(process.getuid?.()).toBe(0); // the machines this runs on (and CI) run as root
  const home = path.join(tempDir(), 'root-like');
  mkdirSync(home, { mode: 0o700 });
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: repoRoot,
    env: env(path.join(home, 'escucha', '.data'), { LOG_LEVEL: 'fatal' }),
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(2);
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^Escucha cannot start: Running as root, the embedded PostgreSQL runs as user "postgres", which cannot enter .*root-like \(mode 700\)/,
  );
  expect(lines[0]).toContain('set DATABASE_URL');
}, 60_000);
