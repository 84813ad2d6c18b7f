import { statfs } from 'node:fs/promises';

export interface FreeSpace {
  /** False while any of the folders has less free space than the minimum. */
  ok: boolean;
  /** Free space of the fullest folder, in MB (unavailable folders count as 0). */
  freeMb: number;
  minFreeMb: number;
}

/**
 * Free space where uploads are written (the temporary folder) and kept (the storage folder),
 * as the unprivileged process sees it (`bavail`, not `bfree`). Intake refuses early below the
 * minimum instead of failing halfway through a file; `/readyz` reports the same answer.
 */
export async function checkFreeSpace(dirs: string[], minFreeMb: number): Promise<FreeSpace> {
  let freeMb = Number.POSITIVE_INFINITY;
  for (const dir of dirs) {
    const s = await statfs(dir).catch(() => null);
    freeMb = Math.min(freeMb, s ? (s.bavail * s.bsize) / 1_048_576 : 0);
  }
  if (!Number.isFinite(freeMb)) freeMb = 0;
  return { ok: freeMb >= minFreeMb, freeMb: Math.floor(freeMb), minFreeMb };
}

/** Free space this far above the minimum is not re-read for FRESH_MS: no burst of uploads eats it that fast. */
const COMFORT_MB = 1024;
const FRESH_MS = 1000;

/**
 * checkFreeSpace for a hot path (intake asks on every request): while the last answer was
 * comfortably above the minimum and less than a second old it is reused, which saves two statfs
 * calls (threadpool round trips) per upload. Any answer near or below the minimum is never reused,
 * so refusing (507) and recovering stay immediate.
 */
export function freeSpaceCheck(dirs: string[], minFreeMb: number, now: () => number = Date.now) {
  let last: { at: number; space: FreeSpace } | null = null;
  return async (): Promise<FreeSpace> => {
    if (last && now() - last.at < FRESH_MS) return last.space;
    const space = await checkFreeSpace(dirs, minFreeMb);
    last = space.ok && space.freeMb >= minFreeMb + COMFORT_MB ? { at: now(), space } : null;
    return space;
  };
}
