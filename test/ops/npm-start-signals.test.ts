// Issue 29 point 1: the process an operator starts is the one that stops. `npm run start:api` execs Node on
// the TypeScript (no wrapper in between), so npm's SIGTERM reaches the service: it drains and exits 0,
// and nothing is left answering on its port.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { startServiceProcess } from '../support/process.ts';
import { startTestService, type TestService } from '../support/service.ts';

let t: TestDb;
let seeder: TestService;
beforeAll(async () => {
  t = await createTestDb();
  seeder = await startTestService(t, { api: false });
});
afterAll(async () => {
  await seeder.stop();
  await t.drop();
});

it('SIGTERM to the `npm run start:api` process stops the service it started', async () => {
  const svc = await startServiceProcess(
    {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.url,
      DATA_DIR: seeder.dataDir,
      PORT: '0',
      APP_SECRET: 'test-secret-'.padEnd(48, 'x'),
    },
    [],
    { npmScript: 'start:api' },
  );
  expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  svc.child.kill('SIGTERM');
  await svc.waitForLog((l) => l.msg === 'shutting down');
  expect(await svc.exited).toBe(0);
  const after = await fetch(`${svc.url}/healthz`).then(
    () => 'answered',
    (e) => e.cause?.code,
  );
  expect(after).toBe('ECONNREFUSED');
});
