/**
 * Texts a decoder wrote by looping, told apart from a person saying something twice. Under babble the
 * recogniser writes stock lines that repeat ("I'm sure I'm sorry to hear from you. I'm sure I'm sorry to
 * hear from you" for "May I have your account number?"): neither their words nor their likelihood are
 * evidence that a phrase was said. People repeat themselves too ("Thank you so much, thank you so much
 * for calling", "Let me check, let me check that for you"), and on a call the recogniser heard well that
 * repeat is what was said: treating it as a loop put clean verdicts in review.
 */
import { tokenize } from './normalize.ts';
import type { Segment } from './types.ts';

/** Words a stretch must have to count as a repeat. */
const LOOP_WORDS = 3;

/**
 * A repeat is taken for a loop when the turn is heard with less confidence than this (the decoder's
 * geometric-mean token probability for the segment) on a channel whose segments are heard, at the median,
 * with less than CHANNEL_CONFIDENCE: a noisy turn of a noisy call, where loops occur. On bench:verdicts'
 * tuning calls every loop (17, all under babble) was a segment at 0.13–0.76 on a channel at 0.005–0.66;
 * the clean calls' channels were at 0.58–0.95, and their segments alone down to 0.45 (synthetic voices:
 * a segment's confidence alone would have taken a quarter of clean turns for noisy ones).
 */
export const LOOP_CONFIDENCE = 0.8;
/** See LOOP_CONFIDENCE. */
export const CHANNEL_CONFIDENCE = 0.7;

/**
 * More words a second than this is more than a person says: text too long for its audio is the decoder
 * filling the stretch (the transcription trims such text at 4.5; older transcripts and other engines may
 * still carry it).
 */
const LOOP_WORDS_PER_SECOND = 4.5;

/**
 * How often the stretch of three words said most often in the text is said, non-overlapping ("no no no
 * no" is one word said again, not a stretch looped over); 1 when none is said twice.
 */
function repeatCount(text: string): number {
  const w = tokenize(text);
  const stretch = (i: number) => w.slice(i, i + LOOP_WORDS).join(' ');
  let most = 1;
  for (let i = 0; i + LOOP_WORDS <= w.length; i++) {
    let times = 1;
    let last = i;
    for (let j = i + LOOP_WORDS; j + LOOP_WORDS <= w.length; j++)
      if (j >= last + LOOP_WORDS && stretch(j) === stretch(i)) {
        times++;
        last = j;
      }
    most = Math.max(most, times);
  }
  return most;
}

/** Whether a text says the same three words twice (a person or a decoder: see decoderLoop). */
export function repeatsItself(text: string): boolean {
  return repeatCount(text) >= 2;
}

/** Median confidence of each channel's heard segments (guesses left out), memoised per transcript. */
const channelMedians = new WeakMap<readonly Segment[], Map<number, number>>();

function channelConfidence(segments: readonly Segment[], channel: number): number | undefined {
  let medians = channelMedians.get(segments);
  if (!medians) {
    medians = new Map();
    const by = new Map<number, number[]>();
    for (const s of segments)
      if (!s.guessed && s.confidence !== undefined) by.set(s.channel, [...(by.get(s.channel) ?? []), s.confidence]);
    for (const [ch, values] of by) {
      values.sort((a, b) => a - b);
      medians.set(ch, values[Math.floor((values.length - 1) / 2)]!);
    }
    channelMedians.set(segments, medians);
  }
  return medians.get(channel);
}

/**
 * Whether a segment's text is a decoder loop: it repeats a stretch of three words where loops occur. A
 * person says a line twice, rarely three times; a loop runs on. A repeat counts as a loop when the
 * stretch comes three times or more, when the turn is a guess (Segment.guessed), when the text is too
 * long for its audio, or when the turn and its channel were heard with low confidence (LOOP_CONFIDENCE):
 * a noisy turn. A repeat on a call heard well is what was said. `segments` is the whole transcript the
 * segment belongs to (its channel's confidence is read from it).
 */
export function decoderLoop(segment: Segment, segments: readonly Segment[] = [segment]): boolean {
  const times = repeatCount(segment.text);
  if (times < 2) return false;
  if (times >= 3 || segment.guessed) return true;
  const seconds = segment.end - segment.start;
  if (seconds > 0 && tokenize(segment.text).length > seconds * LOOP_WORDS_PER_SECOND + 1) return true;
  // Without the decoder's confidence (older transcripts, other engines) nothing says the turn was noisy.
  if (segment.confidence === undefined) return false;
  const channel = channelConfidence(segments, segment.channel) ?? segment.confidence;
  return segment.confidence < LOOP_CONFIDENCE && channel < CHANNEL_CONFIDENCE;
}
