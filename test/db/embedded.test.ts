// Issue 2 part 3: with no DATABASE_URL the service runs on an embedded PostgreSQL whose data lives
// in DATA_DIR and survives restarts.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service/start.ts';
import { createAccount } from '../../src/domain/accounts.ts';
import { createLogger } from '../../src/log.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const config = () => {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return loadConfig({
    ...env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    EMBEDDED_PG_PORT: String(57000 + (process.pid % 2000)),
  });
};

it('starts without DATABASE_URL on an embedded PostgreSQL in DATA_DIR/pg, and keeps its data across restarts', async () => {
  const first = await startService(config(), { api: true, worker: false }, createLogger('silent'));
  const { account } = await createAccount(first.app.db, { name: 'Persistent Co' });
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  await first.close();
  expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);

  const second = await startService(config(), { api: true, worker: false }, createLogger('silent'));
  try {
    expect(await second.app.db.account.findUnique({ where: { id: account.id }, select: { name: true } })).toEqual({
      name: 'Persistent Co',
    });
  } finally {
    await second.close();
  }
}, 120_000);
