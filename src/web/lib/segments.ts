/** Transcript ↔ audio time: which segment is playing, found by binary search on start times. */
export interface TimedSegment {
  start: number;
  end: number;
}

/**
 * Index of the segment being heard at `time`: the last segment that has started by then, as long as
 * it has not ended (plus `tolerance` seconds, so short gaps between words do not flicker). -1 when
 * nothing is being said (before the first segment, in a pause, after the end).
 * Segments must be in time order (as the API returns them); overlapping segments resolve to the
 * latest one that started.
 */
export function segmentAtTime(segments: readonly TimedSegment[], time: number, tolerance = 0.25): number {
  if (!Number.isFinite(time) || segments.length === 0) return -1;
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.start <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found === -1) return -1;
  // An overlapping earlier segment may still be running when the latest started one already ended.
  for (let i = found; i >= 0 && i >= found - 3; i--) {
    if (time <= segments[i]!.end + tolerance) return i;
  }
  return -1;
}

export interface KeyMoment {
  speaker: string;
  start: number;
  text: string;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The extractive "summary" (src/analysis/summary.ts: sentences of the transcript, one a line, as
 * "Agent: …" / "Cliente: …") as moments with who said them and when, found back in the transcript.
 * Null when a line is not a transcript sentence (a language model's written summary): that is shown
 * as text.
 */
export function keyMoments(
  summary: string | null | undefined,
  segments: readonly { start: number; speaker: string; text: string }[],
): KeyMoment[] | null {
  if (!summary?.trim() || segments.length === 0) return null;
  const moments: KeyMoment[] = [];
  for (const line of summary.split('\n').filter((l) => l.trim())) {
    const text = line.replace(/^(Agent|Customer|Agente|Cliente):\s*/, '').trim();
    const needle = fold(text);
    const seg = segments.find((s) => fold(s.text).includes(needle));
    if (!seg || !needle) return null;
    moments.push({ speaker: seg.speaker, start: seg.start, text });
  }
  return moments;
}
