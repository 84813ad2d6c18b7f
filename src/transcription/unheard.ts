// What a decoder wrote with no speech under it. Small seq2seq recognisers fill a window that holds
// little or no speech with something: the same phrase again ("the reason the reason the reason"),
// a stock phrase ("we'll see you in the next video"), the last word twice ("consider consider").
// These rules decide, from the words alone and the window's length, how many of the decoded words
// were heard; the engine keeps those (issue 27).

/**
 * Words a window can hold: fast conversational speech is about 4 words a second, and a window
 * carries the VAD's padding too, so more than this many per second (plus one) is not speech…
 */
const WORDS_PER_SECOND = 4.5;
/** …and more than this many (plus two) cannot be trimmed back into speech: the whole output goes. */
const FAR_WORDS_PER_SECOND = 7;
/**
 * Whisper's rule for a silent window: the model would rather have ended at once and what it wrote
 * is unlikely. Moonshine ends at once on silence and noise, so this only catches the rare window
 * where it then went on anyway.
 */
const NO_SPEECH = 0.6;
const NO_SPEECH_LOG_PROB = -0.7;
/** Longest repeated span (in words) looked for. */
const MAX_SPAN = 6;

export interface Heard {
  /** Words, compared as given: callers pass them normalised (lower case, no punctuation). */
  words: readonly string[];
  seconds: number;
  /** The decoder's probability of ending before the first word (0 when unknown). */
  noSpeech: number;
  avgLogProb: number;
}

/** How many of the decoded words to keep (from the start): all of them, fewer, or none. */
export function heardWords({ words, seconds, noSpeech, avgLogProb }: Heard): number {
  if (!words.length) return 0;
  if (noSpeech >= NO_SPEECH && avgLogProb <= NO_SPEECH_LOG_PROB) return 0;
  const fits = (n: number) => n <= Math.floor(seconds * WORDS_PER_SECOND) + 1;
  let kept = words.length;
  // Too long for the window and repeating itself: the repeat is the filler, cut where it begins.
  if (!fits(kept)) kept = firstRepeat(words) ?? kept;
  if (kept > Math.floor(seconds * FAR_WORDS_PER_SECOND) + 2) return 0;
  return kept;
}

/**
 * Where the first repeat begins: the index of the second occurrence of a span that comes back at once
 * ("the reason | the reason"), or of a span of two words or more seen before ("merry the more and |
 * merry the"). Null when nothing repeats.
 */
export function firstRepeat(words: readonly string[]): number | null {
  for (let i = 1; i < words.length; i++) {
    for (let p = 1; p <= Math.min(MAX_SPAN, i) && i + p <= words.length; p++) if (same(words, i - p, i, p)) return i;
    for (let j = 0; j + 1 < i; j++) if (same(words, j, i, 2)) return i;
  }
  return null;
}

const same = (w: readonly string[], a: number, b: number, n: number) => {
  for (let k = 0; k < n; k++) if (b + k >= w.length || w[a + k] !== w[b + k]) return false;
  return true;
};
