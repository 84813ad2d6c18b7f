/** Phrase matching over a transcript, tolerant of small speech-recognition errors. */
import { levenshtein } from '../domain/text.ts';
import { tokenize, tokenizeWithOffsets } from './normalize.ts';
import type { Segment, SpeakerRole } from './types.ts';

export interface PhraseMatch {
  /** The phrase as written in the template. */
  phrase: string;
  /** Index (in the segments given) of the segment where the match begins. */
  segment: number;
  /** Estimated seconds: interpolated by character position within the segment(s). */
  start: number;
  end: number;
  speaker: SpeakerRole;
  /** The words actually said, from the original text. */
  quote: string;
  /**
   * Character offset in the starting segment's text where the quote begins: a phrase said twice in one
   * turn has two matches with the same quote, and only this tells them apart.
   */
  offset: number;
  /** Some word of the match is one the recogniser was unsure of (Segment.uncertainWords). */
  uncertain: boolean;
}

export interface FindOptions {
  /**
   * Near matches over unsure words: a word the recogniser was unsure of may stand for any word of the
   * phrase, and only matches that need at least one such stand-in are returned. At least half of the
   * phrase's words (and at least one) must still be heard as written, so a one-word phrase never matches
   * this way and a longer one is not conjured from a run of unsure words.
   */
  nearUncertain?: boolean;
}

/** Tokens this short must match exactly: one wrong letter already changes the word ("no"/"so"). */
const EXACT_TOKEN_MAX_LENGTH = 3;
const MIN_TOKEN_SIMILARITY = 0.8;
/** Extra words the transcript may have inside a phrase ("thank you *so* much"). */
const MAX_INSERTED_WORDS = 1;

interface StreamToken {
  text: string;
  segment: number;
  charStart: number;
  charEnd: number;
  uncertain: boolean;
}

/** Whether a transcript token stands for a phrase token (both normalized). */
export function tokensMatch(said: string, expected: string): boolean {
  if (said === expected) return true;
  if (expected.length <= EXACT_TOKEN_MAX_LENGTH || /\d/.test(expected)) return false;
  const longest = Math.max(said.length, expected.length);
  // Cheap length bound first: the distance is at least the length difference.
  if (1 - Math.abs(said.length - expected.length) / longest < MIN_TOKEN_SIMILARITY) return false;
  return 1 - levenshtein(said, expected) / longest >= MIN_TOKEN_SIMILARITY;
}

/**
 * A pause longer than this between two segments of one speaker ends a run: no phrase is said across
 * it. The recogniser splits a turn at pauses of half a second; a speaker's turns scoped apart from the
 * other speaker's lines between them follow each other after seconds ("How may I help?" … the
 * customer … "Okay, who am I speaking with?" read as a near "I understand" over "I help? Okay").
 */
const MAX_PHRASE_PAUSE_SECONDS = 2;

/**
 * Runs of consecutive segments by the same speaker on the same channel. A phrase may straddle a
 * segment boundary (the recognizer splits at pauses) but never two speakers, nor a long pause.
 */
function speakerRuns(segments: readonly Segment[]): StreamToken[][] {
  const order = segments.map((_, i) => i).sort((a, b) => segments[a]!.start - segments[b]!.start);
  const runs: StreamToken[][] = [];
  let previous: Segment | undefined;
  for (const index of order) {
    const segment = segments[index]!;
    if (
      !previous ||
      previous.speaker !== segment.speaker ||
      previous.channel !== segment.channel ||
      segment.start - previous.end > MAX_PHRASE_PAUSE_SECONDS
    )
      runs.push([]);
    const run = runs[runs.length - 1]!;
    const unsure = uncertainRanges(segment);
    for (const token of tokenizeWithOffsets(segment.text)) {
      const uncertain = unsure.some(([from, to]) => token.start < to && token.end > from);
      run.push({ text: token.text, segment: index, charStart: token.start, charEnd: token.end, uncertain });
    }
    previous = segment;
  }
  return runs;
}

/** Character ranges of the segment's unsure words (indexes into `text.split(' ')`). */
function uncertainRanges(segment: Segment): [number, number][] {
  if (!segment.uncertainWords?.length) return [];
  const unsure = new Set(segment.uncertainWords);
  const ranges: [number, number][] = [];
  let at = 0;
  segment.text.split(' ').forEach((word, i) => {
    if (unsure.has(i) && word) ranges.push([at, at + word.length]);
    at += word.length + 1;
  });
  return ranges;
}

