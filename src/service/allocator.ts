// The C allocator's settings and the V8 options a service process runs with (issue 30: one worker
// ≤ 700 MiB with both languages loaded). glibc's malloc reads its settings from the environment once, and
// V8 sizes its heap once, when the process starts, so `src/main.ts` starts itself again with them (the
// same process: execve) when they are not set.

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
 * - `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (glibc 2.35+; older ones ignore it): the blocks it maps are
 *   marked for transparent huge pages (madvise), so a batched decoder step's fresh buffers (ONNX Runtime's
 *   outputs and intermediates, several MB each, mapped and unmapped at every step) fault in 2 MiB at a
 *   time instead of 4 KiB: about 8 % less CPU on a 1-minute call, the call's peak the same, the model
 *   load's 10–20 MiB higher (docs/benchmarks/asr.md).
 */
export const ALLOCATOR_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
  GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
} as const;

/**
 * V8 options the service's main thread runs with; one the operator gave (on the command line or in
 * NODE_OPTIONS, in any spelling V8 accepts) is kept.
 *
 * - `--max-semi-space-size=16` (MB): V8 sizes the young generation by the machine's memory, and on a
 *   24 GiB machine let the main thread's grow to 128 MB (the api's start-up and a call's audio survive a
 *   few collections), with 23–31 MB of it live. Capped, a service running both roles peaked about
 *   100 MiB lower through a 5-minute call (docs/benchmarks/asr.md). The recognition threads have their
 *   own cap (RECOGNITION_YOUNG_GENERATION_MB); Node refuses V8 options in a thread's execArgv, so they
 *   start without these (src/transcription/moonshine-threads.ts).
 */
export const NODE_MEMORY_FLAGS = ['--max-semi-space-size=16'] as const;

/** The flags of NODE_MEMORY_FLAGS not given in `execArgv` nor in `nodeOptions` (NODE_OPTIONS). */
export function missingNodeFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  // V8 reads `_` and `-` alike in an option's name.
  const name = (a: string) => a.split('=')[0]!.replace(/_/g, '-');
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(name));
  return NODE_MEMORY_FLAGS.filter((f) => !given.has(name(f)));
}

/** The settings missing from `env` (none to set: an empty object). `ESCUCHA_MALLOC=off` sets none. */
export function missingAllocatorEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.ESCUCHA_MALLOC === 'off') return {};
  const set: Record<keyof typeof ALLOCATOR_ENV, string | undefined> = {
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX,
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_,
    // Tunables the operator gave are kept whole (theirs may be other settings than this one).
    GLIBC_TUNABLES: env.GLIBC_TUNABLES,
  };
  return Object.fromEntries(Object.entries(ALLOCATOR_ENV).filter(([k]) => set[k as keyof typeof set] === undefined));
}

/**
 * Starts this process again (execve: the same pid, the same open files, so signals and a process
 * manager see no difference) with the allocator settings and NODE_MEMORY_FLAGS, when some are missing
 * and the platform is Linux (glibc; other C libraries ignore the variables). Not when the process has an
 * IPC channel to its parent (a forked child: the channel would not survive) or execve is missing; then it
 * runs as it is.
 */
export function withAllocatorSettings(): void {
  if (process.platform !== 'linux' || process.send || typeof process.execve !== 'function') return;
  const missing = missingAllocatorEnv(process.env);
  const flags = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS);
  if (!Object.keys(missing).length && !flags.length) return;
  try {
    process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      ...missing,
    });
  } catch {
    // Not replaced (an unusual platform or a denied exec): the service runs with glibc's defaults.
  }
}
