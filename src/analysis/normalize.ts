/** Text normalization shared by phrase matching, topics and the extractive summary. */

export interface Token {
  /** Normalized form: lower case, no accents, no punctuation. */
  text: string;
  /** Character offsets of the whitespace-delimited word it came from in the original text. */
  start: number;
  end: number;
}

const COMBINING_MARKS = /\p{M}+/gu;
// Apostrophes join ("don't" → "dont") so contractions stay one token in transcript and phrase alike.
const APOSTROPHES = /['’‘`´]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

/** Lower case, strip accents (NFD), drop punctuation, collapse whitespace. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .replace(NON_WORD, ' ')
    .trim();
}

/** Normalized tokens of a text. */
export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/**
 * Tokens with offsets into the original text, so a match can quote exactly what was said.
 * A word that normalizes to several tokens ("e-mail") gives each the offsets of the whole word.
 */
export function tokenizeWithOffsets(text: string): Token[] {
  const tokens: Token[] = [];
  for (const word of text.matchAll(/\S+/g)) {
    const start = word.index;
    const end = start + word[0].length;
    for (const part of tokenize(word[0])) tokens.push({ text: part, start, end });
  }
  return tokens;
}