type TokenMatcher = (said: string, expected: string) => boolean;

/** A call repeats the same few hundred words, so each pair is compared once per search. */
function memoizedTokensMatch(): TokenMatcher {
  const cache = new Map<string, Map<string, boolean>>();
  return (said, expected) => {
    let forExpected = cache.get(expected);
    if (!forExpected) {
      forExpected = new Map();
      cache.set(expected, forExpected);
    }
    let result = forExpected.get(said);
    if (result === undefined) {
      result = tokensMatch(said, expected);
      forExpected.set(said, result);
    }
    return result;
  };
}

/**
 * End index (inclusive) of the shortest match of `phrase` starting at `from`, or -1. With `near`, unsure
 * tokens may stand in for phrase words (FindOptions.nearUncertain) and a match must use at least one.
 */
function matchAt(run: StreamToken[], from: number, phrase: string[], same: TokenMatcher, near = false): number {
  const needHeard = Math.max(1, Math.floor(phrase.length / 2));
  const step = (p: number, t: number, insertsLeft: number, heard: number, standIns: number): number => {
    if (p === phrase.length) return !near || (standIns > 0 && heard >= needHeard) ? t - 1 : -1;
    if (t >= run.length) return -1;
    if (same(run[t]!.text, phrase[p]!)) {
      const end = step(p + 1, t + 1, insertsLeft, heard + 1, standIns);
      if (end >= 0) return end;
    } else if (near && run[t]!.uncertain) {
      const end = step(p + 1, t + 1, insertsLeft, heard, standIns + 1);
      if (end >= 0) return end;
    }
    // Inserted words only between phrase words, never before the first one.
    return p > 0 && insertsLeft > 0 ? step(p, t + 1, insertsLeft - 1, heard, standIns) : -1;
  };
  return step(0, from, MAX_INSERTED_WORDS, 0, 0);
}

function timeAt(segment: Segment, charOffset: number): number {
  const length = Math.max(segment.text.length, 1);
  return segment.start + ((segment.end - segment.start) * charOffset) / length;
}

function toMatch(segments: readonly Segment[], phrase: string, tokens: readonly StreamToken[]): PhraseMatch {
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  // Quote each segment the match touches, from its first to its last matched word.
  const parts: string[] = [];
  let from = 0;
  for (let i = 1; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i]!.segment === tokens[from]!.segment) continue;
    parts.push(segments[tokens[from]!.segment]!.text.slice(tokens[from]!.charStart, tokens[i - 1]!.charEnd).trim());
    from = i;
  }
  const startSegment = segments[first.segment]!;
  return {
    phrase,
    segment: first.segment,
    start: round2(timeAt(startSegment, first.charStart)),
    end: round2(timeAt(segments[last.segment]!, last.charEnd)),
    speaker: startSegment.speaker,
    // Commas and the like belong to the sentence, not to what was said; keep ?, ! and . for tone.
    quote: parts.join(' ').replace(/[,;:]+$/, ''),
    offset: first.charStart,
    uncertain: tokens.some((t) => t.uncertain),
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Every occurrence of any of the phrases, in time order. Overlapping occurrences count once (the
 * earliest, then longest, wins), so "thank you" inside "thank you for calling" is not counted twice.
 */
export function findPhrases(
  segments: readonly Segment[],
  phrases: readonly string[],
  opts: FindOptions = {},
): PhraseMatch[] {
  const wanted = phrases.map((phrase) => ({ phrase, tokens: tokenize(phrase) })).filter((p) => p.tokens.length > 0);
  const same = memoizedTokensMatch();
  const found: { match: PhraseMatch; run: number; from: number; to: number }[] = [];
  speakerRuns(segments).forEach((run, runIndex) => {
    for (const { phrase, tokens } of wanted) {
      for (let from = 0; from < run.length; from++) {
        const to = matchAt(run, from, tokens, same, opts.nearUncertain);
        if (to < 0) continue;
        found.push({ match: toMatch(segments, phrase, run.slice(from, to + 1)), run: runIndex, from, to });
        from = to;
      }
    }
  });
  found.sort((a, b) => a.run - b.run || a.from - b.from || b.to - a.to);
  const kept: typeof found = [];
  for (const candidate of found) {
    const last = kept[kept.length - 1];
    if (last && last.run === candidate.run && candidate.from <= last.to) continue;
    kept.push(candidate);
  }
  return kept.map((k) => k.match).sort((a, b) => a.start - b.start);
}
