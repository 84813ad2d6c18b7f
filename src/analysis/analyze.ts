/** Scores one call against a template: criteria, score, topic, summary and metrics. */
import type { Logger } from 'pino';
import { type AudioScorer, type Heard, type ListenRequest, listen, RULED_OUT_MARGIN } from './acoustic.ts';
import type { LlmAnswer, LlmClient } from './llm.ts';
import { decoderLoop } from './loops.ts';
import { findPhrases, type PhraseMatch } from './match.ts';
import { computeMetrics, type CallMetrics } from './metrics.ts';
import { callSentiment, type CallSentiment } from './sentiment.ts';
import { extractiveSummary } from './summary.ts';
import type {
  Criterion,
  ForbiddenCriterion,
  LlmCriterion,
  MetricCriterion,
  MetricName,
  PhraseCriterion,
  TemplateDefinition,
  Topic,
} from './template.ts';
import type { CriterionResult } from '../call-columns.ts';
import { speakersKnown, type AnalysisInput, type Evidence, type Segment } from './types.ts';

export type { CriterionOutcome, CriterionResult } from '../call-columns.ts';

export interface AnalysisResult {
  /** 0–100 with one decimal; 0 when a critical criterion failed; null when every criterion is `na`. */
  score: number | null;
  /** Share (0–1, three decimals) of the template's weight actually evaluated: `na` criteria leave it. */
  coverage: number;
  /** Coverage is below the template's `minCoverage`: a person should look before the score is trusted. */
  needsReview: boolean;
  criteria: CriterionResult[];
  /** Topic key, and its label for display. */
  topic: string | null;
  topic_label: string | null;
  summary: string;
  metrics: CallMetrics;
  /** Per segment, per speaker and the customer's trend (src/analysis/sentiment.ts). */
  sentiment: CallSentiment;
}

export interface AnalyzeOptions {
  /** Configured chat model; without one, `llm` criteria are `na` and topic/summary are computed locally. */
  llm?: LlmClient | null;
  logger?: Logger;
  /**
   * The recording, to judge phrase and forbidden criteria from the audio where the transcript alone
   * does not settle them (src/analysis/acoustic.ts). Without it they are judged from the text.
   */
  audio?: AudioScorer | null;
  /** Sees what the audio said for each criterion it was asked about (bench:verdicts calibrates on it). */
  onListened?: (heard: ReadonlyMap<string, readonly Heard[]>) => void;
}

/** Forbidden words can be repeated all call long; a handful of quotes makes the point. */
const MAX_EVIDENCE = 10;

type Outcome = Pick<CriterionResult, 'result' | 'evidence'> & {
  /** The failure rests only on words the recogniser was unsure of (see lowConfidencePhrase / evaluateForbidden). */
  lowConfidence?: boolean;
  reason?: string;
  code?: string;
  params?: Record<string, string | number>;
};

interface Context {
  input: AnalysisInput;
  known: boolean;
  duration: number;
  metrics: CallMetrics;
  sentiment: CallSentiment;
}

function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

function toEvidence(match: PhraseMatch): Evidence {
  return { quote: match.quote, start: match.start, end: match.end, speaker: match.speaker };
}

/**
 * Segments a criterion looks at. On mono recordings nobody knows who said what, so a criterion
 * restricted to agent or customer falls back to all speech rather than being unanswerable.
 */
function scope(ctx: Context, speaker: Criterion['speaker'], loops = true): Segment[] {
  // A guess (Segment.guessed) is no evidence that words were said: only the audio may judge it. Nor,
  // for a phrase to be said, is a text that loops (decoderLoop): the decoder's stock lines under
  // babble ("I'm sorry to hear that you're not working, … I'm sorry to hear") passed empathy for
  // agents who never said it; there the audio can make the phrase unsure at most.
  const heard = ctx.input.segments.filter((s) => !s.guessed && (loops || !decoderLoop(s, ctx.input.segments)));
  if (speaker === 'any' || !ctx.known) return heard;
  return heard.filter((s) => s.speaker === speaker);
}

function monoNote(ctx: Context, criterion: Criterion): string {
  return isMonoFallback(ctx, criterion) ? ' (speakers unknown: all speech was checked)' : '';
}

function isMonoFallback(ctx: Context, criterion: Criterion): boolean {
  return criterion.speaker !== 'any' && !ctx.known;
}

function quoted(phrases: readonly string[]): string {
  return phrases.map((p) => `"${p}"`).join(', ');
}

