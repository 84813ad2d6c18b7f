/**
 * The transcript card: one button per line that plays from its moment, the playing line marked and
 * kept in view, searched words highlighted, redactions as chips and unsure words underlined. The
 * managers' call page and the agent's page show the same one (issue 26: agents see the same evidence).
 */
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { formatClock } from '../lib/format.ts';
import { segmentAtTime } from '../lib/segments.ts';
import { TranscriptText } from './redacted.tsx';
import { SentimentTag, type SentimentReading } from './sentiment.tsx';
import { Card, EmptyState } from './ui.tsx';

export interface TranscriptSegment {
  start: number;
  end: number;
  speaker: string;
  text: string;
  uncertainWords?: readonly number[] | null;
  /** The recogniser's forced guess at a turn it heard no words in (loud babble); empty text when it had none. */
  guessed?: boolean | null;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

function Highlight({ text, terms }: { text: string; terms: string[] }) {
  if (!terms.length) return <>{text}</>;
  const folded = fold(text);
  // Folding can change lengths only for rare characters; when it does, skip highlighting.
  if (folded.length !== text.length) return <>{text}</>;
  const marks: [number, number][] = [];
  for (const term of terms.map(fold)) {
    let i = folded.indexOf(term);
    while (i !== -1 && term) {
      marks.push([i, i + term.length]);
      i = folded.indexOf(term, i + term.length);
    }
  }
  if (!marks.length) return <>{text}</>;
  marks.sort((a, b) => a[0] - b[0]);
  const parts: ReactNode[] = [];
  let at = 0;
  marks.forEach(([s, e], k) => {
    if (s < at) return;
    parts.push(
      text.slice(at, s),
      <mark key={k} className="hl">
        {text.slice(s, e)}
      </mark>,
    );
    at = e;
  });
  parts.push(text.slice(at));
  return <>{parts}</>;
}

export function Transcript({
  segments,
  time,
  playing,
  onSeek,
  terms = [],
  status,
  sentiments,
}: {
  segments: readonly TranscriptSegment[];
  /** Parallel to `segments`; absent until analyzed. */
  sentiments?: SentimentReading[];
  time: number;
  playing: boolean;
  onSeek: (s: number) => void;
  terms?: string[];
  status: string;
}) {
  const { t } = useT();
  const active = useMemo(() => segmentAtTime(segments, time), [segments, time]);
  const box = useRef<HTMLDivElement>(null);
  // Keep the playing segment in view inside the transcript box (never scrolls the page).
  useEffect(() => {
    if (!playing || active < 0 || !box.current) return;
    const el = box.current.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (!el) return;
    const b = box.current;
    const top = el.offsetTop - b.offsetTop;
    if (top < b.scrollTop || top + el.offsetHeight > b.scrollTop + b.clientHeight)
      b.scrollTop = Math.max(0, top - b.clientHeight / 3);
  }, [active, playing]);
  const speakerKey = (s: string): MessageKey =>
    s === 'agent' ? 'speaker.agent' : s === 'customer' ? 'speaker.customer' : 'speaker.speaker';
  return (
    <Card
      title={t('callDetail.transcript')}
      description={segments.length ? t('callDetail.transcriptHint') : undefined}
      bodyClass="tight"
    >
      {segments.length === 0 ? (
        <EmptyState
          icon="mic"
          title={status === 'FAILED' ? t('callDetail.noTranscriptFailed') : t('callDetail.noTranscriptYet')}
        >
          {status === 'FAILED' ? t('callDetail.noTranscriptFailedBody') : t('callDetail.noTranscriptYetBody')}
        </EmptyState>
      ) : (
        <div className="transcript" ref={box} data-testid="transcript">
          {segments.map((s, i) => {
            const mood = sentiments?.[i];
            const tinted = mood && mood.label !== 'NEUTRAL';
            return (
              <button
                key={i}
                type="button"
                className={tinted ? `seg-row sent-${mood.label.toLowerCase()}` : 'seg-row'}
                data-index={i}
                data-start={s.start}
                aria-current={i === active ? 'true' : undefined}
                onClick={() => onSeek(s.start)}
                data-testid="segment"
              >
                <span className="t">{formatClock(s.start)}</span>
                <span className={`who ${s.speaker}`}>{t(speakerKey(s.speaker))}</span>
                <span>
                  {s.guessed && (
                    <em className="seg-guessed" data-testid="segment-guessed">
                      {t(s.text ? 'transcript.guessed' : 'transcript.unheard')}
                    </em>
                  )}
                  {s.guessed && !s.text ? null : s.text.includes('[') || (s.uncertainWords?.length ?? 0) > 0 ? (
                    <TranscriptText text={s.text} uncertain={s.uncertainWords ?? []} />
                  ) : (
                    <Highlight text={s.text} terms={terms} />
                  )}
                  {tinted && (
                    <span className="seg-sentiment">
                      <SentimentTag reading={mood} />
                    </span>
                  )}
                </span>
              </button>
            );
          })}
        </div>
      )}
    </Card>
  );
}
