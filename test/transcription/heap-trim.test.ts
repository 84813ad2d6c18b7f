// Issue 30 (memory): while chunks are recognised, malloc's free holes are given back to the system whenever
// the resident set has grown 32 MiB since the last trim, and once more when the work ends
// (src/transcription/heap-trim.ts). glibc keeps a freed block's pages unless the block is at the top of
// its arena; malloc_trim(0) gives back every free page.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { HeapTrimmer, mallocTrim, TRIM_GROWTH_BYTES } from '../../src/transcription/heap-trim.ts';

const resident = () => Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * 4096;
const MiB = 2 ** 20;

/** Memory the process touches and keeps: pages that count in its resident set. */
function touched(bytes: number): Uint8Array {
  return new Uint8Array(bytes).fill(1);
}

describe('trimming malloc', () => {
  it('gives the free holes between live blocks back to the system', () => {
    const trim = mallocTrim();
    expect(trim, 'this machine runs glibc, and koffi reaches it').toBeTypeOf('function');
    // 96 MiB in 48 KiB blocks (under glibc's mapping threshold, so carved from an arena), every other one
    // then freed at once: holes between live blocks, which free() keeps resident.
    const blocks = Array.from({ length: 2048 }, () => touched(48 * 1024));
    const before = resident();
    for (let i = 0; i < blocks.length; i += 2) (blocks[i]!.buffer as ArrayBuffer).transfer(0);
    const freed = resident();
    trim!(0);
    const trimmed = resident();
    expect(blocks.length).toBe(2048); // the odd blocks stay alive until here
    expect(before - freed, 'free() alone keeps most of the holes').toBeLessThan(24 * MiB);
    expect(freed - trimmed, 'malloc_trim gives most of the 48 MiB of holes back').toBeGreaterThan(24 * MiB);
  });

  it('trims when the resident set has grown while work goes on, once more when it ends, then stops', async () => {
    let working = true;
    const calls: number[] = [];
    const trimmer = new HeapTrimmer(
      () => working,
      (pad) => calls.push(pad),
    );
    trimmer.wake();
    trimmer.wake(); // a second chunk while the first is in flight: still one reader
    expect(trimmer.watching).toBe(true);
    // Twice the growth: the collector may give pages back meanwhile (the first test's blocks).
    const kept = touched(2 * TRIM_GROWTH_BYTES);
    await vi.waitFor(() => expect(calls).toEqual([0]), { timeout: 5000, interval: 20 });
    working = false;
    await vi.waitFor(() => expect(calls.length).toBe(2), { timeout: 5000, interval: 20 });
    // Stopped: with no work the resident set is no longer read.
    expect(trimmer.watching).toBe(false);
    expect(trimmer.trims).toBe(2);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('does nothing where there is no malloc_trim', () => {
    const trimmer = new HeapTrimmer(() => true, null);
    trimmer.wake();
    trimmer.stop();
    expect(trimmer.trims).toBe(0);
  });
});