/**
 * A failed phrase criterion fails only on low-confidence words when near matches over unsure words
 * (findPhrases' nearUncertain: an unsure word stands for a phrase word, at least half of the phrase heard
 * as written) would make up the count it missed, inside its window. Had the recogniser heard those words
 * as the phrase's, the criterion would have passed: a person should listen rather than trust the fail.
 */
function evaluatePhrase(ctx: Context, criterion: PhraseCriterion): Outcome {
  const outcome = phraseOutcome(ctx, criterion);
  if (outcome.result !== 'failed') return outcome;
  const { window } = criterion;
  const inWindow = (m: PhraseMatch) =>
    !window || (window.from === 'start' ? m.start <= window.seconds : m.end >= ctx.duration - window.seconds);
  const segments = scope(ctx, criterion.speaker);
  const heard = findPhrases(scope(ctx, criterion.speaker, false), criterion.phrases).filter(inWindow).length;
  // A phrase in a text that loops is a doubt like a near match over unsure words: not said, not ruled out.
  const looped = findPhrases(segments, criterion.phrases).filter(inWindow).length - heard;
  const near = looped + findPhrases(segments, criterion.phrases, { nearUncertain: true }).filter(inWindow).length;
  return near > 0 && heard + near >= criterion.minCount ? { ...outcome, lowConfidence: true } : outcome;
}

function phraseOutcome(ctx: Context, criterion: PhraseCriterion): Outcome {
  const matches = findPhrases(scope(ctx, criterion.speaker, false), criterion.phrases);
  const { window } = criterion;
  const counted = window
    ? matches.filter((m) =>
        window.from === 'start' ? m.start <= window.seconds : m.end >= ctx.duration - window.seconds,
      )
    : matches;
  const where = window ? ` in the ${window.from === 'start' ? 'first' : 'last'} ${window.seconds} s` : '';
  const evidence = counted.slice(0, MAX_EVIDENCE).map(toEvidence);
  const note = monoNote(ctx, criterion);
  const mono = isMonoFallback(ctx, criterion) ? 1 : 0;
  const win: Record<string, string | number> = window ? { from: window.from, seconds: window.seconds } : {};
  if (counted.length >= criterion.minCount) {
    const first = counted[0]!;
    const times = criterion.minCount > 1 ? ` (${counted.length} times)` : '';
    return {
      result: 'passed',
      evidence,
      reason: `said "${first.quote}" at ${clock(first.start)}${times}${note}`,
      code: 'phrase_said',
      params: { quote: first.quote, at: clock(first.start), count: counted.length, mono },
    };
  }
  if (counted.length > 0)
    return {
      result: 'failed',
      evidence,
      reason: `said ${counted.length} time(s)${where}, at least ${criterion.minCount} needed${note}`,
      code: 'phrase_too_few',
      params: { count: counted.length, min: criterion.minCount, phrases: quoted(criterion.phrases), ...win, mono },
    };
  const outside = matches[0];
  if (outside) {
    return {
      result: 'failed',
      evidence: [toEvidence(outside)],
      reason: `said only outside the window: "${outside.quote}" at ${clock(outside.start)}${note}`,
      code: 'phrase_outside_window',
      params: { quote: outside.quote, at: clock(outside.start), phrases: quoted(criterion.phrases), ...win, mono },
    };
  }
  return {
    result: 'failed',
    evidence: [],
    reason: `none of ${quoted(criterion.phrases)} was said${where}${note}`,
    code: 'phrase_missing',
    params: { phrases: quoted(criterion.phrases), ...win, mono },
  };
}

function evaluateForbidden(ctx: Context, criterion: ForbiddenCriterion): Outcome {
  const scoped = scope(ctx, criterion.speaker);
  const matches = findPhrases(scoped, criterion.phrases);
  const note = monoNote(ctx, criterion);
  const mono = isMonoFallback(ctx, criterion) ? 1 : 0;
  if (matches.length === 0)
    return {
      result: 'passed',
      evidence: [],
      reason: `no forbidden phrase was said${note}`,
      code: 'forbidden_none',
      params: { mono },
    };
  const first = matches[0]!;
  return {
    result: 'failed',
    // Every occurrence has a word the recogniser was unsure of, or is in a text that loops
    // (decoderLoop): the fail may be a mishearing.
    ...(matches.every((m) => m.uncertain || decoderLoop(scoped[m.segment]!, ctx.input.segments))
      ? { lowConfidence: true }
      : {}),
    evidence: matches.slice(0, MAX_EVIDENCE).map(toEvidence),
    reason: `said "${first.quote}" at ${clock(first.start)}${matches.length > 1 ? ` and ${matches.length - 1} more time(s)` : ''}${note}`,
    code: 'forbidden_said',
    params: { quote: first.quote, at: clock(first.start), more: matches.length - 1, mono },
  };
}

