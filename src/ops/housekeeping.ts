import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { deleteEndedRateLimits } from '../db/rate-limiter.ts';
import { deleteExpiredIntakeLeases } from '../intake/leases.ts';

const HOUR = 3_600_000;

/**
 * Hourly (task `housekeeping`): removes upload leftovers of a process that died mid-request, and
 * stored recordings no call refers to (a crash between moving the file and committing the call, or
 * between deleting a call or its recording and removing the file). Both are older than an hour, so
 * nothing in flight is touched. Also rate-limit counters whose window ended.
 */
export async function sweepLeftovers(app: AppContext): Promise<void> {
  const cutoff = Date.now() - HOUR;
  let temps = 0;
  for (const name of await readdir(app.config.tmpDir).catch(() => [])) {
    const full = path.join(app.config.tmpDir, name);
    const s = await stat(full).catch(() => null);
    if (s && s.mtimeMs < cutoff) {
      await rm(full, { force: true });
      temps++;
    }
  }
  let orphans = 0;
  for await (const { key, modifiedAt } of app.storage.list()) {
    if (modifiedAt.getTime() >= cutoff) continue;
    // A file whose call was deleted, or whose recording retention removed, is no longer used: a
    // crash between that commit and the file's removal leaves it here for this sweep.
    const used = await app.db.call.count({ where: { storageKey: key, recordingDeletedAt: null } });
    if (!used) {
      await app.storage.delete(key);
      orphans++;
    }
  }
  const rateLimits = await deleteEndedRateLimits(app.db);
  const intakeLeases = await deleteExpiredIntakeLeases(app.db);
  if (temps || orphans || rateLimits || intakeLeases)
    app.log.info({ temps, orphans, rateLimits, intakeLeases }, 'housekeeping removed leftovers');
}
