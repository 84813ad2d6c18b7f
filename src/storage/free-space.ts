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