/** Whether a moment (a match or a heard phrase) counts for the criterion's window. */
function inWindow(ctx: Context, criterion: PhraseCriterion, at: { start: number; end: number }): boolean {
  const { window } = criterion;
  return !window || (window.from === 'start' ? at.start <= window.seconds : at.end >= ctx.duration - window.seconds);
}

/** Indexes of the segments a criterion looks at (scope), optionally only those a window can reach. */
function scopeIndexes(ctx: Context, criterion: Criterion, window?: PhraseCriterion['window']): number[] {
  const all = ctx.input.segments;
  return all.flatMap((s, i) => {
    if (criterion.speaker !== 'any' && ctx.known && s.speaker !== criterion.speaker) return [];
    if (window && (window.from === 'start' ? s.start > window.seconds : s.end < ctx.duration - window.seconds))
      return [];
    return [i];
  });
}

/**
 * The stretches behind a phrase criterion's doubt (evaluatePhrase: near matches over unsure words in its
 * window), located in the analysed segments; null when one cannot be (a match across two segments).
 */
function doubtsOf(ctx: Context, criterion: PhraseCriterion): NonNullable<ListenRequest['doubts']> | null {
  const scoped = scope(ctx, criterion.speaker);
  const doubts: NonNullable<ListenRequest['doubts']>[number][] = [];
  for (const m of findPhrases(scoped, criterion.phrases, { nearUncertain: true })) {
    if (!inWindow(ctx, criterion, m)) continue;
    const segment = scoped[m.segment]!;
    // The match's own offset, not the quote's first occurrence: a near match said twice in one turn
    // must point the audio at the stretch that was doubted. A quote that does not start there spans
    // two segments (joined quotes) and cannot be located in one.
    const from = m.offset;
    if (segment.text.slice(from, from + m.quote.length) !== m.quote) return null;
    doubts.push({ segment: ctx.input.segments.indexOf(segment), phrase: m.phrase, from, to: from + m.quote.length });
  }
  return doubts;
}

/** The speaker's first (last) turns where a phrase of a criterion tied to the call's opening (closing) is sought: one keeps the cost down (each long phrase is tried two ways there). */
const OPENING_TURNS = 1;

/**
 * What to ask the audio: a phrase criterion the text did not pass, in the segments of its speaker and
 * window where the text found none of its phrases; a forbidden criterion the text did not fail on
 * words the recogniser was sure of, in all its speaker's segments. Nothing else costs a decoder run.
 */
function listenRequest(ctx: Context, criterion: Criterion, text: Outcome): ListenRequest | null {
  if (criterion.kind === 'phrase') {
    if (text.result === 'passed') return null;
    const matched = new Set(
      findPhrases(ctx.input.segments, criterion.phrases)
        .filter((m) => {
          const segment = ctx.input.segments[m.segment]!;
          return inWindow(ctx, criterion, m) && !segment.guessed && !decoderLoop(segment, ctx.input.segments);
        })
        .map((m) => m.segment),
    );
    // A criterion tied to the call's opening (closing) is said in the speaker's first (last) turns.
    const { window } = criterion;
    const turns = window ? scopeIndexes(ctx, criterion).filter((i) => !ctx.input.segments[i]!.guessed) : [];
    const ends = window?.from === 'start' ? turns.slice(0, OPENING_TURNS) : turns.slice(-OPENING_TURNS);
    // …and never in the turns at the other end, when the speaker has turns between: a short call's
    // closing is inside a greeting's window and its opening inside a closing's, and the audio confuses
    // the two ("a quien que puedo ayudarle" in a greeting scored as "algo más en lo que pueda ayudarle",
    // −1.59 a token: a false pass of the closing on bench:verdicts' tuning calls).
    const others =
      turns.length > 2 * OPENING_TURNS
        ? window?.from === 'start'
          ? turns.slice(-OPENING_TURNS)
          : turns.slice(0, OPENING_TURNS)
        : [];
    const segments = scopeIndexes(ctx, criterion, criterion.window).filter(
      (i) => !matched.has(i) && !others.includes(i),
    );
    if (!segments.length) return null;
    const openings = segments.filter((i) => ends.includes(i));
    const doubts = text.lowConfidence ? doubtsOf(ctx, criterion) : null;
    return {
      key: criterion.key,
      segments,
      phrases: criterion.phrases,
      ...(openings.length ? { openings } : {}),
      ...(doubts?.length ? { doubts } : {}),
    };
  }
  if (criterion.kind === 'forbidden') {
    // Only a forbidden phrase the text heard on unsure words is checked against the audio. Searching the
    // audio for phrases the text did not hear turned clean calls into critical fails (a near match in the
    // unsure band zeroes the score), and a false critical fail is the worst verdict an agent can get.
    // Nor would a search of stretches spelled alike find the ones missed on the bench: "compound" for
    // "calm down", "no eres mi joven" for "no es mi problema" are under 50 % alike.
    if (text.result !== 'failed' || !text.lowConfidence) return null;
    const segments = scopeIndexes(ctx, criterion);
    return segments.length ? { key: criterion.key, segments, phrases: criterion.phrases } : null;
  }
  return null;
}

