import { CallGone } from '../components/call-gone.tsx';
import { SetUpFirst } from '../components/link-button.tsx';
import { CallPlayer } from '../components/call-player.tsx';
import { DeleteCallButton, RetentionNotice } from '../components/data-protection.tsx';
import { SpeakersNotice } from '../components/speakers.tsx';
import { RedactedText, RedactionNotice } from '../components/redacted.tsx';
import { SentimentCard } from '../components/sentiment.tsx';
import { TermList, type Term } from '../components/term-list.tsx';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useCallAudio } from '../lib/call-audio.ts';
import { useMutation, useQuery, useSubscription } from 'urql';
import {
  callTitle,
  DirectionLabel,
  humanizeKey,
  scoreColor,
  StatusBadge,
  useFailureText,
  useLanguageName,
  useScoreBands,
} from '../components/call-bits.tsx';
import { ScoreRing, TalkBar } from '../components/charts.tsx';
import { neighbours, recallCallList } from '../lib/call-nav.ts';
import { useDocumentTitle } from '../lib/page-title.ts';
import { Icon } from '../components/Icon.tsx';
import { historyDetail } from '../lib/history-detail.ts';
import { QaScoreNote } from '../components/qa-badges.tsx';
import { DeliveryBadge, useAttemptsText } from '../components/delivery.tsx';
import { Alert, Badge, Button, Card, LoadingBlock } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import {
  durationBetween,
  formatBytes,
  formatClock,
  formatDuration,
  formatNumber,
  formatPercent,
  formatScore,
  formatStep,
} from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { Link, useLocation } from '../lib/router.tsx';
import { useFormat } from '../lib/format.ts';
import { useOutcomeToast, useRedeliver } from '../lib/mutations.ts';
import { keyMoments } from '../lib/segments.ts';
import { ReviewPanel } from '../components/review/ReviewPanel.tsx';
import { CriterionItem } from '../components/review/Criteria.tsx';
import { Transcript } from '../components/transcript.tsx';
import { CallCoaching } from '../components/coaching/CallCoaching.tsx';

const CallDetailQuery = graphql(`
  query CallDetail($id: ID!) {
    call(id: $id) {
      id status startedAt createdAt updatedAt analyzedAt durationSeconds direction language detectedLanguage
      score topic summary metrics failureReason failureDetail customerPhone customerName fileName fileSize contentType
      externalId source channels audioSnrDb audioQuality reservedMinutes usedMinutes period analysisRevision
      coverage needsReview languageMismatch comments { atSeconds }
      audioRedacted redactions { kind start end } diarized diarizationConfidence
      agent { id name telephonyCode }
      campaign { id name }
      template { id name deleted }
      transcript { start end speaker text channel guessed uncertainWords }
      sentiment { customerTrend agent { label score } customer { label score } segments { label score } }
      criteria {
        key label kind result points maxPoints critical lowConfidence reason reasonCode reasonParams evidence { quote start end speaker }
        autoResult reviewed reviewNote reviewedByName reviewedAt
      }
      events { status at detail }
      webhookCoverage { event endpoints forCampaign subscribed enabled }
      webhookDeliveries {
        id eventType eventId status attemptCount createdAt completedAt nextAttemptAt
        attempts { id at attemptNumber statusCode durationMs error manual responseExcerpt }
      }
    }
  }
`);

const CallLive = graphql(`
  subscription CallLive($id: ID) { callUpdated(id: $id) { id status score analysisRevision } }
`);

const Reanalyze = graphql(`
  mutation Reanalyze($id: ID!) {
    reanalyzeCall(id: $id) { __typename ... on Call { id status } ... on Error { code message } }
  }
`);

const Redeliver = graphql(`
  mutation Redeliver($deliveryId: ID!) {
    redeliverWebhook(deliveryId: $deliveryId) { __typename ... on WebhookAttempt { id statusCode error } ... on Error { code message } }
  }
`);

type CallData = NonNullable<ResultOf<typeof CallDetailQuery>['call']>;
type Segment = NonNullable<CallData['transcript']>[number];

