import { levenshtein } from '../../src/domain/text.ts';

/** Lowercase, accent- and punctuation-free words, so ASR output compares with the script that was spoken. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Share of `keys` heard in `transcript`, allowing one edit in words of five letters or more (ASR slips). */
export function keywordRecall(transcript: string, keys: string[]): number {
  const heard = words(transcript);
  const found = keys.filter((k) => heard.some((w) => w === k || (k.length >= 5 && levenshtein(w, k) <= 1)));
  return found.length / keys.length;
}
