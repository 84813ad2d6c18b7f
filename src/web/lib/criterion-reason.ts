/**
 * A criterion's reason in the UI language, from the analysis engine's `reasonCode` and
 * `reasonParams` (src/analysis/analyze.ts). Calls analyzed before codes existed, and a language
 * model's own explanation, have no code: their English `reason` is shown as sent.
 */
import type { MessageKey } from '../i18n/index.tsx';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;
type Params = Record<string, string | number>;

export interface ReasonSource {
  reason?: string | null;
  reasonCode?: string | null;
  reasonParams?: unknown;
}

const CODES = new Set([
  'phrase_said',
  'phrase_too_few',
  'phrase_outside_window',
  'phrase_missing',
  'forbidden_none',
  'forbidden_said',
  'metric_mono',
  'metric_no_speech',
  'metric_lt',
  'metric_lte',
  'metric_gt',
  'metric_gte',
  'metric_between',
  'llm_no_answer',
  'llm_unknown',
  'llm_not_configured',
  'llm_no_speech',
  'llm_unavailable',
]);
const METRICS = new Set([
  'talk_ratio',
  'longest_silence',
  'silence_ratio',
  'interruptions',
  'words_per_minute',
  'duration',
  'customer_sentiment',
  'customer_sentiment_trend',
]);

export function criterionReason(c: ReasonSource, t: Translate): string | null {
  const code = c.reasonCode;
  if (!code || !CODES.has(code)) return c.reason ?? null;
  const p = (c.reasonParams ?? {}) as Params;
  const params: Params = { ...p };
  if (typeof p.metric === 'string' && METRICS.has(p.metric))
    params.metric = t(`reasonMetric.${p.metric}` as MessageKey);
  // A time window reads as its own phrase ("in the first 30 s"), so the sentence stays whole in each language.
  params.window =
    p.from === 'start' || p.from === 'end'
      ? t(`reason.window.${p.from}` as MessageKey, { seconds: p.seconds ?? 0 })
      : '';
  const text = t(`reason.${code}` as MessageKey, params);
  return p.mono ? `${text} ${t('reason.mono')}` : text;
}
