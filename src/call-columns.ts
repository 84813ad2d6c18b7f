import { z } from 'zod';

/*
 * The JSON columns of `calls`, one zod schema each, parsed where rows are read (a column written
 * by an older version, or by hand, fails loudly instead of flowing on as the wrong shape). The
 * types used by transcription, analysis, GraphQL and webhooks are these.
 */

/** Which side of the call a segment belongs to: stereo channels map to agent/customer, mono to 'speaker'. */
export const Speaker = z.enum(['agent', 'customer', 'speaker']);
export type Speaker = z.infer<typeof Speaker>;

/** `calls.segments`: the transcript. */
export const Segment = z.object({
  /** Seconds from the start of the recording. */
  start: z.number(),
  end: z.number(),
  speaker: Speaker,
  text: z.string(),
  /** Index of the decoded channel the segment was heard on (0 = left / mono). */
  channel: z.number().int(),
  /** The recogniser's confidence in the segment, 0–1 (absent on older calls and engines without one). */
  confidence: z.number().min(0).max(1).optional(),
  /** Indexes into `text.split(' ')` of words the recogniser was unsure of (absent when none or unknown). */
  uncertainWords: z.array(z.number().int().min(0)).optional(),
  /**
   * The recogniser heard no words on its own in this stretch of the speaker's speech; the text is its
   * best guess when made to speak (every word uncertain). Criteria read it only through the audio.
   */
  guessed: z.boolean().optional(),
});
export type Segment = z.infer<typeof Segment>;
export const Segments = z.array(Segment);

/** A quote from the transcript backing a criterion result. */
export const Evidence = z.object({ quote: z.string(), start: z.number(), end: z.number(), speaker: Speaker });
export type Evidence = z.infer<typeof Evidence>;

export const CriterionOutcome = z.enum(['passed', 'failed', 'na']);
export type CriterionOutcome = z.infer<typeof CriterionOutcome>;

/** `calls.criteria`: one entry per criterion of the template. */
export const CriterionResult = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['phrase', 'forbidden', 'metric', 'llm']),
  result: CriterionOutcome,
  /** `weight` when passed, else 0. */
  points: z.number(),
  /** `weight`, or 0 when `na` so that Σpoints / Σmax_points is the score. */
  max_points: z.number(),
  critical: z.boolean(),
  reason: z.string().optional(),
  /** The reason as a stable code with parameters, so an app can say it in its own language. */
  reason_code: z.string().optional(),
  reason_params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  evidence: z.array(Evidence),
  /**
   * True on a failed criterion whose failure rests only on words the recogniser was unsure of
   * (src/analysis/analyze.ts): the call goes to the review queue (reason low_confidence).
   */
  low_confidence: z.boolean().optional(),
  /** The criterion's weight in the template (absent on calls analyzed before reviews existed). */
  weight: z.number().optional(),
  /**
   * Present when a reviewer overrode the result (src/review/review.ts): `result`, `points` and
   * `max_points` are then the reviewed values and this is what the analysis said.
   */
  auto_result: CriterionOutcome.optional(),
  /** The latest override: its note, who and when. */
  review: z.object({ note: z.string(), by_id: z.string().nullable(), by_name: z.string(), at: z.string() }).optional(),
});
export type CriterionResult = z.infer<typeof CriterionResult>;
export const Criteria = z.array(CriterionResult);

/** `calls.metrics`: talk metrics by name (src/analysis/metrics.ts computes them). */
export const Metrics = z.record(z.string(), z.unknown());

/** One sentiment reading: label and a score from −1 to 1 (src/analysis/sentiment.ts). */
export const SentimentScore = z.object({
  label: z.enum(['negative', 'neutral', 'positive']),
  score: z.number().min(-1).max(1),
});
export type SentimentScore = z.infer<typeof SentimentScore>;

/** `calls.sentiment`: `segments` is parallel to `calls.segments` (same order and length). */
export const CallSentimentColumn = z.object({
  segments: z.array(SentimentScore),
  agent: SentimentScore.nullable(),
  customer: SentimentScore.nullable(),
  overall: SentimentScore.nullable(),
  customer_trend: z.number().nullable(),
});

/** `calls.redactions`: moments redacted from the transcript (and audio), seconds; kind as in src/redaction/detect.ts. */
export const Redactions = z.array(z.object({ kind: z.string(), start: z.number(), end: z.number() }));

/** Parses a JSON column that may be null (not transcribed / not analyzed yet). */
export function parseColumn<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | null {
  return value === null || value === undefined ? null : schema.parse(value);
}