function heardEvidence(h: Heard): Evidence {
  return { quote: h.quote, start: h.start, end: h.end, speaker: h.speaker };
}

/** A phrase criterion the text did not pass, decided with what the audio says. */
function phraseFromAudio(
  ctx: Context,
  criterion: PhraseCriterion,
  text: Outcome,
  heard: readonly Heard[],
  doubts: ListenRequest['doubts'],
): Outcome {
  const counted = findPhrases(scope(ctx, criterion.speaker, false), criterion.phrases).filter((m) =>
    inWindow(ctx, criterion, m),
  ).length;
  const usable = heard.filter((h) => inWindow(ctx, criterion, h));
  const yes = usable.filter((h) => h.hearing === 'heard');
  const maybe = usable.filter((h) => h.hearing === 'unsure');
  const note = monoNote(ctx, criterion);
  const mono = isMonoFallback(ctx, criterion) ? 1 : 0;
  if (counted + yes.length >= criterion.minCount) {
    const first = yes[0]!;
    return {
      result: 'passed',
      evidence: [...text.evidence, ...yes.map(heardEvidence)].slice(0, MAX_EVIDENCE),
      reason: `the audio at ${clock(first.start)} matches "${first.phrase}" (the transcript heard "${first.quote}")${note}`,
      code: 'phrase_heard_in_audio',
      params: { phrase: first.phrase, quote: first.quote, at: clock(first.start), mono },
    };
  }
  if (maybe.length > 0 && counted + yes.length + maybe.length >= criterion.minCount) {
    const first = maybe[0]!;
    return {
      result: 'failed',
      lowConfidence: true,
      evidence: [...yes, ...maybe].map(heardEvidence).slice(0, MAX_EVIDENCE),
      reason: `unsure: the audio at ${clock(first.start)} may say "${first.phrase}" (the transcript heard "${first.quote}"); a person should listen${note}`,
      code: 'phrase_unsure',
      params: { phrase: first.phrase, quote: first.quote, at: clock(first.start), mono },
    };
  }
  // The text doubted its fail (near matches over unsure words) and the audio, asked about each of those
  // very stretches and everywhere else the phrases could be, rules them all out far below the unsure
  // band: the doubt is answered, the fail stands without review. Above that the doubt stays: in heavy
  // noise a said phrase can score low, and an unsure fail goes to a person.
  if (text.lowConfidence && outcomeSettled(doubts, usable)) {
    const { lowConfidence: _, ...settled } = text;
    return settled;
  }
  return text;
}

/**
 * Whether the audio tried every stretch the text doubted (the listen request's `doubts`) and found every
 * try at or below RULED_OUT_MARGIN.
 */
function outcomeSettled(doubts: ListenRequest['doubts'], heard: readonly Heard[]): boolean {
  if (!doubts?.length) return false;
  const tried = new Set(heard.map((h) => h.segment));
  return doubts.every((d) => tried.has(d.segment)) && heard.every((h) => h.perToken <= RULED_OUT_MARGIN);
}

/** A forbidden criterion the text did not fail for sure, decided with what the audio says. */
function forbiddenFromAudio(
  ctx: Context,
  criterion: ForbiddenCriterion,
  text: Outcome,
  heard: readonly Heard[],
): Outcome {
  const note = monoNote(ctx, criterion);
  const mono = isMonoFallback(ctx, criterion) ? 1 : 0;
  const yes = heard.filter((h) => h.hearing === 'heard');
  const maybe = heard.filter((h) => h.hearing === 'unsure');
  const said = yes[0] ?? maybe[0];
  // Not found in the audio: the text's unsure fail stands, and a person listens.
  if (!said) return text;
  const sure = yes.length > 0;
  return {
    result: 'failed',
    ...(sure ? {} : { lowConfidence: true }),
    evidence: (sure ? yes : maybe).map(heardEvidence).slice(0, MAX_EVIDENCE),
    reason: sure
      ? `the audio at ${clock(said.start)} matches "${said.phrase}" (the transcript heard "${said.quote}")${note}`
      : `unsure: the audio at ${clock(said.start)} may say "${said.phrase}" (the transcript heard "${said.quote}"); a person should listen${note}`,
    code: sure ? 'forbidden_heard_in_audio' : 'forbidden_unsure',
    params: { phrase: said.phrase, quote: said.quote, at: clock(said.start), mono },
  };
}

