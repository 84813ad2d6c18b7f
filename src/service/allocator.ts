// The C allocator's settings a service process runs with (issue 30: one worker ≤ 700 MiB with both
// languages loaded). glibc's malloc reads them from the environment once, when the process starts, so
// `src/main.ts` starts itself again with them (the same process: execve) when they are not set.

/**
 * glibc malloc settings for the service; a value already in the environment is kept.
 *
 * - `MALLOC_ARENA_MAX=2`: each thread that allocates (the recognition and encoder threads, ONNX
 *   Runtime's intra-op threads, libuv's pool) otherwise gets an arena of its own, and an arena keeps what
 *   its thread freed for that thread alone: after a model load and a 5-minute call, 310 MiB of the
 *   worker's RSS sat in thread arenas, a third of it free.
 * - `MALLOC_MMAP_THRESHOLD_=1048576`: a block of 1 MiB or more (model graphs and weights being built,
 *   encoder states, cross-attention keys and values, a step's caches) is mapped on its own and given back
 *   to the system when freed. Without it glibc raises the threshold to the largest block freed so far
 *   (up to 32 MiB), so these blocks were carved from the arenas and their holes stayed resident.
 *
 * bench:asr (both languages loaded, 5-minute dense call): peak 797 → 669 MiB, model load 796 → 694 MiB,
 * the same words; docs/benchmarks/asr.md has the table.
 */
export const ALLOCATOR_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
} as const;

/** The settings missing from `env` (none to set: an empty object). `ESCUCHA_MALLOC=off` sets none. */
export function missingAllocatorEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.ESCUCHA_MALLOC === 'off') return {};
  const set: Record<keyof typeof ALLOCATOR_ENV, string | undefined> = {
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX,
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_,
  };
  return Object.fromEntries(Object.entries(ALLOCATOR_ENV).filter(([k]) => set[k as keyof typeof set] === undefined));
}

/**
 * Starts this process again (execve: the same pid, the same open files, so signals and a process
 * manager see no difference) with the allocator settings, when some are missing and the platform is
 * Linux (glibc; other C libraries ignore the variables). Not when the process has an IPC channel to its
 * parent (a forked child: the channel would not survive) or execve is missing; then it runs as it is.
 */
export function withAllocatorSettings(): void {
  if (process.platform !== 'linux' || process.send || typeof process.execve !== 'function') return;
  const missing = missingAllocatorEnv(process.env);
  if (!Object.keys(missing).length) return;
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      ...missing,
    });
  } catch {
    // Not replaced (an unusual platform or a denied exec): the service runs with glibc's defaults.
  }
}
