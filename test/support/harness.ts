// The one test harness: every test builds its database, app, service, seed data and webhook
// receiver here, either through the vitest fixtures of `test` below or the functions they wrap
// (older files call those directly from beforeAll). One way to build each thing means one place
// to change when the app's wiring changes.
import { rmSync } from 'node:fs';
import type { SetupServer } from 'msw/node';
import { test as base } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { createLogger } from '../../src/log.ts';
import { createStorage } from '../../src/storage/index.ts';
import { createTestDb, type TestDb } from './db.ts';
import { checkLeaks, deferLeakCheck } from './leaks.ts';
import { startReceiver, type Receiver, type Reply } from './receiver.ts';
import {
  seedAccount,
  startTestService,
  testConfig,
  type Seeded,
  type SeedOptions,
  type TestService,
} from './service.ts';

export interface TestApp extends AppContext {
  /** Removes the app's temporary data folder. */
  dispose(): void;
}

/**
 * The AppContext a request handler, job or CLI command gets, without a server: the same config as
 * the service's (testConfig), the file's test database, a silent logger and the configured storage.
 */
export function testApp(t: TestDb, env: Record<string, string> = {}): TestApp {
  const config = testConfig(t, env);
  return {
    config,
    log: createLogger(config.logLevel),
    db: t.db,
    storage: createStorage(config),
    dispose: () => rmSync(config.dataDir, { recursive: true, force: true }),
  };
}

interface FileFixtures {
  /** Automatic: fails the file if it leaves servers, processes or connections open (test/support/leaks.ts). */
  leakCheck: void;
  /** A fresh migrated database cloned for this file, dropped after it. */
  db: TestDb;
  /** An AppContext on `db` (no server). */
  app: TestApp;
  /** The real service (api role) on a loopback port, stopped after the file. */
  service: TestService;
  /** A second api process like `service` on the same database: what processes share goes through PostgreSQL. */
  otherService: TestService;
  /** msw intercepting third parties' HTTP for the whole file; an unhandled request is an error. */
  mswServer: SetupServer;
  /** Seeds an account through the real domain functions (account, owner, agents, API key). */
  seed: (opts?: SeedOptions) => Promise<Seeded>;
  /** Starts one more service on `db` with these settings, beside `service`; all are stopped after the file. */
  serviceWith: (opts: ServiceOptions) => Promise<TestService>;
}

interface TestFixtures {
  /** Starts a webhook receiver (closed after the test); replies as `startReceiver` explains. */
  receiver: (replies?: Reply[] | ((n: number) => Reply)) => Promise<Receiver>;
  /** The file's msw server (`server.use(http.post(url, …))`); its handlers are reset after each test. */
  msw: SetupServer;
}

type ServiceOptions = Parameters<typeof startTestService>[1];

/** A service fixture: started with `opts` on the file's database, stopped after the file. */
function withService(opts: ServiceOptions = {}) {
  return async ({ db }: { db: TestDb }, use: (svc: TestService) => Promise<void>) => {
    const svc = await startTestService(db, opts);
    await use(svc);
    await svc.stop();
  };
}

export const test = base.extend<TestFixtures & FileFixtures>({
  // First defined, so set up first and torn down last: it sees what the other fixtures left.
  leakCheck: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first argument's pattern.
    async ({}, use) => {
      deferLeakCheck();
      await use();
      await checkLeaks();
    },
    { scope: 'file', auto: true },
  ],
  db: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first argument's pattern.
    async ({}, use) => {
      const t = await createTestDb();
      await use(t);
      await t.drop();
    },
    { scope: 'file' },
  ],
  app: [
    async ({ db }, use) => {
      const app = testApp(db);
      await use(app);
      app.dispose();
    },
    { scope: 'file' },
  ],
  service: [withService(), { scope: 'file' }],
  otherService: [withService(), { scope: 'file' }],
  mswServer: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first argument's pattern.
    async ({}, use) => {
      // Loaded here, not at the top: only files that mock third parties pay for msw's interceptors.
      const { setupServer } = await import('msw/node');
      const server = setupServer();
      server.listen({ onUnhandledFrame: 'error' });
      await use(server);
      server.close();
    },
    { scope: 'file' },
  ],
  msw: async ({ mswServer }, use) => {
    await use(mswServer);
    mswServer.resetHandlers();
  },
  // File-scoped so that a file's own data can be seeded once, in `test.beforeAll(async ({ seed }) => …)`.
  seed: [
    async ({ app }, use) => {
      await use((opts) => seedAccount({ app }, opts));
    },
    { scope: 'file' },
  ],
  serviceWith: [
    async ({ db }, use) => {
      const started: TestService[] = [];
      await use(async (opts) => {
        const svc = await startTestService(db, opts);
        started.push(svc);
        return svc;
      });
      for (const svc of started) await svc.stop();
    },
    { scope: 'file' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first argument's pattern.
  receiver: async ({}, use) => {
    const started: Receiver[] = [];
    await use(async (replies) => {
      const r = await startReceiver(replies);
      started.push(r);
      return r;
    });
    await Promise.all(started.map((r) => r.close()));
  },
});

/** `test` whose services run with these environment variables (as the operator would set them), or with a worker. */
export const testWithService = (opts: { env?: Record<string, string>; worker?: boolean }) =>
  test.extend<{ service: TestService; otherService: TestService }>({
    service: [withService(opts), { scope: 'file' }],
    otherService: [withService(opts), { scope: 'file' }],
  });

export { describe, expect } from 'vitest';