/** Words of a web-search query worth highlighting (no operators, no excluded terms). */
export function searchTerms(q: string | null): string[] {
  if (!q) return [];
  const out: string[] = [];
  for (const m of q.matchAll(/(-?)"([^"]+)"|(-?)(\S+)/g)) {
    if (m[1] === '-' || m[3] === '-') continue;
    const term = (m[2] ?? m[4] ?? '').trim();
    if (!term || term.toLowerCase() === 'or') continue;
    out.push(term);
  }
  return out;
}

export function CallDetailPage({ id }: { id: string }) {
  const i18n = useT();
  const { t } = i18n;
  const { search } = useLocation();
  const terms = useMemo(() => searchTerms(new URLSearchParams(search).get('q')), [search]);
  const [{ data, error, fetching }, refetch] = useQuery({ query: CallDetailQuery, variables: { id } });
  const onLive = useCallback(() => {
    refetch({ requestPolicy: 'network-only' });
    return null;
  }, [refetch]);
  useSubscription({ query: CallLive, variables: { id } }, onLive);

  const audio = useCallAudio(id, { everyFrame: true });
  const { time, playing, audioDuration, seek } = audio;

  // Previous/next call of the list this call was opened from (same filters and search).
  const nav = useMemo(() => {
    const list = recallCallList();
    const n = neighbours(list?.ids ?? [], id);
    const q = new URLSearchParams(list?.search ?? '').get('q');
    const href = (other: string | null) => (other ? `/calls/${other}${q ? `?q=${encodeURIComponent(q)}` : ''}` : null);
    return { prev: href(n.prev), next: href(n.next) };
  }, [id]);
  useDocumentTitle(data?.call ? callTitle(data.call) : null);

  if (fetching && !data) return <LoadingBlock />;
  if (error && !data)
    return (
      <div className="page">
        <Alert tone="red">{describeError(i18n, error)}</Alert>
      </div>
    );
  const call = data?.call;
  if (!call) return <CallGone id={id} />;

  const segments = call.transcript ?? [];
  const duration = call.durationSeconds ?? audioDuration ?? (segments.length ? segments[segments.length - 1]!.end : 0);
  // The player's colours: agent and customer always, a third speaker and beeps only when the call has them.
  const legend = (
    [
      ['agent', 'speaker.agent', true],
      ['customer', 'speaker.customer', true],
      ['speaker', 'speaker.speaker', segments.some((s) => s.speaker === 'speaker')],
      ['redaction', 'redaction.legend', call.audioRedacted && call.redactions.length > 0],
    ] as const
  ).filter(([, , shown]) => shown);
  return (
    <div className="page">
      <CallHeader call={call} audioDuration={audioDuration} />
      <StatusAlerts call={call} />
      <RetentionNotice callId={call.id} />
      <RedactionNotice count={call.redactions.length} audio={call.audioRedacted} />
      <SpeakersNotice diarized={call.diarized} confidence={call.diarizationConfidence} />
      <CallPlayer
        call={call}
        audio={audio}
        nav={nav}
        duration={duration}
        segments={segments}
        // Only a redacted recording has beeps where the spans are; text-only redaction left the audio as it was.
        redactions={call.audioRedacted ? call.redactions : []}
      >
        <div className="legend">
          {legend.map(([colour, label]) => (
            <span key={colour}>
              <i className={colour} />
              {t(label)}
            </span>
          ))}
        </div>
      </CallPlayer>
      {/* The verdict first (issue 26): at 960 px the score and the criteria open the page, above
          the transcript; on a wide screen they sit beside it. */}
      <div className="detail-grid">
        <div className="stack detail-verdict">
          <ScoreCard call={call} onSeek={seek} />
          <ReviewPanel
            callId={call.id}
            time={time}
            onSeek={seek}
            onChanged={() => refetch({ requestPolicy: 'network-only' })}
          />
          <CallCoaching callId={call.id} time={time} onSeek={seek} />
        </div>
        <div className="stack detail-main">
          <Transcript
            segments={segments}
            time={time}
            playing={playing}
            onSeek={seek}
            terms={terms}
            status={call.status}
            sentiments={call.sentiment?.segments}
          />
          {(call.summary || call.topic) && (
            <Card title={t('callDetail.summary')} description={call.summary ? t('callDetail.summaryHint') : undefined}>
              <div className="stack-sm">
                {call.topic && (
                  <div className="row">
                    <span className="muted small">{t('calls.col.topic')}</span>
                    <Badge tone="accent">{humanizeKey(call.topic)}</Badge>
                  </div>
                )}
                {call.summary && <KeyMoments summary={call.summary} segments={segments} onSeek={seek} />}
              </div>
            </Card>
          )}
          {call.metrics && <MetricsCard metrics={call.metrics} duration={duration} />}
          {call.sentiment && <SentimentCard sentiment={call.sentiment} />}
        </div>
        <div className="stack detail-side">
          <MetadataCard call={call} />
          <HistoryCard call={call} />
          <WebhooksCard call={call} onChanged={() => refetch({ requestPolicy: 'network-only' })} />
        </div>
      </div>
    </div>
  );
}

