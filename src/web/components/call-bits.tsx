/** Small call presentations shared by the list and the detail page. */
import { createContext, useContext } from 'react';
import { useT, hasKey, type MessageKey } from '../i18n/index.tsx';
import { formatScore } from '../lib/format.ts';
import { Icon } from './Icon.tsx';
import { Badge, type Tone } from './ui.tsx';

export type CallStatus = 'QUEUED' | 'TRANSCRIBING' | 'ANALYZING' | 'ANALYZED' | 'TRANSCRIBED' | 'FAILED';

const STATUS_TONE: Record<CallStatus, { tone: Tone; pulse?: boolean }> = {
  QUEUED: { tone: 'gray' },
  TRANSCRIBING: { tone: 'blue', pulse: true },
  ANALYZING: { tone: 'accent', pulse: true },
  ANALYZED: { tone: 'green' },
  TRANSCRIBED: { tone: 'amber' },
  FAILED: { tone: 'red' },
};

export function StatusBadge({ status }: { status: CallStatus }) {
  const { t } = useT();
  const s = STATUS_TONE[status];
  return (
    <Badge
      tone={s.tone}
      dot
      pulse={s.pulse}
      title={status === 'TRANSCRIBED' ? t('status.TRANSCRIBED_hint') : undefined}
    >
      {t(`status.${status}` as MessageKey)}
    </Badge>
  );
}

/** A failure reason code in plain words (unknown codes fall back to the server's detail). */
export function useFailureText() {
  const { t } = useT();
  return (reason: string | null | undefined, detail?: string | null): string => {
    const key = `failure.${reason ?? 'unknown'}`;
    if (hasKey(key)) return t(key);
    return detail || t('failure.unknown');
  };
}

/** The account's score colour bands (Account.scoreBands); Shell provides them, 80/60 until they load. */
export interface ScoreBands {
  good: number;
  fair: number;
}
export const DEFAULT_BANDS: ScoreBands = { good: 80, fair: 60 };
export const ScoreBandsContext = createContext<ScoreBands>(DEFAULT_BANDS);
export const useScoreBands = () => useContext(ScoreBandsContext);

export function scoreClass(score: number | null | undefined, bands: ScoreBands = DEFAULT_BANDS): string {
  if (score == null) return 'score-none';
  if (score >= bands.good) return 'score-good';
  if (score >= bands.fair) return 'score-mid';
  return 'score-bad';
}

/** The colour of a score for charts (the same bands as the pills). */
export function scoreColor(score: number | null | undefined, bands: ScoreBands = DEFAULT_BANDS): string {
  const c = scoreClass(score, bands);
  return c === 'score-good'
    ? 'var(--green)'
    : c === 'score-mid'
      ? 'var(--amber)'
      : c === 'score-bad'
        ? 'var(--red)'
        : 'var(--text-3)';
}

/** A score; a critical fail reads as such (its 0 comes from the rule, not from the points). */
export function ScorePill({
  score,
  criticalFailed,
}: {
  score: number | null | undefined;
  criticalFailed?: boolean | null;
}) {
  const { locale, t } = useT();
  const bands = useScoreBands();
  if (criticalFailed)
    return (
      <span className="score score-bad score-critical" title={t('score.criticalHint')} data-critical="true">
        <Icon name="alert" size={12} aria-hidden="true" />
        {formatScore(score, locale)}
        <span className="sr-only"> — {t('callDetail.criticalFailed')}</span>
      </span>
    );
  return (
    <span
      className={`score ${scoreClass(score, bands)}`}
      role="img"
      aria-label={score == null ? t('calls.noScore') : t('calls.scoreOf', { score: formatScore(score, locale) })}
    >
      {formatScore(score, locale)}
    </span>
  );
}

export function DirectionLabel({ direction }: { direction: 'INBOUND' | 'OUTBOUND' | null | undefined }) {
  const { t } = useT();
  if (!direction) return <span className="muted">—</span>;
  return (
    <span className="row nowrap" style={{ gap: 5 }}>
      <Icon name={direction === 'INBOUND' ? 'arrowIn' : 'arrowOut'} size={14} style={{ color: 'var(--text-3)' }} />
      {t(direction === 'INBOUND' ? 'direction.inbound' : 'direction.outbound')}
    </span>
  );
}

/** "billing_issue" → "Billing issue" when the template label is not at hand. */
export function humanizeKey(key: string): string {
  const s = key.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function useLanguageName() {
  const { locale } = useT();
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'language' });
  } catch {
    names = null;
  }
  return (code: string | null | undefined): string => {
    if (!code) return '—';
    const n = names?.of(code);
    return n ? n.charAt(0).toLocaleUpperCase(locale) + n.slice(1) : code;
  };
}

/** The languages the intake accepts (src/domain/languages.ts), for pickers. */
export const LANGUAGE_CODES =
  'es en ca gl eu pt fr de it nl ar zh ru ja ko pl ro tr uk sv no da fi cs el hu he hi id th vi bg hr sk sr fa ur ms ta'.split(
    ' ',
  );

/** The title of a call: the customer when known, else its file name. */
export function callTitle(c: {
  customerName?: string | null;
  customerPhone?: string | null;
  fileName?: string | null;
}): string {
  return c.customerName || c.customerPhone || c.fileName || '—';
}
