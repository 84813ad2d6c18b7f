// One way to build a test's world (docs/development/conventions.md): a test file asks the harness's
// fixtures for its database, services (in this process or as child processes), seed and receiver
// instead of calling the functions behind them from a beforeAll of its own, so a change to the app's
// wiring has one place to go. This reads every test file under test/ (test/support is the harness).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '../support/harness.ts';

const TEST = path.resolve(import.meta.dirname, '..');
/** The functions the fixtures wrap: a test file that calls one builds the thing itself. */
const BUILDERS = [
  'createTestDb',
  'startTestService',
  'startServiceProcess',
  'startReceiver',
  'testConfig',
  'startService',
];
/** Starting the entry point as a child process by hand is building a service too (the fixture is `serviceProcess`). */
const SPAWNS_MAIN = /\[\s*'src\/main\.ts'/;
const uses = (source: string, builder: string) =>
  builder === 'src/main.ts' ? SPAWNS_MAIN.test(source) : new RegExp(`\\b${builder}\\(`).test(source);
/** Files that keep builder calls, and why. */
const ALLOWED: Record<string, string | string[]> = {
  // Each describe starts services on a tmpfs it must unmount after they stop, before the file ends.
  'security/intake-pressure.test.ts': 'startTestService',
  // One receiver for the whole journey: the endpoint made in the first test gets the last test's calls.
  'web/e2e.test.ts': 'startReceiver',
  // Its service runs on a PostgreSQL server of its own, which the test stops and starts under it.
  'pipeline/db-restart.test.ts': 'startTestService',
  // Its processes run on a PostgreSQL of its own with a low max_connections, behind a PgBouncer it starts.
  'cluster/pgbouncer.test.ts': 'startServiceProcess',
  // What it tests is the start without DATABASE_URL (the embedded PostgreSQL, and its refusal of a data
  // folder it cannot use), which the fixtures, all on the file's database, never do.
  'ops/embedded-start.test.ts': ['startService', 'src/main.ts'],
  'db/embedded.test.ts': 'startService',
  // A process that must refuse to start (another APP_SECRET, exit 2): the fixture waits for a ready one.
  'cli/app-secret.test.ts': 'src/main.ts',
};
const allowed = (f: string) => [ALLOWED[f] ?? []].flat();

const files = readdirSync(TEST, { recursive: true, encoding: 'utf8' }).filter(
  (f) => f.endsWith('.test.ts') && !f.startsWith(`support${path.sep}`),
);

describe('test files on the harness', () => {
  test('no test file calls the functions the fixtures wrap', () => {
    expect(files.length).toBeGreaterThan(150);
    const offenders = files.flatMap((f) => {
      const source = readFileSync(path.join(TEST, f), 'utf8');
      return [...BUILDERS, 'src/main.ts']
        .filter((b) => uses(source, b) && !allowed(f).includes(b))
        .map((b) => `${f}: ${b}`);
    });
    expect(offenders).toEqual([]);
  });

  test('every file allowed a builder still calls it (an allowance does not outlive its reason)', () => {
    const stale = Object.keys(ALLOWED).flatMap((f) => {
      const source = readFileSync(path.join(TEST, f), 'utf8');
      return allowed(f)
        .filter((b) => !uses(source, b))
        .map((b) => `${f}: ${b}`);
    });
    expect(stale).toEqual([]);
  });
});
