import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { startService, type Service } from '../../src/service/start.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { createLogger } from '../../src/log.ts';
import type { TestDb } from './db.ts';

export interface TestService extends Service {
  url: string;
  config: Config;
  dataDir: string;
  /** Every file under the storage folder, including unfinished uploads. */
  storedFiles(): string[];
  stop(): Promise<void>;
}

/**
 * The settings a test's service runs with, as an operator would set them: the run's own environment
 * (`base`), the file's database, a fresh DATA_DIR unless given, a loopback address and a fixed
 * APP_SECRET; `env` wins, and an undefined value in it unsets that variable. One set for the service
 * in this process (testConfig) and for one in a child process (the harness's `serviceProcess`).
 */
export function testEnv(
  t: Pick<TestDb, 'url'>,
  env: NodeJS.ProcessEnv = {},
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    NODE_ENV: 'test',
    DATABASE_URL: t.url,
    DATA_DIR: env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'escucha-test-')),
    HOST: '127.0.0.1',
    PORT: '0',
    APP_SECRET: 'test-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_URL: 'https://escucha.test',
    ...env,
  };
}

export function testConfig(t: Pick<TestDb, 'url'>, env: Record<string, string> = {}): Config {
  return loadConfig(testEnv(t, env));
}

/** The real service (api role by default) on a random loopback port against the test database. */
export async function startTestService(
  t: Pick<TestDb, 'url'>,
  opts: { worker?: boolean; api?: boolean; env?: Record<string, string> } = {},
): Promise<TestService> {
  const config = testConfig(t, opts.env);
  const service = await startService(
    config,
    { api: opts.api ?? true, worker: opts.worker ?? false },
    createLogger(config.logLevel),
  );
  let stopped: Promise<void> | undefined;
  return {
    ...service,
    url: service.url ?? '',
    config,
    dataDir: config.dataDir,
    storedFiles: () => listFiles(config.storageDir),
    // Once, however often it is called: a test may stop a service the harness stops again after the file.
    stop() {
      stopped ??= service.close().then(() => rmSync(config.dataDir, { recursive: true, force: true }));
      return stopped;
    },
  };
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

export interface SeedOptions {
  name?: string;
  /** Plan minutes and seats (10,000 and 20 unless given; `null` keeps createAccount's own defaults). */
  minutes?: number | null;
  seats?: number | null;
  timeZone?: string;
  /** Agents to create (one, Ana García AG-07, unless given). */
  agents?: { name: string; code?: string }[];
  /** An API key for intake (on unless false). */
  apiKey?: boolean;
}

export type Seeded = Awaited<ReturnType<typeof seedAccount>>;

/**
 * The one seed builder: an account through the real domain functions (createAccount, createAgent,
 * createApiKey), so seeded data obeys every rule real data does.
 */
export async function seedAccount(svc: Pick<Service, 'app'>, opts: SeedOptions = {}) {
  const plan = (v: number | null | undefined, dflt: number) => (v === null ? undefined : (v ?? dflt));
  const { account, owner } = await createAccount(svc.app.db, {
    name: opts.name ?? `Acme ${Math.random().toString(36).slice(2, 7)}`,
    minutes: plan(opts.minutes, 10_000),
    seats: plan(opts.seats, 20),
    timeZone: opts.timeZone ?? 'Europe/Madrid',
  });
  const agents = [];
  for (const a of opts.agents ?? [{ name: 'Ana García', code: 'AG-07' }])
    agents.push(await createAgent(svc.app.db, account.id, a));
  const key = opts.apiKey === false ? '' : (await createApiKey(svc.app.db, account.id)).key;
  return { account, owner, agents, key };
}
