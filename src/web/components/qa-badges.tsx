/**
 * How honest a score is (issue 10.2): coverage next to the score, so a score computed over half the
 * template's weight never looks complete, and the "needs review" / "language mismatch" flags.
 * Shared by the calls list, the call page and the review queue.
 */
import { useT } from '../i18n/index.tsx';
import { formatPercent, formatScore, useFormat } from '../lib/format.ts';
import { ScorePill, scoreClass, useScoreBands } from './call-bits.tsx';
import { Icon, type IconName } from './Icon.tsx';
import { Badge, type Tone } from './ui.tsx';

export interface QaFlags {
  score?: number | null;
  coverage?: number | null;
  needsReview?: boolean | null;
  languageMismatch?: boolean | null;
  /** A critical criterion failed (the score is 0 for that reason). */
  criticalFailed?: boolean | null;
  /** A person reviewed the score (an override): when. */
  reviewedAt?: string | null;
}

/** Coverage below this counts as partial (floating error aside, 1 means the whole weight). */
const isPartial = (coverage: number | null | undefined) => coverage != null && coverage < 0.999;

/** One flag of a score as a badge: its icon and short text, with the long explanation as its tooltip. */
function FlagBadge({ tone, icon, label, title }: { tone: Tone; icon: IconName; label: string; title?: string }) {
  return (
    <Badge tone={tone} title={title}>
      <Icon name={icon} size={12} /> <span className="qa-flag-text">{label}</span>
    </Badge>
  );
}

/** The flags of a call as badges (nothing when none holds). */
export function QaBadges({ needsReview, languageMismatch }: QaFlags) {
  const { t } = useT();
  if (!needsReview && !languageMismatch) return null;
  return (
    <span className="qa-badges" data-testid="qa-badges">
      {needsReview && <FlagBadge tone="amber" icon="eye" label={t('qa.needsReview')} title={t('qa.needsReviewHint')} />}
      {languageMismatch && (
        <FlagBadge tone="blue" icon="globe" label={t('qa.languageMismatch')} title={t('qa.languageMismatchHint')} />
      )}
    </span>
  );
}

/**
 * The list's score cell: the score pill, hatched and followed by "50 % evaluated" when only part of
 * the template's weight was evaluated, and the flags.
 */
export function QaScore(p: QaFlags) {
  const { t, locale } = useT();
  const bands = useScoreBands();
  const partial = isPartial(p.coverage);
  return (
    <span className="qa-score" data-testid="qa-score" data-coverage={p.coverage ?? ''}>
      {/* A critical fail reads as one at any coverage: its 0 comes from the rule, not from the points. */}
      {partial && p.score != null && !p.criticalFailed ? (
        <span
          className={`score ${scoreClass(p.score, bands)} score-partial`}
          role="img"
          aria-label={t('qa.scorePartial', {
            score: formatScore(p.score, locale),
            pct: formatPercent(p.coverage, locale),
          })}
          title={t('qa.partialHint', { pct: formatPercent(p.coverage, locale) })}
        >
          {formatScore(p.score, locale)}
        </span>
      ) : (
        <ScorePill score={p.score} criticalFailed={p.criticalFailed} />
      )}
      {partial && (
        <span className="qa-coverage" aria-hidden="true">
          {t('qa.evaluated', { pct: formatPercent(p.coverage, locale) })}
        </span>
      )}
      {p.reviewedAt && <ReviewedBadge at={p.reviewedAt} />}
      <QaBadges needsReview={p.needsReview} languageMismatch={p.languageMismatch} />
    </span>
  );
}

/** "Reviewed": a person changed this score; the tooltip says when. */
export function ReviewedBadge({ at }: { at?: string | null }) {
  const { t } = useT();
  const fmt = useFormat();
  return (
    <FlagBadge
      tone="blue"
      icon="check"
      label={t('qa.reviewed')}
      title={at ? t('qa.reviewedAt', { when: fmt.dateTime(at) }) : undefined}
    />
  );
}

/** The call page's line under the score: coverage in words and the flags. */
export function QaScoreNote(p: QaFlags) {
  const { t, locale } = useT();
  if (p.coverage == null && !p.needsReview && !p.languageMismatch) return null;
  const partial = isPartial(p.coverage);
  return (
    <div className="stack-sm" data-testid="qa-note">
      {p.coverage != null && (
        <div className={partial ? 'qa-coverage-line partial' : 'qa-coverage-line muted small'}>
          {partial ? t('qa.partialHint', { pct: formatPercent(p.coverage, locale) }) : t('qa.fullyEvaluated')}
        </div>
      )}
      <QaBadges needsReview={p.needsReview} languageMismatch={p.languageMismatch} />
    </div>
  );
}
