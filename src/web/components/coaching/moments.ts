/**
 * Moments of a recording as people write them: "m:ss" (or "h:mm:ss", or plain seconds), separated
 * by commas. Returns the seconds, or null when one of them cannot be read.
 */
export function parseMoments(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(p)) return null;
    const secs = p.split(':').reduce((acc, x) => acc * 60 + Number(x), 0);
    if (!Number.isFinite(secs)) return null;
    out.push(secs);
  }
  return out;
}
