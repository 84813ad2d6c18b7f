/**
 * Short answers and expected words (issue 27, point 2). A free decode of a second of noisy audio has
 * little context to go on: "yes" comes out as "guess", a spoken account number loses a digit, the
 * account's product name comes out as a common word. Where the answer is one of a closed set — yes/no,
 * digits, the account's vocabulary (its terms, template phrases, agent and campaign names) — the engine
 * asks the model how likely each member of the set is as the transcript of the same audio (teacher-
 * forced, the scoring the verdicts use) and takes one only when it fits much better than the free
 * decode did. Pure logic: which candidates to try and when; the engine scores them.
 */
import { levenshtein } from '../domain/text.ts';

/** A chunk this short (seconds of audio) is a short answer: the closed sets are tried whole. */
export const SHORT_SECONDS = 3;
/** …or one whose free decode has at most this many words. */
export const SHORT_WORDS = 3;
/**
 * A candidate replaces the free decode only when its log-likelihood is this many nats higher: the
 * free decode is the beam's best (with vocabulary boosts), so a candidate that beats it by this much
 * is what the model hears, not a near tie decided by the candidate list. Chosen on the unit fixtures'
 * training voices (test/transcription/expected-words.test.ts uses others).
 */
export const RESCORE_MARGIN = 2;
/**
 * Log-probability of the first token of a forced decode (end of text not allowed first) above which an
 * empty decode of a short chunk is taken as speech. Measured: short answers the decoder dropped
 * (espeak-ng "Yes.", "Thursday.", "No.", "Vale." clean to −3 dB) started at −1.3 to −3.0; white, pink,
 * burst and hum noise alone (0.6–2.5 s, four levels) at −3.6 to −13.8, whatever they were forced to say
 * ("Thank you.", "¡Gracias!", "♪"). A thin margin on synthetic noise: the bench reports the result.
 */
export const FIRST_WORD = -3.3;
/**
 * A chunk the voice detector is sure is its speaker (ChunkOptions.speech) and that the decoder ends at
 * once is asked for its best guess when it lasts this long (seconds): long enough to hold a phrase,
 * short enough to be one turn (the babble gate's regions are turn-sized).
 */
export const GUESS_SECONDS = [1, 8] as const;
/**
 * What Moonshine says when made to speak over noise with no words it can hear: the stock endings of
 * the subtitled videos it learnt from. A guess this close to one of them (characters, 0–1) is dropped.
 */
const STOCK_PHRASES: Record<string, readonly string[]> = {
  en: [
    'thank you for watching',
    'thanks for watching',
    'thank you',
    'thank you very much',
    'please subscribe',
    'subscribe to my channel',
    'see you in the next video',
    'we will see you in the next video',
    'bye',
    'you',
    'music',
  ],
  es: [
    'gracias por ver el video',
    'gracias por ver',
    'gracias',
    'muchas gracias',
    'suscribete',
    'suscribete al canal',
    'subtitulos realizados por la comunidad de amara org',
    'subtitulos por la comunidad de amara org',
    'subtitulos en espanol',
    'nos vemos en el proximo video',
    'hasta la proxima',
    'adios',
    'musica',
  ],
};
const STOCK_SIMILARITY = 0.75;

/** Whether a guess is one of the decoder's stock phrases (or nothing but punctuation and notes). */
export function isStockPhrase(text: string, language: string): boolean {
  const said = norm(text);
  if (!said) return true;
  return (STOCK_PHRASES[language] ?? []).some(
    (p) => similarity(said, p) >= STOCK_SIMILARITY || (said.startsWith(`${p} `) && p.split(' ').length >= 3),
  );
}

/** Below this decoder confidence (geometric mean of token probabilities) a chunk is decoded again, wider. */
export const LOW_CONFIDENCE = 0.4;
/** Beam width of that second decode. */
export const WIDE_BEAM = 8;
/** Vocabulary spans substituted per chunk (the closest ones): keeps the scoring bounded on long chunks. */
const MAX_SUBSTITUTIONS = 6;
/** Vocabulary entries tried whole on a short chunk (the shortest entries: answers are short). */
const MAX_WHOLE_ENTRIES = 8;
/** A stretch of the free decode this close (characters, 0–1) to a vocabulary entry is tried as that entry. */
const MIN_SIMILARITY = 0.5;
/** Digit positions tried one by one (each with the nine other digits). */
const MAX_DIGITS = 8;

