// The peak resident set size of this process, for the benches' memory columns.
import { readFileSync } from 'node:fs';

/**
 * This process's own peak RSS in kB: Linux's VmHWM, the high-water mark of the memory this program has
 * mapped since it started (or since a reset through /proc/self/clear_refs). Not getrusage's maxRSS: a
 * child started by fork + exec (every child a bench starts) inherits in it the parent's RSS at the fork —
 * a 42 MB child of a 600 MB parent reports 590 MB — so a worker measured that way carried the bench
 * runner's own memory (bench:asr's process peak read 852–886 MiB for a worker whose own was 688).
 * Elsewhere (no /proc) maxRSS is the best there is.
 */
export function peakRssKb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS;
}
