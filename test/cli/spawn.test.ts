// The real entry point in a child process: exit codes and stream separation as an operator sees them.
import { spawn } from 'node:child_process';
import type { TestDb } from '../support/db.ts';
import { cliEnv, repoRoot, tempDir } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let tmp: ReturnType<typeof tempDir>;

test.beforeAll(async ({ db }) => {
  t = db;
  tmp = tempDir();
});
test.afterAll(async () => {
  tmp.remove();
});

function run(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'scripts/cli.ts', ...argv], { cwd: repoRoot, env: cliEnv(t, tmp.dir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// npx may add its own warnings to stderr; the CLI's message is the last line.
const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';

describe('scripts/cli.ts', () => {
  test('exits 2 on bad arguments', async () => {
    const r = await run('account:create', '--name', 'A', '--seats', 'many');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(lastLine(r.stderr)).toBe('error: --seats must be a whole number ≥ 0, got "many"');
  });

  test('exits 0 with JSON on stdout, then 1 with a JSON error on stderr for a refused operation', async () => {
    const created = await run('account:create', '--name', 'Spawned', '--seats', '0');
    expect(created.code).toBe(0);
    const { account, owner } = JSON.parse(created.stdout);
    expect(owner.password).toBeTruthy();

    const refused = await run('agent:add', '--account', account.id, '--name', 'Ana', '--code', 'A1');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(lastLine(refused.stderr)).error.code).toBe('seat_limit');
  });
});
