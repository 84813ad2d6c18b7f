/**
 * The names a template definition uses for its metrics, operators and criterion kinds. Pure data with
 * no imports: the server's validation (template.ts) and the web app's template editor
 * (src/web/lib/template-draft.ts) both read these, so a new metric is one line here.
 */
export const METRICS = [
  'talk_ratio',
  'longest_silence',
  'silence_ratio',
  'interruptions',
  'words_per_minute',
  'duration',
  'customer_sentiment',
  'customer_sentiment_trend',
] as const;
export type MetricName = (typeof METRICS)[number];
export const METRIC_OPS = ['lt', 'lte', 'gt', 'gte', 'between'] as const;
export const CRITERION_KINDS = ['phrase', 'forbidden', 'metric', 'llm'] as const;
/** Metrics expressed as fractions (0–1), where a threshold like 60 is a mistake for 0.6; the editor shows them as percentages. */
export const RATIO_METRICS: ReadonlySet<string> = new Set(['talk_ratio', 'silence_ratio']);
