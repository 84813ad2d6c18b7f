// Giving malloc's free pages back while recognising (issue 30: one worker ≤ 700 MiB with both languages
// loaded, and a 60-minute call within 50 MiB of a 5-minute one).
import { createRequire } from 'node:module';

/** glibc's `malloc_trim(pad)`, run on libuv's thread pool; calls back once it has returned. */
export type Trim = (pad: number, done: () => void) => void;

let trim: Trim | null | undefined;
let unavailable: string | null = null;

/**
 * glibc's `malloc_trim`, through koffi (a C FFI with prebuilt binaries in its npm packages: nothing is
 * compiled at install), or null where there is none: not Linux, another C library (no `libc.so.6`), the
 * allocator settings turned off (`ESCUCHA_MALLOC=off`, src/service/allocator.ts), or koffi missing.
 */
export function mallocTrim(): Trim | null {
  if (trim !== undefined) return trim;
  trim = null;
  if (process.platform !== 'linux' || process.env.ESCUCHA_MALLOC === 'off') return trim;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const native = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    // Off the event loop: a trim walks every arena, locking each while it does, and the api may share
    // this thread (npm start).
    trim = (pad, done) => native.async(pad, () => done());
  } catch (error) {
    unavailable = error instanceof Error ? error.message : String(error);
  }
  return trim;
}

/**
 * Why malloc cannot be trimmed on a Linux system where it should be (koffi or its prebuilt binary missing,
 * `npm ci --omit=optional`, a C library without `libc.so.6`), or null: trimmed, or off on purpose.
 */
export function trimUnavailable(): string | null {
  mallocTrim();
  return unavailable;
}

/** The process's resident set, in bytes (libuv reads it with the system's own page size). */
const residentBytes = (): number => process.memoryUsage.rss();

/** How often the resident set is read while recognising, in ms. */
export const TRIM_EVERY_MS = 100;

/**
 * How far the resident set may grow past what the last trim left before malloc is trimmed again. A
 * recognised call frees and allocates many blocks under malloc's 1 MiB mapping threshold (a decoder step's
 * intermediates, the beams' caches, JSON and strings), and glibc gives the pages of a free block back only
 * when it is at the top of its arena: the free holes between live blocks stay resident. `malloc_trim(0)`
 * gives those pages back too (MADV_DONTNEED on every free page of every arena). The holes are what made the
 * worker's peak grow with the call's length (a peak is the worst moment, and a longer call has more
 * of them): idle 2-core machine, 5 / 20 / 60 minutes 676–697 / 715 / 740 MiB (docs/benchmarks/asr.md).
 * Trimming whenever the set has grown 16 MiB keeps the holes near that bound (a 60-minute call, idle:
 * 695 MiB against 703 with 32 MiB and 730 untrimmed), about 9 trims a minute of speech; trimming every
 * tick cost 8–10 % more CPU (each trim's pages faulted in again when reused).
 */
export const TRIM_GROWTH_BYTES = 16 * 2 ** 20;

/**
 * Trims malloc while work is going on. `wake()` when work starts; the trimmer reads the resident set
 * every TRIM_EVERY_MS while `active()` says there is work, trims when it has grown TRIM_GROWTH_BYTES since
 * the last trim (or since it fell lowest), and once more when the work has ended, then stops reading.
 */
export class HeapTrimmer {
  /** Trims done (for benchmarks and tests). */
  trims = 0;
  private timer: NodeJS.Timeout | null = null;
  private floor = 0;
  private readonly active: () => boolean;
  private readonly trim: Trim | null;
  private readonly resident: () => number;
  /** A trim under way (on the thread pool): none is started beside it. */
  private trimming = false;

  constructor(active: () => boolean, trimFunction: Trim | null = mallocTrim(), resident = residentBytes) {
    this.active = active;
    this.trim = trimFunction;
    this.resident = resident;
  }

  /** Whether the resident set is being watched (work is going on). */
  get watching(): boolean {
    return this.timer !== null;
  }

  wake(): void {
    if (this.timer || !this.trim) return;
    this.floor = this.resident();
    this.timer = setInterval(() => this.tick(), TRIM_EVERY_MS);
    // Reading memory must not keep a finished process alive.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    if (this.trimming) return;
    if (!this.active()) {
      this.stop();
      // The call's holes given back while the worker waits for the next job.
      this.run();
      return;
    }
    const now = this.resident();
    if (now < this.floor) this.floor = now;
    else if (now - this.floor >= TRIM_GROWTH_BYTES) this.run();
  }

  private run(): void {
    this.trims++;
    this.trimming = true;
    this.trim!(0, () => {
      this.trimming = false;
      this.floor = this.resident();
    });
  }
}
