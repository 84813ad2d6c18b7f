/**
 * A scored criterion as every role sees it (issue 26): its result and points, the "critical" label,
 * why it failed (expected phrase, window, what was heard and when) even when it has a quote, the
 * quotes that play from their moment, and, when a person changed it, who, when, their note in full
 * and the automatic result beside it. The managers' call page and the agent's page both draw it, so
 * the same call reads the same to both.
 */
import type { ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n/index.tsx';
import { criterionReason } from '../../lib/criterion-reason.ts';
import { formatClock, formatNumber, useFormat } from '../../lib/format.ts';
import { Icon } from '../Icon.tsx';
import { Badge } from '../ui.tsx';
import { type Outcome, outcomeKey } from './outcomes.ts';

export interface CriterionView {
  key: string;
  label: string;
  kind: string;
  result: Outcome;
  points: number;
  maxPoints: number;
  critical: boolean;
  lowConfidence?: boolean | null;
  reason?: string | null;
  reasonCode?: string | null;
  reasonParams?: unknown;
  evidence: readonly { quote: string; start: number }[];
  autoResult?: Outcome | null;
  reviewed?: boolean | null;
  reviewNote?: string | null;
  reviewedByName?: string | null;
  reviewedAt?: string | null;
}

/** The automatic reason is worth reading unless a passed result's quote already says it. */
export function showsReason(c: CriterionView): boolean {
  return !!c.reason && (c.result !== 'PASSED' || c.evidence.length === 0 || !!c.reviewed);
}

/**
 * A criterion's first line: its result as an icon (and in words for screen readers), its label with
 * what follows it (`children`: badges), and its points.
 */
export function CriterionHead({
  c,
  pointsTitle,
  children,
}: {
  c: Pick<CriterionView, 'label' | 'result' | 'points' | 'maxPoints'>;
  pointsTitle?: string;
  children?: ReactNode;
}) {
  const { t, locale } = useT();
  return (
    <div className="criterion-head">
      <span className={`result-icon ${c.result.toLowerCase()}`} aria-hidden="true">
        <Icon name={c.result === 'PASSED' ? 'check' : c.result === 'FAILED' ? 'x' : 'minus'} size={12} />
      </span>
      <span className="label">
        {c.label}
        <span className="sr-only"> — {t(`result.${c.result}` as MessageKey)}</span>
        {children}
      </span>
      <span className="points" title={pointsTitle}>
        {c.result === 'NA'
          ? t('result.NA')
          : `${formatNumber(c.points, locale, 1)} / ${formatNumber(c.maxPoints, locale, 1)}`}
      </span>
    </div>
  );
}

/**
 * Who changed a criterion's result, when and to what (`lineClass` styles that line), then their
 * note in full.
 */
export function ReviewedBy({
  c,
  lineClass,
}: {
  c: Pick<CriterionView, 'result' | 'reviewNote' | 'reviewedByName' | 'reviewedAt'>;
  lineClass?: string;
}) {
  const { t } = useT();
  const fmt = useFormat();
  return (
    <>
      <div className={lineClass}>
        {t('criterion.reviewedBy', {
          name: c.reviewedByName ?? '—',
          when: fmt.dateTime(c.reviewedAt),
          result: t(outcomeKey(c.result)),
        })}
      </div>
      {c.reviewNote && <blockquote className="review-note">{c.reviewNote}</blockquote>}
    </>
  );
}

export function CriterionItem({
  c,
  onSeek,
  children,
  rowRef,
}: {
  c: CriterionView;
  onSeek: (seconds: number) => void;
  /** Below the evidence: the agent's Dispute button and form. */
  children?: ReactNode;
  /** The row itself, focusable, for focus to come back to after a form in it closes. */
  rowRef?: (el: HTMLLIElement | null) => void;
}) {
  const { t, locale } = useT();
  const reason = showsReason(c) ? criterionReason(c, t, locale) : null;
  const zeroed = c.critical && c.result === 'FAILED';
  return (
    <li
      className="criterion"
      data-testid="criterion"
      data-key={c.key}
      data-result={c.result}
      data-reviewed={c.reviewed ? 'true' : undefined}
      ref={rowRef}
      tabIndex={rowRef ? -1 : undefined}
    >
      <CriterionHead c={c} pointsTitle={t(`kind.${c.kind}` as MessageKey)}>
        {c.critical && (
          <>
            {' '}
            <Badge tone="red">{t('templates.critical')}</Badge>
          </>
        )}
        {c.reviewed && (
          <>
            {' '}
            <Badge tone="blue">
              <Icon name="check" size={12} /> {t('qa.reviewed')}
            </Badge>
          </>
        )}
        {c.lowConfidence && (
          <>
            {' '}
            <span title={t('criterion.lowConfidenceHint')} data-testid="low-confidence">
              <Badge tone="amber">{t('review.reason.low_confidence')}</Badge>
            </span>
          </>
        )}
      </CriterionHead>
      {zeroed && (
        <p className="reason reason-critical" data-testid="criterion-critical">
          {t('criterion.criticalZeroed')}
        </p>
      )}
      {c.reviewed && (
        <div className="criterion-review" data-testid="criterion-review">
          <ReviewedBy c={c} />
        </div>
      )}
      {(reason || c.reviewed) && (
        <p className="reason" data-testid="criterion-reason">
          {c.reviewed
            ? t(reason ? 'criterion.automaticWas' : 'criterion.automaticWasBare', {
                result: t(outcomeKey(c.autoResult ?? c.result)),
                reason: reason ?? '',
              })
            : reason}
        </p>
      )}
      {c.evidence.length > 0 && (
        <div className="evidence">
          {c.evidence.map((e, i) => (
            <button
              key={i}
              type="button"
              onClick={() => onSeek(e.start)}
              aria-label={t('callDetail.playEvidence', { time: formatClock(e.start), quote: e.quote })}
              data-testid="evidence"
            >
              <span className="t">{formatClock(e.start)}</span>
              <span>“{e.quote}”</span>
            </button>
          ))}
        </div>
      )}
      {children}
    </li>
  );
}