function CallHeader({ call, audioDuration }: { call: CallData; audioDuration: number | null }) {
  const { t } = useT();
  const fmt = useFormat();
  const role = useRole();
  const report = useOutcomeToast();
  const [{ fetching }, reanalyze] = useMutation(Reanalyze);
  const canReanalyze = roleAtLeast(role, 'ANALYST') && (call.status === 'ANALYZED' || call.status === 'TRANSCRIBED');
  const run = async () => {
    report(outcome(await reanalyze({ id: call.id }), 'reanalyzeCall'), t('callDetail.reanalyzeQueued'));
  };
  return (
    <header className="page-header" style={{ alignItems: 'flex-start' }}>
      <div style={{ minWidth: 0 }}>
        <Link to="/calls" className="breadcrumb">
          <Icon name="chevronLeft" size={14} /> {t('nav.calls')}
        </Link>
        <div className="call-title">
          <h1 className="truncate call-h1">{callTitle(call)}</h1>
          <StatusBadge status={call.status} />
        </div>
        <div className="call-meta">
          <span>
            <Icon name="user" size={14} />
            {call.agent.name}
          </span>
          {call.campaign && (
            <span>
              <Icon name="flag" size={14} />
              {call.campaign.name}
            </span>
          )}
          <span title={t('format.timeZone', { zone: fmt.zone() })}>
            <Icon name="calendar" size={14} />
            {fmt.dateTime(call.startedAt)}
            <span className="muted small">{fmt.zone()}</span>
          </span>
          <span>
            <Icon name="clock" size={14} />
            {/* A failed call has no measured duration, but its audio may still say how long it is. */}
            {fmt.duration(call.durationSeconds ?? audioDuration)}
          </span>
          <DirectionLabel direction={call.direction} />
        </div>
      </div>
      <div className="page-actions">
        <a className="btn" href={`/api/calls/${encodeURIComponent(call.id)}/recording`} download={call.fileName}>
          <Icon name="download" /> {t('callDetail.download')}
        </a>
        {canReanalyze && (
          <Button icon="refresh" onClick={run} loading={fetching} data-testid="reanalyze">
            {t('callDetail.reanalyze')}
          </Button>
        )}
        <DeleteCallButton callId={call.id} />
      </div>
    </header>
  );
}

function StatusAlerts({ call }: { call: CallData }) {
  const { t } = useT();
  const failureText = useFailureText();
  let content: ReactNode = null;
  if (call.status === 'FAILED')
    content = (
      <Alert tone="red" title={failureText(call.failureReason, call.failureDetail)}>
        {t('callDetail.failedBody')}
      </Alert>
    );
  else if (call.status === 'TRANSCRIBED')
    content = (
      <SetUpFirst page="templates" title={t('callDetail.notAnalyzedTitle')}>
        {t('callDetail.notAnalyzedBody')}
      </SetUpFirst>
    );
  else if (call.status === 'QUEUED' || call.status === 'TRANSCRIBING' || call.status === 'ANALYZING')
    content = (
      <Alert tone="blue" icon="clock" title={t(`status.${call.status}` as MessageKey)}>
        {t('callDetail.inProgressBody')}
      </Alert>
    );
  return content ? <div style={{ marginBottom: 16 }}>{content}</div> : null;
}

