// Issue 30 (memory): while chunks are recognised, malloc's free holes are given back to the system whenever
// the resident set has grown 16 MiB since the last trim, and once more when the work ends
// (src/transcription/heap-trim.ts). glibc keeps a freed block's pages unless the block is at the top of
// its arena; malloc_trim(0) gives back every free page.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HeapTrimmer,
  mallocTrim,
  TRIM_EVERY_MS,
  TRIM_GROWTH_BYTES,
  trimUnavailable,
} from '../../src/transcription/heap-trim.ts';

const MiB = 2 ** 20;
const trim = mallocTrim();

/** Memory the process touches and keeps: pages that count in its resident set. */
function touched(bytes: number): Uint8Array {
  return new Uint8Array(bytes).fill(1);
}

afterEach(() => void vi.useRealTimers());

describe('trimming malloc', () => {
  // CI and the service's machines run glibc; a developer's macOS or musl machine has nothing to trim.
  it.skipIf(!trim && !process.env.CI)('gives the free holes between live blocks back to the system', async () => {
    expect(trimUnavailable(), 'this machine runs glibc, and koffi reaches it').toBeNull();
    // 96 MiB in 48 KiB blocks (under glibc's mapping threshold, so carved from an arena), every other one
    // then freed at once: holes between live blocks, which free() keeps resident.
    const blocks = Array.from({ length: 2048 }, () => touched(48 * 1024));
    const before = process.memoryUsage.rss();
    for (let i = 0; i < blocks.length; i += 2) (blocks[i]!.buffer as ArrayBuffer).transfer(0);
    const freed = process.memoryUsage.rss();
    await new Promise<void>((resolve) => trim!(0, resolve));
    const trimmed = process.memoryUsage.rss();
    expect(blocks.length).toBe(2048); // the odd blocks stay alive until here
    expect(before - freed, 'free() alone keeps most of the holes').toBeLessThan(24 * MiB);
    expect(freed - trimmed, 'malloc_trim gives most of the 48 MiB of holes back').toBeGreaterThan(24 * MiB);
  });

  it('trims when the resident set has grown while work goes on, once more when it ends, then stops', () => {
    vi.useFakeTimers();
    let resident = 600 * MiB;
    let working = true;
    const pads: number[] = [];
    const trimmer = new HeapTrimmer(
      () => working,
      (pad, done) => {
        pads.push(pad);
        resident -= 20 * MiB;
        done();
      },
      () => resident,
    );
    try {
      trimmer.wake();
      trimmer.wake(); // a second chunk while the first is in flight: still one reader
      expect(trimmer.watching).toBe(true);
      resident += TRIM_GROWTH_BYTES - MiB;
      vi.advanceTimersByTime(3 * TRIM_EVERY_MS);
      expect(pads, 'not grown enough yet').toEqual([]);
      resident += 2 * MiB;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      expect(pads).toEqual([0]);
      // Growth is counted again from what the trim left, and from the lowest the set fell to since.
      resident -= 50 * MiB;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      resident += TRIM_GROWTH_BYTES - MiB;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      expect(pads).toHaveLength(1);
      resident += 2 * MiB;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      expect(pads).toHaveLength(2);
      // The work over: one more trim, and the resident set is no longer read.
      working = false;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      expect(pads).toHaveLength(3);
      expect(trimmer.watching).toBe(false);
      vi.advanceTimersByTime(10 * TRIM_EVERY_MS);
      expect(trimmer.trims).toBe(3);
    } finally {
      trimmer.stop();
    }
  });

  it('starts no second trim while one is still running', () => {
    vi.useFakeTimers();
    let resident = 600 * MiB;
    const pending: (() => void)[] = [];
    const trimmer = new HeapTrimmer(
      () => true,
      (_pad, done) => void pending.push(done),
      () => resident,
    );
    try {
      trimmer.wake();
      resident += 2 * TRIM_GROWTH_BYTES;
      vi.advanceTimersByTime(5 * TRIM_EVERY_MS);
      expect(pending).toHaveLength(1);
      pending[0]!();
      resident += 2 * TRIM_GROWTH_BYTES;
      vi.advanceTimersByTime(TRIM_EVERY_MS);
      expect(pending).toHaveLength(2);
    } finally {
      trimmer.stop();
    }
  });

  it('does nothing where there is no malloc_trim', () => {
    const trimmer = new HeapTrimmer(() => true, null);
    trimmer.wake();
    expect(trimmer.watching).toBe(false);
    expect(trimmer.trims).toBe(0);
  });
});