/**
 * A phrase criterion still failed while the criterion's speaker spoke, inside its window, a turn the
 * recogniser heard no words in on its own (Segment.guessed: under babble it ends at once on whole agent
 * turns): the phrase may have been said there, and nothing the audio found rules that out, so a person
 * listens (unsure) instead of the agent being failed for words nobody could hear. A turn holds one of
 * the things a template asks for, not all of them: with the recording, each such turn is given to the
 * one failing criterion whose phrases its audio finds likeliest (teacher-forced, per word), and only
 * that criterion is unsure through it (none, when that criterion is already unsure for another
 * reason); without the recording every criterion it could hold is.
 */
async function unheardSpeech(
  ctx: Context,
  template: TemplateDefinition,
  outcomes: Outcome[],
  audio: AudioScorer | null | undefined,
): Promise<Outcome[]> {
  const phrase = (i: number) => template.criteria[i]!.kind === 'phrase';
  const failing = (i: number) => phrase(i) && outcomes[i]!.result === 'failed';
  const open = (i: number) => failing(i) && !outcomes[i]!.lowConfidence;
  const fits = (i: number, s: Segment) => {
    const criterion = template.criteria[i] as PhraseCriterion;
    return (
      (criterion.speaker === 'any' || !ctx.known || s.speaker === criterion.speaker) && inWindow(ctx, criterion, s)
    );
  };
  const turns = ctx.input.segments.flatMap((s) => {
    if (!s.guessed) return [];
    // Criteria already unsure compete for the turn too: a turn that sounds most like one of them is
    // already being listened to, and puts no other criterion in review.
    const candidates = template.criteria.flatMap((_, i) => (failing(i) && fits(i, s) ? [i] : []));
    return candidates.some(open) ? [{ segment: s, candidates }] : [];
  });
  if (!turns.length) return outcomes;
  const given = new Map<number, Segment>();
  const give = (i: number, s: Segment) => {
    if (open(i) && !given.has(i)) given.set(i, s);
  };
  const ask = audio ? turns.filter((t) => t.candidates.length > 1) : [];
  for (const t of turns) if (!ask.includes(t)) for (const i of t.candidates) give(i, t.segment);
  if (ask.length) {
    const texts = (t: (typeof ask)[number]) =>
      t.candidates.flatMap((i) =>
        (template.criteria[i] as PhraseCriterion).phrases.map((p) => `${p.charAt(0).toUpperCase()}${p.slice(1)}.`),
      );
    const scores = await audio!.score(ask.map((t) => ({ segment: t.segment, texts: texts(t) })));
    ask.forEach((t, n) => {
      const got = scores[n] ?? [];
      // A turn the recording did not reach (cut short) has no scores: it could hold any of them.
      if (got.length !== texts(t).length) {
        for (const i of t.candidates) give(i, t.segment);
        return;
      }
      let at = 0;
      let best = { criterion: t.candidates[0]!, perWord: Number.NEGATIVE_INFINITY };
      for (const i of t.candidates)
        for (const p of (template.criteria[i] as PhraseCriterion).phrases) {
          const perWord = got[at++]! / (p.trim().split(/\s+/).length + 1);
          // Strictly greater: a tie keeps the template's earlier criterion, so the choice is deterministic.
          if (perWord > best.perWord) best = { criterion: i, perWord };
        }
      give(best.criterion, t.segment);
    });
  }
  return outcomes.map((outcome, i) => {
    const unheard = given.get(i);
    if (!unheard) return outcome;
    const criterion = template.criteria[i] as PhraseCriterion;
    return {
      ...outcome,
      lowConfidence: true,
      reason: `unsure: no words could be recognised in speech at ${clock(unheard.start)}, where ${quoted(criterion.phrases)} may have been said; a person should listen${monoNote(ctx, criterion)}`,
      code: 'phrase_unheard_speech',
      params: {
        at: clock(unheard.start),
        phrases: quoted(criterion.phrases),
        mono: isMonoFallback(ctx, criterion) ? 1 : 0,
      },
    };
  });
}

