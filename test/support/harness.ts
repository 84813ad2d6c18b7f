// The one test harness: every test file builds its database, app, services (in this process or as
// child processes), S3 store, seed data and webhook receivers here, through the vitest fixtures of
// `test` below; test/architecture/harness.test.ts holds every file to that. One way to build each
// thing means one place to change when the app's wiring changes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SetupServer } from 'msw/node';
import { test as base } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { createLogger } from '../../src/log.ts';
import { createStorage } from '../../src/storage/index.ts';
import { createTestDb, type TestDb } from './db.ts';
import { checkLeaks, deferLeakCheck } from './leaks.ts';
import { type ServiceProcess, startServiceProcess } from './process.ts';
import { startReceiver, type Receiver, type Reply } from './receiver.ts';
import { startTestS3, type TestS3 } from './s3.ts';
import {
  seedAccount,
  startTestService,
  testConfig,
  testEnv,
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

type ServiceOptions = NonNullable<Parameters<typeof startTestService>[1]>;

interface ProcessOptions {
  /** Settings over the harness's; an undefined value unsets one (APP_SECRET, to have it generated). */
  env?: NodeJS.ProcessEnv;
  /** Without the test run's own environment (its PATH, …): only the harness's settings and `env`. */
  clean?: boolean;
  /** Arguments to src/main.ts (`['--role', 'worker']`). */
  args?: string[];
  /** Run through npm (`start`, `start:api`) as the docs tell operators to, instead of Node directly. */
  npmScript?: string;
  /** In a process group of its own, to be signalled as a whole; stopped as a whole after the file. */
  detached?: boolean;
  /** A DATA_DIR of its own (removed after the file), as on a machine of its own, instead of `app`'s. */
  ownDataDir?: boolean;
  /** How long it may take to say it is ready (90 s unless given). */
  readyMs?: number;
}

interface FileFixtures {
  /** Automatic: fails the file if it leaves servers, processes or connections open (test/support/leaks.ts). */
  leakCheck: void;
  /** A fresh migrated database cloned for this file, dropped after it. */
  db: TestDb;
  /** An AppContext on `db` (no server). */
  app: TestApp;
  /** The settings `service` starts with: none unless the file's `test` is `testWithService(…)`. */
  serviceOptions: ServiceOptions;
  /** The real service (api role unless `serviceOptions` say otherwise) on a loopback port, stopped after the file. */
  service: TestService;
  /**
   * Starts one more service on `db` like `service`, with these changes (`env` merged over its env):
   * `serviceWith()` is a second api process, for what processes share through PostgreSQL. All are
   * stopped after the file; one a test stopped itself is not stopped twice.
   */
  serviceWith: (opts?: ServiceOptions) => Promise<TestService>;
  /**
   * Starts the service as a child process (`node src/main.ts`, or an npm script) on `db` and `app`'s
   * data folder, with testConfig's settings and `opts.env` over them; resolves once it is ready.
   * Whatever still runs after the file gets SIGTERM (SIGKILL if it lingers).
   */
  serviceProcess: (opts?: ProcessOptions) => Promise<ServiceProcess>;
  /** An S3-protocol server with one empty bucket (`s3.env` points a service at it), stopped after the file. */
  s3: TestS3;
  /** msw intercepting third parties' HTTP for the whole file; an unhandled request is an error. */
  mswServer: SetupServer;
  /** Seeds an account through the real domain functions (account, owner, agents, API key). */
  seed: (opts?: SeedOptions) => Promise<Seeded>;
}

interface TestFixtures {
  /** Starts a webhook receiver (closed after the test); replies as `startReceiver` explains. */
  receiver: (replies?: Reply[] | ((n: number) => Reply)) => Promise<Receiver>;
  /** The file's msw server (`server.use(http.post(url, …))`); its handlers are reset after each test. */
  msw: SetupServer;
}

/** `b` over `a`, their env merged. */
const merge = (a: ServiceOptions, b: ServiceOptions): ServiceOptions => ({ ...a, ...b, env: { ...a.env, ...b.env } });

/** A file fixture that needs no other: made by `start`, closed by `stop` after the file. */
const standalone = <T>(
  start: () => Promise<T>,
  stop: (value: T) => Promise<void>,
): [(context: object, use: (value: T) => Promise<void>) => Promise<void>, { scope: 'file' }] => [
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first argument's pattern.
  async ({}, use: (value: T) => Promise<void>) => {
    const value = await start();
    await use(value);
    await stop(value);
  },
  { scope: 'file' },
];

const running = (p: ServiceProcess) => p.child.exitCode === null && p.child.signalCode === null;

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
  db: standalone(createTestDb, (t) => t.drop()),
  app: [
    async ({ db }, use) => {
      const app = testApp(db);
      await use(app);
      app.dispose();
    },
    { scope: 'file' },
  ],
  serviceOptions: [{}, { scope: 'file' }],
  service: [
    async ({ db, serviceOptions }, use) => {
      const svc = await startTestService(db, serviceOptions);
      await use(svc);
      await svc.stop();
    },
    { scope: 'file' },
  ],
  serviceWith: [
    async ({ db, serviceOptions }, use) => {
      const started: TestService[] = [];
      await use(async (opts = {}) => {
        const svc = await startTestService(db, merge(serviceOptions, opts));
        started.push(svc);
        return svc;
      });
      for (const svc of started) await svc.stop();
    },
    { scope: 'file' },
  ],
  serviceProcess: [
    async ({ db, app }, use) => {
      const started: { p: ServiceProcess; detached: boolean }[] = [];
      const ownDirs: string[] = [];
      await use(async (opts = {}) => {
        const dataDir = opts.ownDataDir ? mkdtempSync(path.join(os.tmpdir(), 'escucha-process-')) : app.config.dataDir;
        if (opts.ownDataDir) ownDirs.push(dataDir);
        const env = testEnv(db, { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...opts.env }, opts.clean ? {} : process.env);
        const p = await startServiceProcess(env, opts.args, opts);
        started.push({ p, detached: opts.detached ?? false });
        return p;
      });
      await Promise.all(
        started.map(async ({ p, detached }) => {
          const send = (signal: NodeJS.Signals) =>
            running(p) && (detached ? process.kill(-p.child.pid!, signal) : p.child.kill(signal));
          send('SIGTERM');
          const lingering = setTimeout(() => send('SIGKILL'), 30_000);
          await p.exited;
          clearTimeout(lingering);
        }),
      );
      for (const dir of ownDirs) rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'file' },
  ],
  s3: standalone(startTestS3, (s3) => s3.stop()),
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

/** `test` whose services (`service`, and `serviceWith`'s unless told otherwise) start with these settings: `env` as the operator would set it, a worker. */
export const testWithService = (opts: ServiceOptions) =>
  test.extend<{ serviceOptions: ServiceOptions }>({ serviceOptions: [opts, { scope: 'file' }] });

export { describe, expect } from 'vitest';
