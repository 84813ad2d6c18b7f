// Issue 25: the integrator kit installs like any npm package. `npm run kit:pack` builds it to ESM
// JavaScript with .d.ts; an empty project installs the tarball with msw, vitest and standardwebhooks
// from the registry and runs the docs' "Testing your receiver" example there, verbatim.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codeBlocks, docSection } from '../support/docs.ts';
import { repoRoot } from '../support/process.ts';

const run = promisify(execFile);
const kitPackage = JSON.parse(readFileSync(path.join(repoRoot, 'src/webhooks/kit/package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
/** The versions the service itself is tested with, so the registry's cache usually has them. */
const locked = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;
// npm and the tools it starts run on this Node (24), not whatever `node` is first on PATH.
const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };

let dir: string;
let tarball: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-kit-'));
  const packed = await run(process.execPath, ['--import', 'tsx', 'scripts/kit-pack.ts', '--pack-destination', dir], {
    cwd: repoRoot,
    env,
  });
  tarball = packed.stdout.trim().split('\n').at(-1)!;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('packs @escucha/webhooks as built JavaScript and declarations, without TypeScript sources', async () => {
  expect(kitPackage.name).toBe('@escucha/webhooks');
  expect(path.basename(tarball)).toBe(`escucha-webhooks-${kitPackage.version}.tgz`);
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const files = stdout.trim().split('\n').sort();
  expect(files).toContain('package/dist/index.js');
  expect(files).toContain('package/dist/index.d.ts');
  // Node strips types only outside node_modules: a .ts module in the package would not load.
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
});

it("runs the docs' receiver test in an empty project that installed the tarball from the registry", async () => {
  const project = path.join(dir, 'receiver');
  await run('mkdir', ['-p', project]);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'receiver', private: true, type: 'module' }),
  );
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      locked('msw'),
      locked('vitest'),
      locked('standardwebhooks'),
    ],
    { cwd: project, env, maxBuffer: 1 << 24 },
  );

  const [example] = codeBlocks(docSection('Testing your receiver'), 'ts');
  expect(example).toContain("from '@escucha/webhooks';");
  writeFileSync(path.join(project, 'receiver.test.ts'), example!);
  const vitest = await run(
    process.execPath,
    [path.join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', '--outputFile=result.json'],
    { cwd: project, env },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const result = JSON.parse(readFileSync(path.join(project, 'result.json'), 'utf8'));
  const tests = (example!.match(/^it\(/gm) ?? []).length;
  expect(tests).toBeGreaterThan(0);
  expect({ passed: result.numPassedTests, failed: result.numFailedTests }, vitest.stderr).toEqual({
    passed: tests,
    failed: 0,
  });

  // The example also type-checks against the package's declarations (this repository's TypeScript).
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['receiver.test.ts'],
    }),
  );
  const tsc = await run(process.execPath, [
    path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
    '-p',
    project,
  ]).catch((error: { stdout: string }) => error);
  expect(tsc.stdout).toBe('');
}, 300_000);