const METRIC_LABELS: Record<MetricName, string> = {
  talk_ratio: 'talk ratio',
  longest_silence: 'longest silence',
  silence_ratio: 'silence ratio',
  interruptions: 'interruptions',
  words_per_minute: 'words per minute',
  duration: 'duration',
  customer_sentiment: 'customer sentiment',
  customer_sentiment_trend: 'customer sentiment trend',
};

function formatMetric(metric: MetricName, value: number): string {
  switch (metric) {
    case 'talk_ratio':
    case 'silence_ratio':
      return `${Math.round(value * 1000) / 10}%`;
    case 'longest_silence':
    case 'duration':
      return `${Math.round(value * 10) / 10} s`;
    case 'customer_sentiment':
    case 'customer_sentiment_trend':
      return `${value > 0 ? '+' : ''}${Math.round(value * 100) / 100}`;
    default:
      return String(value);
  }
}

/**
 * How the web app formats a metric's raw numbers in `reason_params` (in the UI language, with
 * `Intl`): `percent` is a fraction 0–1, `seconds` a length of time, `signed` a sentiment (−1…+1).
 */
function metricUnit(metric: MetricName): 'percent' | 'seconds' | 'signed' | 'count' {
  switch (metric) {
    case 'talk_ratio':
    case 'silence_ratio':
      return 'percent';
    case 'longest_silence':
    case 'duration':
      return 'seconds';
    case 'customer_sentiment':
    case 'customer_sentiment_trend':
      return 'signed';
    default:
      return 'count';
  }
}

/** The raw number sent in `reason_params`, rounded as the English reason rounds it. */
function metricParam(metric: MetricName, value: number): number {
  switch (metricUnit(metric)) {
    case 'percent':
      return Math.round(value * 1000) / 1000;
    case 'seconds':
      return Math.round(value * 10) / 10;
    case 'signed':
      return Math.round(value * 100) / 100;
    default:
      return value;
  }
}

/**
 * The value a metric criterion is judged on. `speaker` picks whose share (talk ratio), who
 * interrupts (interruptions) or whose pace (words per minute); it has no meaning for the others.
 */
function metricValue(
  metrics: CallMetrics,
  sentiment: CallSentiment,
  metric: MetricName,
  speaker: Criterion['speaker'],
  known: boolean,
): number | null {
  switch (metric) {
    case 'talk_ratio':
      if (metrics.talk_ratio === null) return null;
      return speaker === 'customer' ? Math.round((1 - metrics.talk_ratio) * 10_000) / 10_000 : metrics.talk_ratio;
    case 'longest_silence':
      return metrics.longest_silence_seconds;
    case 'silence_ratio':
      return metrics.silence_ratio;
    case 'interruptions':
      if (speaker === 'agent') return metrics.agent_interruptions;
      if (speaker === 'customer') return metrics.customer_interruptions;
      return metrics.interruptions;
    case 'words_per_minute':
      // On mono the per-speaker paces are unknown; all speech stands in, as for phrase criteria.
      if (known && speaker === 'customer') return metrics.customer_words_per_minute;
      return metrics.words_per_minute;
    case 'duration':
      return metrics.duration_seconds;
    // Whose sentiment is in the name: `speaker` does not change it.
    case 'customer_sentiment':
      return sentiment.customer?.score ?? null;
    case 'customer_sentiment_trend':
      return sentiment.customer_trend;
  }
}

