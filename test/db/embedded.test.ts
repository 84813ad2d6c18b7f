// Issue 2 part 3: with no DATABASE_URL the service runs on an embedded PostgreSQL whose data lives
// in DATA_DIR and survives restarts.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service/start.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createLogger } from '../../src/log.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-embedded-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A port the system just handed out and took back: free, and not the default other files may race for. */
async function systemPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const config = async () => {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return loadConfig({
    ...env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    EMBEDDED_PG_PORT: String(await systemPort()),
  });
};

it('starts without DATABASE_URL on an embedded PostgreSQL in DATA_DIR/pg, and keeps its data across restarts', async () => {
  const first = await startService(await config(), { api: true, worker: false }, createLogger('silent'));
  const { account } = await createAccount(first.app.db, { name: 'Persistent Co' });
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  await first.close();
  expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);

  const second = await startService(await config(), { api: true, worker: false }, createLogger('silent'));
  try {
    expect(await second.app.db.account.findUnique({ where: { id: account.id }, select: { name: true } })).toEqual({
      name: 'Persistent Co',
    });
  } finally {
    await second.close();
  }
}, 120_000);
