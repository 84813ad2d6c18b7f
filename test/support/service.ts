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

export function testConfig(t: TestDb, env: Record<string, string> = {}): Config {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'escucha-test-'));
  return loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: t.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    APP_SECRET: 'test-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_URL: 'https://escucha.test',
    ...env,
  });
}

/** The real service (api role by default) on a random loopback port against the test database. */
export async function startTestService(
  t: TestDb,
  opts: { worker?: boolean; api?: boolean; env?: Record<string, string> } = {},
): Promise<TestService> {
  const config = testConfig(t, opts.env);
  const service = await startService(
    config,
    { api: opts.api ?? true, worker: opts.worker ?? false },
    createLogger(config.logLevel),
  );
  return {
    ...service,
    url: service.url ?? '',
    config,
    dataDir: config.dataDir,
    storedFiles: () => listFiles(config.storageDir),
    async stop() {
      await service.close();
      rmSync(config.dataDir, { recursive: true, force: true });
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
