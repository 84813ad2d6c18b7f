// The C allocator's settings a service process runs with (src/service/allocator.ts, issue 30): set by
// the process itself when missing, the same process (execve), what an operator set kept.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ALLOCATOR_ENV,
  NODE_MEMORY_FLAGS,
  missingAllocatorEnv,
  missingNodeFlags,
} from '../../src/service/allocator.ts';
import { describe, expect, test } from '../support/harness.ts';

const EXEC = path.resolve(import.meta.dirname, '../../src/service/allocator-exec.ts');

/** `env` without the allocator's variables (the test runner's own may have them). */
function without(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of [...Object.keys(ALLOCATOR_ENV), 'ESCUCHA_MALLOC', 'NODE_OPTIONS']) delete out[k];
  return out;
}

describe('allocator settings', () => {
  test('only the missing ones are set; ESCUCHA_MALLOC=off sets none', () => {
    expect(missingAllocatorEnv({})).toEqual(ALLOCATOR_ENV);
    expect(missingAllocatorEnv({ MALLOC_ARENA_MAX: '4' })).toEqual({
      MALLOC_MMAP_THRESHOLD_: ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_,
      GLIBC_TUNABLES: ALLOCATOR_ENV.GLIBC_TUNABLES,
    });
    expect(missingAllocatorEnv({ ESCUCHA_MALLOC: 'off' })).toEqual({});
    expect(missingNodeFlags([])).toEqual(NODE_MEMORY_FLAGS);
    expect(missingNodeFlags(['--max_semi_space_size=64'])).toEqual([]);
    expect(missingNodeFlags([], '--inspect --max-semi-space-size=32')).toEqual([]);
  });

  test.runIf(process.platform === 'linux')(
    'a process importing allocator-exec starts again with them: the same pid and arguments, a set value kept',
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-allocator-'));
      try {
        const script = path.join(dir, 'probe.mjs');
        writeFileSync(
          script,
          `import ${JSON.stringify(EXEC)};\nconsole.log(JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), flags: process.execArgv, arena: process.env.MALLOC_ARENA_MAX, mmap: process.env.MALLOC_MMAP_THRESHOLD_, tunables: process.env.GLIBC_TUNABLES }));\n`,
        );
        const run = (env: NodeJS.ProcessEnv) => {
          const r = spawnSync(process.execPath, [script, '--role', 'worker'], { env, encoding: 'utf8' });
          expect(r.status, r.stderr).toBe(0);
          return { pid: r.pid, seen: JSON.parse(r.stdout) };
        };
        const fresh = run(without(process.env));
        expect(fresh.seen).toEqual({
          pid: fresh.pid,
          argv: ['--role', 'worker'],
          flags: [...NODE_MEMORY_FLAGS],
          arena: ALLOCATOR_ENV.MALLOC_ARENA_MAX,
          mmap: ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_,
          tunables: ALLOCATOR_ENV.GLIBC_TUNABLES,
        });
        const set = run({ ...without(process.env), MALLOC_ARENA_MAX: '4' });
        expect(set.seen).toMatchObject({ pid: set.pid, arena: '4', mmap: ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_ });
        const off = run({ ...without(process.env), ESCUCHA_MALLOC: 'off' });
        expect([off.seen.arena, off.seen.mmap]).toEqual([undefined, undefined]);
        // The main thread's heap options too (V8 sizes the heap at start); the operator's own are kept.
        expect(off.seen.flags).toEqual([...NODE_MEMORY_FLAGS]);
        const own = run({ ...without(process.env), NODE_OPTIONS: '--max-semi-space-size=32' });
        expect(own.seen).toMatchObject({ pid: own.pid, flags: [], arena: ALLOCATOR_ENV.MALLOC_ARENA_MAX });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