function ScoreCard({ call, onSeek }: { call: CallData; onSeek: (s: number) => void }) {
  const { t, locale } = useT();
  const bands = useScoreBands();
  const criteria = call.criteria ?? [];
  if (!criteria.length && call.score == null) {
    if (call.status !== 'ANALYZED') return null;
  }
  const points = criteria.reduce((s, c) => s + c.points, 0);
  const max = criteria.reduce((s, c) => s + c.maxPoints, 0);
  const criticalFailed = criteria.some((c) => c.critical && c.result === 'FAILED');
  const passed = criteria.filter((c) => c.result === 'PASSED').length;
  const color = scoreColor(call.score, bands);
  return (
    <Card
      title={t('callDetail.score')}
      description={call.template ? t('callDetail.withTemplate', { name: call.template.name }) : undefined}
      bodyClass="tight"
    >
      <div className="card-body">
        <div className="score-hero">
          <div className="score-ring">
            <ScoreRing score={call.score ?? null} color={color} />
            <div className="val" data-testid="score">
              {formatScore(call.score, locale)}
            </div>
          </div>
          <div className="stack-sm" style={{ gap: 4 }}>
            <div className="strong">
              {t('callDetail.pointsOf', { points: formatNumber(points, locale, 1), max: formatNumber(max, locale, 1) })}
            </div>
            <div className="muted small">{t('callDetail.criteriaPassed', { passed, total: criteria.length })}</div>
            {criticalFailed && (
              <Badge tone="red" wrap>
                <Icon name="alert" size={12} /> {t('callDetail.criticalFailed')}
              </Badge>
            )}
            <QaScoreNote {...call} />
          </div>
        </div>
      </div>
      <ul className="criteria" data-testid="criteria">
        {criteria.map((c) => (
          <CriterionItem key={c.key} c={c} onSeek={onSeek} />
        ))}
      </ul>
    </Card>
  );
}

type Metrics = {
  duration_seconds?: number;
  speech_seconds?: number;
  agent_talk_seconds?: number | null;
  customer_talk_seconds?: number | null;
  talk_ratio?: number | null;
  silence_ratio?: number | null;
  longest_silence_seconds?: number;
  interruptions?: number | null;
  words_per_minute?: number | null;
  agent_words_per_minute?: number | null;
  customer_words_per_minute?: number | null;
};

function MetricsCard({ metrics: raw, duration }: { metrics: unknown; duration: number }) {
  const { t, locale } = useT();
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Metrics;
  const d = m.duration_seconds ?? duration;
  const rows: Term[] = [
    ['metrics.talkRatio', formatPercent(m.talk_ratio, locale)],
    ['metrics.silenceRatio', formatPercent(m.silence_ratio, locale)],
    ['metrics.longestSilence', formatDuration(m.longest_silence_seconds, locale)],
    ['metrics.interruptions', formatNumber(m.interruptions, locale)],
    [
      'metrics.agentPace',
      m.agent_words_per_minute != null
        ? t('metrics.wpm', { n: formatNumber(m.agent_words_per_minute, locale) })
        : m.words_per_minute != null
          ? t('metrics.wpm', { n: formatNumber(m.words_per_minute, locale) })
          : '—',
    ],
    [
      'metrics.customerPace',
      m.customer_words_per_minute != null
        ? t('metrics.wpm', { n: formatNumber(m.customer_words_per_minute, locale) })
        : '—',
    ],
  ];
  return (
    <Card title={t('callDetail.metrics')}>
      <TalkBar
        split={{
          agent: m.agent_talk_seconds ?? null,
          customer: m.customer_talk_seconds ?? null,
          speech: m.speech_seconds ?? 0,
          duration: d,
        }}
      />
      <TermList kind="metrics" terms={rows} />
    </Card>
  );
}

const AUDIO_QUALITY = {
  GOOD: 'meta.audioQuality.good',
  FAIR: 'meta.audioQuality.fair',
  POOR: 'meta.audioQuality.poor',
} as const satisfies Record<string, MessageKey>;

