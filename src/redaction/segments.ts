// Redaction of a transcript: detection runs over the whole conversation (a card number is often
// read out over several segments, with pauses), each finding is cut back to the segments it
// covers, replaced there by its placeholder, and given a time span for silencing the audio.
import type { Segment } from '../call-columns.ts';
import { detectPii, PLACEHOLDER, type PiiKind } from './detect.ts';

export interface RedactedSpan {
  kind: PiiKind;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
}

/**
 * Seconds added before and after a span whose timing is estimated from its place in the segment
 * (the engines give segment timing, not word timing): speech is not spread evenly over a segment,
 * so the silence is made wider than the words' share rather than risking a digit left audible.
 */
const PAD_SECONDS = 0.6;

export function redactSegments(
  segments: readonly Segment[],
  kinds: readonly PiiKind[],
  language?: string | null,
): { segments: Segment[]; spans: RedactedSpan[] } {
  if (kinds.length === 0 || segments.length === 0) return { segments: [...segments], spans: [] };
  // One text for the conversation; a space joins segments so digits read across a pause join up.
  const offsets: number[] = [];
  let text = '';
  for (const s of segments) {
    offsets.push(text.length);
    text += `${s.text} `;
  }
  const found = detectPii(text, kinds, language);
  if (found.length === 0) return { segments: [...segments], spans: [] };

  const spans: RedactedSpan[] = [];
  const out = segments.map((seg, i) => {
    const base = offsets[i]!;
    const limit = base + seg.text.length;
    const pieces = found
      .filter((f) => f.start < limit && f.end > base)
      .map((f) => ({ kind: f.kind, start: Math.max(f.start, base) - base, end: Math.min(f.end, limit) - base }));
    if (pieces.length === 0) return seg;
    let redacted = '';
    let at = 0;
    const duration = Math.max(0, seg.end - seg.start);
    const length = Math.max(1, seg.text.length);
    for (const p of pieces) {
      redacted += seg.text.slice(at, p.start) + PLACEHOLDER[p.kind];
      at = p.end;
      spans.push({
        kind: p.kind,
        start: Math.max(seg.start, seg.start + (p.start / length) * duration - PAD_SECONDS),
        end: Math.min(seg.end, seg.start + (p.end / length) * duration + PAD_SECONDS),
      });
    }
    redacted += seg.text.slice(at);
    // Word indexes of uncertain words no longer match the redacted text.
    const { uncertainWords: _dropped, ...rest } = seg;
    return { ...rest, text: redacted };
  });
  return { segments: out, spans: mergeSpans(spans) };
}

/** Overlapping or touching spans become one (one silence instead of several clicks). */
function mergeSpans(spans: RedactedSpan[]): RedactedSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: RedactedSpan[] = [];
  for (const s of sorted) {
    const last = merged.at(-1);
    if (last && s.start <= last.end + 0.05) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}
