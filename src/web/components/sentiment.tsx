// Sentiment on the call page (issue 14): a tag on each transcript line that is not neutral, and a
// card with each speaker's overall reading and the customer's trend. The label is always written
// out, so colour is never the only cue.
import { useT, type MessageKey } from '../i18n/index.tsx';
import { Badge, Card, type Tone } from './ui.tsx';
import { TermList } from './term-list.tsx';

export type SentimentLabel = 'NEGATIVE' | 'NEUTRAL' | 'POSITIVE';
export interface SentimentReading {
  label: SentimentLabel;
  score: number;
}
export interface CallSentimentData {
  agent: SentimentReading | null;
  customer: SentimentReading | null;
  customerTrend: number | null;
  segments: SentimentReading[];
}

const TONE: Record<SentimentLabel, Tone> = { NEGATIVE: 'red', NEUTRAL: 'gray', POSITIVE: 'green' };
const LABEL: Record<SentimentLabel, MessageKey> = {
  NEGATIVE: 'sentiment.NEGATIVE',
  NEUTRAL: 'sentiment.NEUTRAL',
  POSITIVE: 'sentiment.POSITIVE',
};
/** A trend this small is "about the same", not a change. */
const FLAT_TREND = 0.1;

/** "+0.45" / "−0.45" in the UI's locale, with a true minus sign. */
export function signedScore(n: number, locale: string): string {
  const abs = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(n));
  return n > 0 ? `+${abs}` : n < 0 ? `−${abs}` : abs;
}

export function SentimentTag({ reading }: { reading: SentimentReading }) {
  const { t, locale } = useT();
  return (
    <Badge tone={TONE[reading.label]} title={t('sentiment.scoreTitle', { score: signedScore(reading.score, locale) })}>
      {t(LABEL[reading.label])}
    </Badge>
  );
}

function Reading({ reading }: { reading: SentimentReading | null }) {
  const { locale } = useT();
  if (!reading) return <>—</>;
  return (
    <span className="row" style={{ gap: 6 }}>
      <SentimentTag reading={reading} />
      <span className="muted small">{signedScore(reading.score, locale)}</span>
    </span>
  );
}

export function SentimentCard({ sentiment }: { sentiment: CallSentimentData }) {
  const { t, locale } = useT();
  const trend = sentiment.customerTrend;
  const trendKey: MessageKey =
    trend == null
      ? 'sentiment.trendUnknown'
      : trend >= FLAT_TREND
        ? 'sentiment.trendUp'
        : trend <= -FLAT_TREND
          ? 'sentiment.trendDown'
          : 'sentiment.trendFlat';
  const mono = sentiment.customer === null && sentiment.agent === null;
  return (
    <Card title={t('sentiment.title')} description={t('sentiment.hint')}>
      {mono ? (
        <p className="muted small">{t('sentiment.mono')}</p>
      ) : (
        <TermList
          kind="metrics"
          testId="sentiment"
          terms={[
            ['sentiment.customer', <Reading key="customer" reading={sentiment.customer} />],
            ['sentiment.agent', <Reading key="agent" reading={sentiment.agent} />],
            [
              'sentiment.trend',
              <>
                {t(trendKey)}
                {trend != null && <span className="muted small"> ({signedScore(trend, locale)})</span>}
              </>,
              'sentiment-trend',
            ],
          ]}
        />
      )}
    </Card>
  );
}
