/**
 * A criterion's reason in the UI language, from the analysis engine's `reasonCode` and
 * `reasonParams` (src/analysis/analyze.ts). Calls analyzed before codes existed, and a language
 * model's own explanation, have no code: their English `reason` is shown as sent.
 * Metric values arrive as raw numbers with a `unit` and are formatted here in the UI language
 * ("64,5 %" in Spanish); calls analyzed before that carry English strings ("64.5%"), shown as sent.
 */
import type { MessageKey } from '../i18n/index.tsx';
import { formatDuration, formatNumber, formatPercent } from './format.ts';
import { METRICS as ALL_METRICS } from '../../analysis/metric-names.ts';

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
  'phrase_unheard_speech',
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
const METRICS: ReadonlySet<string> = new Set(ALL_METRICS);

/** One metric number in the UI language, by the unit the engine sent; strings (older calls) as they are. */
function metricText(v: string | number, unit: unknown, locale: string): string | number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v;
  switch (unit) {
    case 'percent':
      return formatPercent(v, locale, 1);
    case 'seconds':
      return formatDuration(v, locale);
    case 'signed':
      return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(v);
    case 'count':
      return formatNumber(v, locale, 1);
    default:
      return v;
  }
}

export function criterionReason(c: ReasonSource, t: Translate, locale = 'en'): string | null {
  const code = c.reasonCode;
  if (!code || !CODES.has(code)) return c.reason ?? null;
  const p = (c.reasonParams ?? {}) as Params;
  const params: Params = { ...p };
  for (const k of ['value', 'threshold', 'min', 'max'] as const)
    if (p[k] !== undefined) params[k] = metricText(p[k], p.unit, locale);
  if (typeof p.metric === 'string' && METRICS.has(p.metric))
    params.metric = t(`reasonMetric.${p.metric}` as MessageKey);
  // A time window reads as its own phrase ("in the first 30 s"), so the sentence stays whole in each language.
  params.window =
    p.from === 'start' || p.from === 'end'
      ? t(`reason.window.${p.from}` as MessageKey, { seconds: p.seconds ?? 0 })
      : '';
  // "said once" / "said 2 times": the count picks the message's singular (translate's `n`).
  if (p.count !== undefined) params.n = p.count;
  // Newer analyses name the expected phrases, so a failed result says what was wanted, not only what was heard.
  const key = code === 'phrase_outside_window' && p.phrases ? 'phrase_outside_window_expected' : code;
  const text = t(`reason.${key}` as MessageKey, params);
  return p.mono ? `${text} ${t('reason.mono')}` : text;
}
