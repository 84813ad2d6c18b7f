// One way to build a test's world (docs/development/conventions.md): a test file asks the harness's
// fixtures for its database, service, seed and receiver instead of calling the functions behind them
// from a beforeAll of its own, so a change to the app's wiring has one place to go. This reads the
// test files themselves. The folders listed are those already on the harness; the rest join the list
// as they move (issue 28.7).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '../support/harness.ts';

const TEST = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['graphql', 'web', 'webhooks', 'security'];
/** The functions the fixtures wrap: a test file that calls one builds the thing itself. */
const BUILDERS = ['createTestDb', 'startTestService', 'startReceiver', 'testConfig'];
/** Files that keep one builder call, and why. */
const ALLOWED: Record<string, string> = {
  // Each describe starts services on a tmpfs it must unmount after they stop, before the file ends.
  'security/intake-pressure.test.ts': 'startTestService',
  // One receiver for the whole journey: the endpoint made in the first test gets the last test's calls.
  'web/e2e.test.ts': 'startReceiver',
};

const files = FOLDERS.flatMap((folder) =>
  readdirSync(path.join(TEST, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(folder, f)),
);

describe('test files on the harness', () => {
  test('no test file calls the functions the fixtures wrap', () => {
    expect(files.length).toBeGreaterThan(60);
    const offenders = files.flatMap((f) => {
      const source = readFileSync(path.join(TEST, f), 'utf8');
      return BUILDERS.filter((b) => new RegExp(`\\b${b}\\(`).test(source) && ALLOWED[f] !== b).map((b) => `${f}: ${b}`);
    });
    expect(offenders).toEqual([]);
  });
});