function evaluateMetric(ctx: Context, criterion: MetricCriterion): Outcome {
  const { metric, op } = criterion;
  const name = METRIC_LABELS[metric];
  const value = metricValue(ctx.metrics, ctx.sentiment, metric, criterion.speaker, ctx.known);
  if (value === null) {
    const perSpeaker = ['talk_ratio', 'interruptions', 'customer_sentiment', 'customer_sentiment_trend'];
    const onMono = perSpeaker.includes(metric) && !ctx.known;
    const reason = onMono
      ? `${name} cannot be measured on a mono recording (speakers unknown)`
      : `${name} cannot be measured: not enough speech`;
    return {
      result: 'na',
      evidence: [],
      reason,
      code: onMono ? 'metric_mono' : 'metric_no_speech',
      params: { metric },
    };
  }
  const fmt = (n: number): string => formatMetric(metric, n);
  // An open bound (Infinity) would turn into null in JSON: it keeps its English text instead.
  const raw = (n: number): number | string => (Number.isFinite(n) ? metricParam(metric, n) : fmt(n));
  let passed: boolean;
  let rule: string;
  let bounds: Record<string, number | string>;
  if (op === 'between') {
    const min = criterion.min ?? 0;
    const max = criterion.max ?? Number.POSITIVE_INFINITY;
    passed = value >= min && value <= max;
    rule = `between ${fmt(min)} and ${fmt(max)}`;
    bounds = { min: raw(min), max: raw(max) };
  } else {
    const threshold = criterion.value ?? 0;
    passed = { lt: value < threshold, lte: value <= threshold, gt: value > threshold, gte: value >= threshold }[op];
    rule = `${{ lt: 'below', lte: 'at most', gt: 'above', gte: 'at least' }[op]} ${fmt(threshold)}`;
    bounds = { threshold: raw(threshold) };
  }
  return {
    result: passed ? 'passed' : 'failed',
    evidence: [],
    reason: `${name} ${fmt(value)}, must be ${rule}`,
    code: `metric_${op}`,
    // Numbers stay numbers with their unit: the web app formats them in the UI language ("64,5 %").
    params: { metric, unit: metricUnit(metric), value: raw(value), ...bounds },
  };
}

function llmOutcome(ctx: Context, answer: LlmAnswer | undefined): Outcome {
  if (!answer)
    return {
      result: 'na',
      evidence: [],
      reason: 'the language model did not answer this question',
      code: 'llm_no_answer',
      params: {},
    };
  if (answer.answer === 'unknown') {
    return {
      result: 'na',
      evidence: [],
      reason: `the language model could not tell: ${answer.reason}`,
      code: 'llm_unknown',
      params: { reason: answer.reason },
    };
  }
  // Model quotes are located in the transcript to give them a time; an unlocatable quote is not evidence.
  const located = answer.quote ? findPhrases(ctx.input.segments, [answer.quote])[0] : undefined;
  return {
    result: answer.answer === 'yes' ? 'passed' : 'failed',
    evidence: located ? [toEvidence(located)] : [],
    reason: answer.reason,
  };
}

async function evaluateLlm(
  ctx: Context,
  criteria: LlmCriterion[],
  opts: AnalyzeOptions,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const all = (reason: string, code: string): Map<string, Outcome> => {
    for (const c of criteria) outcomes.set(c.key, { result: 'na', evidence: [], reason, code, params: {} });
    return outcomes;
  };
  if (criteria.length === 0) return outcomes;
  if (!opts.llm) return all('no language model configured', 'llm_not_configured');
  if (ctx.input.segments.length === 0) return all('no speech to evaluate', 'llm_no_speech');
  let answers: LlmAnswer[];
  try {
    // The model needs the whole conversation for context, so `speaker` does not narrow the transcript here.
    answers = await opts.llm.answerCriteria(
      ctx.input.segments,
      criteria.map((c) => ({ key: c.key, question: c.question })),
    );
  } catch (error) {
    opts.logger?.warn({ err: error }, 'llm criteria unavailable');
    return all(
      `language model unavailable: ${error instanceof Error ? error.message : String(error)}`,
      'llm_unavailable',
    );
  }
  for (const c of criteria)
    outcomes.set(
      c.key,
      llmOutcome(
        ctx,
        answers.find((a) => a.key === c.key),
      ),
    );
  return outcomes;
}

/** The topic whose phrases are said most often; ties go to the topic listed first. */
function topicByPhrases(segments: readonly Segment[], topics: readonly Topic[]): Topic | null {
  let best: Topic | null = null;
  let bestCount = 0;
  for (const topic of topics) {
    const count = findPhrases(segments, topic.phrases).length;
    if (count > bestCount) {
      best = topic;
      bestCount = count;
    }
  }
  return best;
}

async function topicAndSummary(
  ctx: Context,
  template: TemplateDefinition,
  language: string,
  opts: AnalyzeOptions,
): Promise<{ topic: Topic | null; summary: string }> {
  const { segments } = ctx.input;
  if (opts.llm && segments.length > 0) {
    try {
      const reply = await opts.llm.chooseTopicAndSummarize(
        segments,
        template.topics.map((t) => ({ key: t.key, label: t.label })),
        language,
      );
      if (reply.summary !== '')
        return { topic: template.topics.find((t) => t.key === reply.topic) ?? null, summary: reply.summary };
    } catch (error) {
      opts.logger?.warn({ err: error }, 'llm summary unavailable, using extractive summary');
    }
  }
  return { topic: topicByPhrases(segments, template.topics), summary: extractiveSummary(segments, language) };
}