function MetadataCard({ call }: { call: CallData }) {
  const { t, locale } = useT();
  const fmt = useFormat();
  const langName = useLanguageName();
  const items: Term[] = [
    ['meta.externalId', call.externalId ? <code key="externalId">{call.externalId}</code> : '—'],
    ['meta.customerPhone', call.customerPhone ?? '—'],
    ['meta.customerName', call.customerName ?? '—'],
    ['meta.agentCode', call.agent.telephonyCode ?? '—'],
    [
      'meta.language',
      call.language
        ? `${langName(call.language)}${call.detectedLanguage && call.detectedLanguage !== call.language ? ` (${t('meta.detected')}: ${langName(call.detectedLanguage)})` : ''}`
        : langName(call.detectedLanguage),
    ],
    ['meta.channels', call.channels == null ? '—' : call.channels >= 2 ? t('meta.stereo') : t('meta.mono')],
    [
      'meta.audioQuality',
      call.audioQuality && call.audioSnrDb != null ? (
        <span key="audioQuality" title={t('meta.audioQualityHint')} data-testid="audio-quality">
          {t('meta.audioQualityValue', {
            quality: t(AUDIO_QUALITY[call.audioQuality]),
            db: formatNumber(call.audioSnrDb, locale, 0),
          })}
        </span>
      ) : (
        '—'
      ),
    ],
    [
      'meta.file',
      <span key="file" className="truncate" style={{ display: 'block' }} title={call.fileName}>
        {call.fileName}
      </span>,
    ],
    ['meta.size', `${formatBytes(call.fileSize, locale)} · ${call.contentType}`],
    ['meta.source', t(call.source === 'API' ? 'meta.sourceApi' : 'meta.sourceUpload')],
    [
      'meta.minutes',
      call.usedMinutes != null
        ? t('meta.minutesUsed', { n: call.usedMinutes })
        : t('meta.minutesReserved', { n: call.reservedMinutes }),
    ],
    [
      'meta.template',
      call.template ? `${call.template.name}${call.template.deleted ? ` (${t('templates.deleted')})` : ''}` : '—',
    ],
    ['meta.received', fmt.dateTime(call.createdAt)],
  ];
  return (
    <Card title={t('callDetail.details')}>
      <TermList kind="details" terms={items} />
    </Card>
  );
}

const TERMINAL = new Set(['ANALYZED', 'TRANSCRIBED', 'FAILED']);

/** Index of the first event of the latest processing run (the one after the last finished run). */
export function latestRunStart(events: readonly { status: string }[]): number {
  for (let i = events.length - 2; i >= 0; i--) if (TERMINAL.has(events[i]!.status)) return i + 1;
  return 0;
}

