import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/context.ts';
import { runCli } from '../../src/cli/run.ts';
import type { TestDb } from '../support/db.ts';
import { testApp as harnessApp } from '../support/harness.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Environment a CLI process needs for one test database; webhooks may point at 127.0.0.1. */
export function cliEnv(t: TestDb, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: t.url,
    DATA_DIR: dataDir,
    APP_SECRET: 'x'.repeat(40),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
  };
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The harness's app with the CLI's environment (DATA_DIR is the test's own folder). */
export function testApp(t: TestDb, dataDir: string): AppContext {
  return harnessApp(t, { DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(40), WEBHOOK_ALLOW_PRIVATE: 'true' });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, for successful commands. */
  json: any;
}

/** Runs the CLI in-process against `app`, capturing what it would print. */
export async function cli(app: AppContext | (() => Promise<AppContext>), ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, app, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
  });
  let json: unknown;
  try {
    json = stdout ? JSON.parse(stdout) : undefined;
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}