/**
 * Score = 100 × points / max points over the criteria that were evaluated, 0 after a critical
 * failure. Exported because a reviewer's override recomputes it (src/review/review.ts): one rule.
 */
export function score(
  criteria: readonly Pick<CriterionResult, 'result' | 'critical' | 'points' | 'max_points'>[],
): number | null {
  const scored = criteria.filter((c) => c.result !== 'na');
  if (scored.length === 0) return null;
  if (scored.some((c) => c.critical && c.result === 'failed')) return 0;
  const points = scored.reduce((sum, c) => sum + c.points, 0);
  const max = scored.reduce((sum, c) => sum + c.max_points, 0);
  return Math.round((1000 * points) / max) / 10;
}

/** Share of the template's weight evaluated; exported for the same reason as `score`. */
export function coverage(
  template: { criteria: readonly { weight: number }[] },
  criteria: readonly Pick<CriterionResult, 'max_points'>[],
): number {
  const total = template.criteria.reduce((sum, c) => sum + c.weight, 0);
  const evaluated = criteria.reduce((sum, c) => sum + c.max_points, 0);
  return total > 0 ? Math.round((1000 * evaluated) / total) / 1000 : 0;
}

/** Whether a coverage (0–1) is below the template's `minCoverage` (a percentage), so a person should look. */
export function belowMinCoverage(template: Pick<TemplateDefinition, 'minCoverage'>, cover: number): boolean {
  return template.minCoverage !== undefined && cover * 100 < template.minCoverage;
}

/** Never throws for model trouble: unavailable answers become `na` and local fallbacks. */
export async function analyzeCall(
  input: AnalysisInput,
  template: TemplateDefinition,
  opts: AnalyzeOptions = {},
): Promise<AnalysisResult> {
  const metrics = computeMetrics(input);
  const sentiment = callSentiment(input);
  const ctx: Context = { input, known: speakersKnown(input), duration: metrics.duration_seconds, metrics, sentiment };
  const language = input.language || template.language || 'en';
  const llmCriteria = template.criteria.filter((c): c is LlmCriterion => c.kind === 'llm');

  const [llmOutcomes, { topic, summary }] = await Promise.all([
    evaluateLlm(ctx, llmCriteria, opts),
    topicAndSummary(ctx, template, language, opts),
  ]);

  const fromText = template.criteria.map((criterion): Outcome => {
    if (criterion.kind === 'phrase') return evaluatePhrase(ctx, criterion);
    if (criterion.kind === 'forbidden') return evaluateForbidden(ctx, criterion);
    if (criterion.kind === 'metric') return evaluateMetric(ctx, criterion);
    return llmOutcomes.get(criterion.key)!;
  });
  const requests = opts.audio ? template.criteria.flatMap((c, i) => listenRequest(ctx, c, fromText[i]!) ?? []) : [];
  const heard = requests.length ? await listen(input.segments, requests, opts.audio!) : new Map<string, Heard[]>();
  opts.onListened?.(heard);

  const withAudio = template.criteria.map((criterion, i): Outcome => {
    const outcome = fromText[i]!;
    const inAudio = heard.get(criterion.key);
    if (inAudio && criterion.kind === 'phrase')
      return phraseFromAudio(ctx, criterion, outcome, inAudio, requests.find((r) => r.key === criterion.key)?.doubts);
    if (inAudio && criterion.kind === 'forbidden') return forbiddenFromAudio(ctx, criterion, outcome, inAudio);
    return outcome;
  });
  const outcomes = await unheardSpeech(ctx, template, withAudio, opts.audio);

  const criteria = template.criteria.map((criterion, i): CriterionResult => {
    const outcome = outcomes[i]!;
    const na = outcome.result === 'na';
    return {
      key: criterion.key,
      label: criterion.label,
      kind: criterion.kind,
      result: outcome.result,
      points: outcome.result === 'passed' ? criterion.weight : 0,
      max_points: na ? 0 : criterion.weight,
      critical: criterion.critical,
      ...(outcome.lowConfidence ? { low_confidence: true } : {}),
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      ...(outcome.code !== undefined ? { reason_code: outcome.code, reason_params: outcome.params ?? {} } : {}),
      evidence: outcome.evidence,
      weight: criterion.weight,
    };
  });

  const cover = coverage(template, criteria);
  return {
    score: score(criteria),
    coverage: cover,
    needsReview: belowMinCoverage(template, cover),
    criteria,
    topic: topic?.key ?? null,
    topic_label: topic?.label ?? null,
    summary,
    metrics,
    sentiment,
  };
}