function HistoryCard({ call }: { call: CallData }) {
  const { t, locale } = useT();
  const fmt = useFormat();
  const events = call.events;
  // The latest run only: after a re-analysis, first-to-last would count the days in between.
  const runStart = latestRunStart(events);
  const total =
    events.length - runStart > 1 ? durationBetween(events[runStart]!.at, events[events.length - 1]!.at) : null;
  return (
    <Card
      title={t('callDetail.history')}
      description={total != null ? t('callDetail.totalTime', { time: formatStep(total, locale) }) : undefined}
    >
      <ol className="timeline" data-testid="history">
        {events.map((e, i) => {
          const next = events[i + 1];
          const step = next ? durationBetween(e.at, next.at) : null;
          const node =
            e.status === 'FAILED' ? 'failed' : e.status === 'ANALYZED' || e.status === 'TRANSCRIBED' ? 'done' : '';
          return (
            <li key={i}>
              <span className={`node ${node}`} aria-hidden="true" />
              <div>
                <div className="strong">{t(`status.${e.status}` as MessageKey)}</div>
                <div className="muted small">
                  {fmt.dateTime(e.at, { dateStyle: 'medium', timeStyle: 'medium' })}
                  {e.detail ? ` · ${historyDetail(e.detail, t)}` : ''}
                </div>
              </div>
              <span className="muted small num" title={t('callDetail.stepDuration')}>
                {step != null ? fmt.step(step) : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

function WebhooksCard({ call, onChanged }: { call: CallData; onChanged: () => void }) {
  const { t } = useT();
  const fmt = useFormat();
  const attempts = useAttemptsText();
  const role = useRole();
  const [, redeliver] = useMutation(Redeliver);
  const { busy, run } = useRedeliver(
    async (deliveryId) => outcome(await redeliver({ deliveryId }), 'redeliverWebhook'),
    onChanged,
  );
  const deliveries = call.webhookDeliveries;
  return (
    <Card title={t('callDetail.webhooks')} bodyClass={deliveries.length ? 'tight' : undefined}>
      {deliveries.length === 0 ? (
        <NoDeliveriesNote call={call} />
      ) : (
        <ul className="criteria">
          {deliveries.map((d) => {
            const last = d.attempts[d.attempts.length - 1];
            return (
              <li
                key={d.id}
                className="criterion"
                style={{ borderTop: 'none', borderBottom: '1px solid var(--border)' }}
              >
                <div className="row-wrap">
                  <DeliveryBadge status={d.status} attemptCount={d.attemptCount} />
                  <code>{d.eventType}</code>
                  <span className="spacer" />
                  {roleAtLeast(role, 'ADMIN') && (
                    <Button size="sm" icon="send" loading={busy === d.id} onClick={() => run(d.id)}>
                      {t('webhook.redeliver')}
                    </Button>
                  )}
                </div>
                <div className="muted small" style={{ marginTop: 6 }}>
                  {fmt.dateTime(d.createdAt)} · {attempts(d.attemptCount)}
                  {last
                    ? ` · ${last.statusCode != null ? `HTTP ${last.statusCode}` : (last.error ?? '')} · ${fmt.step(last.durationMs)}`
                    : ''}
                  {d.nextAttemptAt && d.status === 'PENDING'
                    ? ` · ${t('webhook.nextAttempt', { at: fmt.dateTime(d.nextAttemptAt) })}`
                    : ''}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/**
 * Why the call has no delivery, said as it is (issue 26): "set a webhook" only to an account that has
 * none; otherwise the event the call sends and what keeps the endpoints from receiving it.
 */
function NoDeliveriesNote({ call }: { call: CallData }) {
  const { t } = useT();
  const c = call.webhookCoverage;
  if (!c || c.endpoints === 0) return <p className="muted small">{t('callDetail.noWebhooks')}</p>;
  const event = c.event ?? '';
  const [text, fix]: [string, MessageKey | null] = !c.event
    ? [t(call.status === 'TRANSCRIBED' ? 'callDetail.webhookNotAnalyzed' : 'callDetail.webhookProcessing'), null]
    : c.forCampaign === 0
      ? [t('callDetail.webhookOtherCampaigns', { n: c.endpoints }), 'callDetail.webhookChange']
      : c.subscribed === 0
        ? [t('callDetail.webhookNotSubscribed', { event, n: c.endpoints }), 'callDetail.webhookSubscribe']
        : c.enabled === 0
          ? [t('callDetail.webhookDisabled', { event }), 'callDetail.webhookEnable']
          : [t('callDetail.webhookNoneSent', { event }), null];
  return (
    <p className="muted small" data-testid="webhook-note">
      {text}
      {fix && (
        <>
          {' '}
          <Link to="/integrations">{t(fix)}</Link>
        </>
      )}
    </p>
  );
}

/** Moments of the call, each with who said it and when; a click plays from there. */
function KeyMoments({
  summary,
  segments,
  onSeek,
}: {
  summary: string;
  segments: Segment[];
  onSeek: (s: number) => void;
}) {
  const { t } = useT();
  const moments = useMemo(() => keyMoments(summary, segments), [summary, segments]);
  if (!moments) return <p className="summary">{summary}</p>;
  return (
    <ul className="key-moments" data-testid="key-moments">
      {moments.map((m, i) => (
        <li key={i}>
          <button type="button" className="key-moment" onClick={() => onSeek(m.start)}>
            <span className="num muted small">{formatClock(m.start)}</span>
            <span className={`small strong speaker-${m.speaker}`}>
              {m.speaker === 'agent'
                ? t('speaker.agent')
                : m.speaker === 'customer'
                  ? t('speaker.customer')
                  : t('speaker.speaker')}
            </span>
            {/* Redacted words as the transcript shows them: a labelled chip, not "[CARD_NUMBER]". */}
            <span className="key-moment-text">
              <RedactedText text={m.text} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
