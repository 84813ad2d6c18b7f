// Redaction of a transcript: detection runs over the whole conversation (a card number is often
// read out over several segments, with pauses), each finding is cut back to the segments of the
// speaker's turn it covers and replaced there by its placeholder. Where it was said in the
// audio is found from the words' timings (src/redaction/align-audio.ts), never from where its
// characters sit in the text: four characters of "4539" are a second and a half of speech.
import type { Segment } from '../call-columns.ts';
import type { WordTiming } from '../transcription/align.ts';
import { detectPii, PLACEHOLDER, type PiiKind } from './detect.ts';

export interface RedactedSpan {
  kind: PiiKind;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
}

/** A finding within one segment: character offsets [from, to) of the segment's original text. */
export interface RedactedPiece {
  segment: number;
  kind: PiiKind;
  from: number;
  to: number;
}

export function redactSegments(
  segments: readonly Segment[],
  kinds: readonly PiiKind[],
  language?: string | null,
): { segments: Segment[]; pieces: RedactedPiece[] } {
  if (kinds.length === 0 || segments.length === 0) return { segments: [...segments], pieces: [] };
  // One text for the conversation, so a CVV or expiry date is found near the card read a turn
  // earlier; a space joins segments so digits read across a pause join up.
  const offsets: number[] = [];
  let text = '';
  for (const s of segments) {
    offsets.push(text.length);
    text += `${s.text} `;
  }
  const turnOf = turns(segments);
  const pieces: RedactedPiece[] = [];
  for (const f of detectPii(text, kinds, language)) {
    // Cut back to the turn it starts in: a finding never runs into the other speaker's words.
    const where = segments.findIndex((_, i) => f.start < offsets[i]! + segments[i]!.text.length);
    if (where < 0) continue;
    segments.forEach((seg, i) => {
      const base = offsets[i]!;
      const limit = base + seg.text.length;
      if (turnOf[i] === turnOf[where] && f.start < limit && f.end > base)
        pieces.push({
          segment: i,
          kind: f.kind,
          from: Math.max(f.start, base) - base,
          to: Math.min(f.end, limit) - base,
        });
    });
  }
  if (pieces.length === 0) return { segments: [...segments], pieces: [] };
  const out = segments.map((seg, i) => {
    const mine = pieces.filter((p) => p.segment === i).sort((a, b) => a.from - b.from);
    if (mine.length === 0) return seg;
    let redacted = '';
    let at = 0;
    for (const p of mine) {
      redacted += seg.text.slice(at, p.from) + PLACEHOLDER[p.kind];
      at = p.to;
    }
    redacted += seg.text.slice(at);
    // Word indexes of uncertain words no longer match the redacted text.
    const { uncertainWords: _dropped, ...rest } = seg;
    return { ...rest, text: redacted };
  });
  return { segments: out, pieces };
}

/**
 * The turn of each segment (in transcript order): consecutive segments of one speaker share one. A
 * detection never runs from one speaker's words into the other's ("…0142" then the agent's "One
 * moment"), which is how a phone number once took the agent's next sentence with it.
 */
function turns(segments: readonly Segment[]): number[] {
  let turn = 0;
  return segments.map((s, i) => (i > 0 && segments[i - 1]!.speaker !== s.speaker ? ++turn : turn));
}

/**
 * Seconds of audio silenced before the first redacted word's onset and after its last word: the
 * decoder's attention places a word's start to within a frame or two (25 ms each) on clear speech
 * and later on fast or noisy speech; a neighbouring word half beeped costs nothing, a digit left
 * audible is the leak redaction exists to prevent.
 */
export const MARGIN_SECONDS = 0.25;

/**
 * The time spans of `pieces` in the recording. `timings` holds, per segment index, the words of the
 * segment's original text and where they are heard (seconds from the segment's start); a segment
 * without timings (no engine could align it) is silenced whole, the one span that surely covers it.
 */
export function spansOf(
  segments: readonly Segment[],
  pieces: readonly RedactedPiece[],
  timings: ReadonlyMap<number, readonly WordTiming[] | null>,
): RedactedSpan[] {
  const spans: RedactedSpan[] = [];
  for (const p of pieces) {
    const seg = segments[p.segment]!;
    const words = timings.get(p.segment);
    const inside = words ? words.flatMap((w, k) => (w.from < p.to && w.to > p.from ? [k] : [])) : [];
    if (!words || inside.length === 0) {
      spans.push({ kind: p.kind, start: seg.start, end: seg.end });
      continue;
    }
    const first = inside[0]!;
    const last = inside.at(-1)!;
    const before = words[first - 1];
    const after = words[last + 1];
    // From the middle of the word before (or the segment's start) and at least the margin before the
    // first word's onset; to the middle of the word after (or the segment's end) and at least the margin past.
    const start = Math.min(words[first]!.start - MARGIN_SECONDS, before ? (before.start + before.end) / 2 : 0);
    const end = Math.max(
      words[last]!.end + MARGIN_SECONDS,
      after ? (after.start + after.end) / 2 : seg.end - seg.start,
    );
    spans.push({
      kind: p.kind,
      start: round(seg.start + Math.max(0, start)),
      end: round(Math.min(seg.end, seg.start + end)),
    });
  }
  return mergeSpans(spans);
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

const round = (s: number) => Math.round(s * 1000) / 1000;