const ANSWERS: Record<string, readonly string[]> = {
  en: ['Yes.', 'No.', 'Yeah.', 'Yes, please.', 'No, thank you.', 'Okay.', "That's right.", 'Correct.', 'Sure.'],
  es: ['Sí.', 'No.', 'Sí, por favor.', 'No, gracias.', 'Vale.', 'De acuerdo.', 'Correcto.', 'Claro.', 'Exacto.'],
};

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N} ]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const similarity = (a: string, b: string) => 1 - levenshtein(a, b) / Math.max(1, a.length, b.length);

export function isShort(text: string, seconds: number): boolean {
  const words = text.trim() ? text.trim().split(/\s+/).length : 0;
  return seconds <= SHORT_SECONDS || words <= SHORT_WORDS;
}

/**
 * Texts to score against the chunk beside its free decode `text`, in a fixed order (the same audio and
 * vocabulary always give the same list, so the choice is deterministic). Never contains `text` itself.
 */
export function expectedCandidates(
  text: string,
  seconds: number,
  language: string,
  vocabulary: readonly string[] = [],
): string[] {
  const out = new Set<string>();
  const free = text.trim();
  if (!free) return [];
  const short = isShort(free, seconds);
  if (short) {
    for (const a of ANSWERS[language] ?? []) out.add(a);
    const entries = [...new Set(vocabulary.map((v) => v.trim()).filter((v) => v && v.split(/\s+/).length <= 4))]
      .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, MAX_WHOLE_ENTRIES);
    for (const v of entries) out.add(`${v.charAt(0).toUpperCase()}${v.slice(1)}.`);
    for (const d of digitVariants(free)) out.add(d);
  }
  for (const s of substitutions(free, vocabulary)) out.add(s);
  out.delete(free);
  return [...out];
}

/** The free decode with one digit changed, for each of its first MAX_DIGITS digits. */
function digitVariants(text: string): string[] {
  const positions = [...text.matchAll(/\d/g)].slice(0, MAX_DIGITS).map((m) => m.index);
  return positions.flatMap((at) =>
    '0123456789'
      .split('')
      .filter((d) => d !== text[at])
      .map((d) => text.slice(0, at) + d + text.slice(at + 1)),
  );
}

/**
 * The free decode with its stretch closest to a vocabulary entry replaced by that entry ("the Centrics
 * plan" → "the Zentrix plan"), for the MAX_SUBSTITUTIONS closest (entry, stretch) pairs that are not
 * already the entry.
 */
function substitutions(text: string, vocabulary: readonly string[]): string[] {
  const words = [...text.matchAll(/\S+/g)].map((m) => ({ at: m.index, end: m.index + m[0].length, n: norm(m[0]) }));
  const found: { sim: number; text: string }[] = [];
  for (const entry of vocabulary) {
    const target = norm(entry);
    const size = target.split(' ').length;
    if (!target) continue;
    let best: { sim: number; from: number; to: number } | null = null;
    for (let len = Math.max(1, size - 1); len <= size + 1; len++)
      for (let i = 0; i + len <= words.length; i++) {
        const stretch = words
          .slice(i, i + len)
          .map((w) => w.n)
          .join(' ');
        if (!stretch) continue;
        const sim = similarity(stretch, target);
        if (sim >= MIN_SIMILARITY && sim < 1 && (!best || sim > best.sim)) best = { sim, from: i, to: i + len };
      }
    if (!best) continue;
    const first = words[best.from]!;
    const last = words[best.to - 1]!;
    // Keep the punctuation that followed the stretch ("Centrics," → "Zentrix,").
    const tail = text.slice(first.at, last.end).match(/[^\p{L}\p{N}]+$/u)?.[0] ?? '';
    found.push({ sim: best.sim, text: `${text.slice(0, first.at)}${entry.trim()}${tail}${text.slice(last.end)}` });
  }
  return found
    .sort((a, b) => b.sim - a.sim || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, MAX_SUBSTITUTIONS)
    .map((f) => f.text);
}
