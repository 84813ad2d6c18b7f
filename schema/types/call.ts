import { queryFromInfo } from '@pothos/plugin-prisma';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from '../graphql-js.ts';
import { builder, MAX_PAGE_SIZE } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import {
  Criteria,
  type CriterionResult,
  type Evidence,
  Metrics,
  parseColumn,
  type Segment,
  Segments,
} from '../../src/call-columns.ts';
import {
  callFilterOptions,
  type CallFilterOptions,
  COUNT_CAP,
  countCalls,
  SEARCH_COUNT_CAP,
  listCallPage,
  viewOf,
  type CallCount,
  type CallFilter as CallFilterShape,
  type CallSort,
} from '../../src/calls/calls-query.ts';
import { searchSnippets, type SearchSnippet } from '../../src/calls/calls-search.ts';
import { CUSTOMER_SENTIMENT_FILTERS, DISPUTE_OUTCOMES } from '../../src/calls/calls-filter.ts';
import { CHECKED_CHANGES, type CheckedChange } from '../../src/calls/calls-filter.ts';
import { assertNotBlind, blindCallsWhere, blindFilter } from '../../src/calibration/read.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { requestReanalysis } from '../../src/calls/reanalyze.ts';
import { callScope, scopeFilter } from '../../src/auth/call-scope.ts';
import { audioQuality } from '../../src/audio/snr.ts';
import { callWebhookCoverage, type CallWebhookCoverage } from '../../src/webhooks/call-coverage.ts';
import {
  accountIdOf,
  cachedRows,
  callViewerOf,
  directErrors,
  parseUuid,
  sessionOf,
  byId,
  uuidOrNull,
} from './common.ts';

const WebhookCoverageRef = builder.objectRef<CallWebhookCoverage>('CallWebhookCoverage').implement({
  fields: (t) => ({
    event: t.exposeString('event', {
      nullable: true,
      description: "The event the call's outcome sends (`call.analyzed`, `call.failed`); null while it is processed.",
    }),
    endpoints: t.exposeInt('endpoints', { description: "The account's endpoints." }),
    forCampaign: t.exposeInt('forCampaign', { description: "Those taking this call's campaign (all, or this one)." }),
    subscribed: t.exposeInt('subscribed', { description: 'Of those, the ones subscribed to `event`.' }),
    enabled: t.exposeInt('enabled', { description: 'Of those, the ones enabled.' }),
  }),
});

export const CallStatusEnum = builder.enumType('CallStatus', {
  description: 'TRANSCRIBED means transcribed but not analyzed (no template applied).',
  values: {
    QUEUED: { value: 'queued' },
    TRANSCRIBING: { value: 'transcribing' },
    ANALYZING: { value: 'analyzing' },
    ANALYZED: { value: 'analyzed' },
    TRANSCRIBED: { value: 'transcribed' },
    FAILED: { value: 'failed' },
  } as const,
});
const AudioQualityEnum = builder.enumType('AudioQuality', {
  description:
    'How clearly the recording carries speech, from its estimated SNR: good ≥ 25 dB, fair ≥ 15 dB, poor below.',
  values: { GOOD: { value: 'good' }, FAIR: { value: 'fair' }, POOR: { value: 'poor' } } as const,
});

export const CallViewEnum = builder.enumType('CallView', {
  description:
    "The app's views: IN_PROGRESS (queued, transcribing, analyzing), ANALYZED (analyzed and transcribed-not-analyzed), FAILED.",
  values: {
    IN_PROGRESS: { value: 'in_progress' },
    ANALYZED: { value: 'analyzed' },
    FAILED: { value: 'failed' },
  } as const,
});
export const CallDirectionEnum = builder.enumType('CallDirection', {
  values: { INBOUND: { value: 'inbound' }, OUTBOUND: { value: 'outbound' } } as const,
});
const CallSourceEnum = builder.enumType('CallSource', {
  values: { API: { value: 'api' }, UPLOAD: { value: 'upload' } } as const,
});
const CallSortEnum = builder.enumType('CallSortField', {
  values: { STARTED_AT: { value: 'started_at' }, SCORE: { value: 'score' }, DURATION: { value: 'duration' } } as const,
});
const SortOrderEnum = builder.enumType('SortOrder', {
  values: { ASC: { value: 'asc' }, DESC: { value: 'desc' } } as const,
});
export const CriterionOutcomeEnum = builder.enumType('CriterionOutcome', {
  values: { PASSED: { value: 'passed' }, FAILED: { value: 'failed' }, NA: { value: 'na' } } as const,
});

const EvidenceRef = builder.objectRef<Evidence>('Evidence').implement({
  description: 'A quote from the transcript backing a criterion result.',
  fields: (t) => ({
    quote: t.exposeString('quote'),
    start: t.exposeFloat('start', { description: 'Seconds from the start of the recording.' }),
    end: t.exposeFloat('end'),
    speaker: t.exposeString('speaker', { description: '`agent`, `customer`, or `speaker` when unknown (mono).' }),
  }),
});

export const CriterionResultRef = builder.objectRef<CriterionResult>('CriterionResult').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label'),
    kind: t.exposeString('kind', { description: '`phrase`, `forbidden`, `metric` or `llm`.' }),
    result: t.field({ type: CriterionOutcomeEnum, resolve: (c) => c.result }),
    points: t.exposeFloat('points'),
    maxPoints: t.float({ resolve: (c) => c.max_points }),
    critical: t.exposeBoolean('critical'),
    reason: t.string({ nullable: true, description: 'Why, in English.', resolve: (c) => c.reason ?? null }),
    reasonCode: t.string({
      nullable: true,
      description:
        'The reason as a stable code (`phrase_said`, `phrase_missing`, `forbidden_none`, `metric_between`, `llm_not_configured`, …) for saying it in the UI language; null on calls analyzed before codes existed and for a model’s own answer.',
      resolve: (c) => c.reason_code ?? null,
    }),
    reasonParams: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'Parameters of `reasonCode` (quote, time, counts…). Metric values (`value`, `threshold`, `min`, `max`) are raw numbers with a `unit`: `percent` (a fraction 0–1), `seconds`, `signed` (sentiment −1…+1) or `count`; calls analyzed before that carry them as English text.',
      resolve: (c) => c.reason_params ?? null,
    }),
    evidence: t.field({ type: [EvidenceRef], resolve: (c) => c.evidence ?? [] }),
    lowConfidence: t.boolean({
      description:
        'The criterion failed only on words the recogniser was unsure of (a near match of the phrase over unsure words, or a forbidden phrase heard only through them): the call is in the review queue as LOW_CONFIDENCE.',
      resolve: (c) => c.result === 'failed' && c.low_confidence === true,
    }),
  }),
});

export const SegmentRef = builder.objectRef<Segment>('TranscriptSegment').implement({
  fields: (t) => ({
    start: t.exposeFloat('start'),
    end: t.exposeFloat('end'),
    speaker: t.exposeString('speaker', { description: '`agent`, `customer`, or `speaker` when unknown (mono).' }),
    text: t.exposeString('text'),
    channel: t.exposeInt('channel'),
    confidence: t.float({
      nullable: true,
      description: "The recogniser's confidence in the segment, 0–1 (null on older calls and engines without one).",
      resolve: (s) => s.confidence ?? null,
    }),
    guessed: t.boolean({
      description:
        "A turn of speech the recogniser heard no words in on its own (loud babble): `text` is its forced guess, every word unsure, or empty when the guess was one of the recogniser's stock phrases. Criteria never count a guess as said; sentiment, the summary and search ignore it.",
      resolve: (s) => s.guessed === true,
    }),
    uncertainWords: t.intList({
      description:
        "Indexes into the text's space-separated words that the recogniser was unsure of (its least likely token below 50 %).",
      resolve: (s) => s.uncertainWords ?? [],
    }),
  }),
});

builder.prismaObject('CallEvent', {
  description: 'One status change of a call.',
  fields: (t) => ({
    status: t.expose('status', { type: CallStatusEnum }),
    detail: t.exposeString('detail', { nullable: true }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

export const Call = builder.prismaObject('Call', {
  // Select mode: a list of calls loads only the columns asked for, never transcripts it does not show.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', { nullable: true }),
    source: t.expose('source', { type: CallSourceEnum }),
    status: t.expose('status', { type: CallStatusEnum }),
    view: t.field({ type: CallViewEnum, select: { status: true }, resolve: (c) => viewOf(c.status) }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description: 'Machine-readable: `undecodable`, `no_speech`, `unsupported_language`, `too_long`, …',
    }),
    failureDetail: t.exposeString('failureDetail', { nullable: true }),
    agent: t.relation('agent'),
    campaign: t.relation('campaign', { nullable: true }),
    template: t.relation('template', { nullable: true, description: 'The template the current analysis used.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    customerPhone: t.exposeString('customerPhone', { nullable: true }),
    customerName: t.exposeString('customerName', { nullable: true }),
    direction: t.expose('direction', { type: CallDirectionEnum, nullable: true }),
    language: t.string({
      nullable: true,
      description: 'The language asked for (sent or from the campaign), else the detected one.',
      select: { language: true, detectedLanguage: true },
      resolve: (c) => c.language ?? c.detectedLanguage,
    }),
    detectedLanguage: t.exposeString('detectedLanguage', { nullable: true }),
    fileName: t.exposeString('fileName'),
    fileSize: t.float({ description: 'Bytes.', select: { fileSize: true }, resolve: (c) => Number(c.fileSize) }),
    contentType: t.exposeString('contentType'),
    durationSeconds: t.exposeFloat('durationSeconds', { nullable: true }),
    channels: t.exposeInt('channels', { nullable: true }),
    audioSnrDb: t.exposeFloat('audioSnrDb', {
      nullable: true,
      description:
        'Signal-to-noise ratio of the recording in dB, estimated at transcription from speech and pauses (the noisier side of a stereo call). Null before transcription or with too little speech.',
    }),
    audioQuality: t.field({
      type: AudioQualityEnum,
      nullable: true,
      description:
        'audioSnrDb in words (with ASR_DENOISE=auto it also decides whether noise suppression runs before recognition).',
      select: { audioSnrDb: true },
      resolve: (c) => (c.audioSnrDb === null ? null : audioQuality(c.audioSnrDb)),
    }),
    reservedMinutes: t.exposeInt('reservedMinutes'),
    usedMinutes: t.exposeInt('usedMinutes', { nullable: true }),
    period: t.exposeString('period', { description: 'Usage period (YYYY-MM) the call counts in.' }),
    score: t.exposeFloat('score', { nullable: true, description: '0–100; 0 when a critical criterion failed.' }),
    coverage: t.exposeFloat('coverage', {
      nullable: true,
      description:
        "Share (0–1) of the template's weight the score rests on: criteria that could not be evaluated (`na`) leave it. Null until analyzed.",
    }),
    needsReview: t.exposeBoolean('needsReview', {
      description: "Coverage is below the template's `minCoverage`: a person should look before the score is trusted.",
    }),
    languageMismatch: t.exposeBoolean('languageMismatch', {
      description:
        "The template that scored the call is in another language than the call (no template of the call's language applied).",
    }),
    topic: t.exposeString('topic', {
      nullable: true,
      description: 'The template topic (its label) whose phrases matched best, or the model’s choice.',
    }),
    summary: t.exposeString('summary', { nullable: true }),
    criticalFailed: t.boolean({
      description: 'A critical criterion failed (the score is then 0 by rule, not by points).',
      select: { criteria: true },
      resolve: (c) => (parseColumn(Criteria, c.criteria) ?? []).some((r) => r.critical && r.result === 'failed'),
    }),
    criteria: t.field({
      type: [CriterionResultRef],
      nullable: true,
      select: { criteria: true },
      resolve: (c) => parseColumn(Criteria, c.criteria),
    }),
    metrics: t.field({
      type: 'JSON',
      nullable: true,
      select: { metrics: true },
      resolve: (c) => parseColumn(Metrics, c.metrics),
    }),
    transcript: t.field({
      type: [SegmentRef],
      nullable: true,
      description: 'Segments in time order; null until transcribed.',
      select: { segments: true },
      resolve: (c) => parseColumn(Segments, c.segments),
    }),
    analysisRevision: t.exposeInt('analysisRevision'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    analyzedAt: t.expose('analyzedAt', { type: 'DateTime', nullable: true }),
    events: t.relation('events', {
      description: 'Status history, oldest first.',
      query: { orderBy: [{ at: 'asc' }, { id: 'asc' }] },
    }),
    webhookDeliveries: t.relation('deliveries', {
      // Integration details are not an agent's business.
      authScopes: { member: true },
      description: 'Webhook deliveries of this call, newest first. Viewers and above.',
      query: { orderBy: { createdAt: 'desc' } },
    }),
    webhookCoverage: t.field({
      type: WebhookCoverageRef,
      authScopes: { member: true },
      description:
        "Which event this call's outcome sends and how many of the account's endpoints receive it: why a call has no delivery (no endpoint, not subscribed, another campaign, disabled). Viewers and above.",
      select: { accountId: true, campaignId: true, status: true },
      resolve: (c, _a, ctx) => callWebhookCoverage(ctx.app.db, c),
    }),
    recordingUrl: t.string({
      description: 'Download of the original recording (needs the session cookie).',
      resolve: (c, _a, ctx) => `${ctx.app.config.publicUrl}/api/calls/${c.id}/recording`,
    }),
    appUrl: t.string({ resolve: (c, _a, ctx) => `${ctx.app.config.publicUrl}/calls/${c.id}` }),
  }),
});

const CustomerSentimentFilterEnum = builder.enumType('CustomerSentimentFilter', {
  description:
    'MEASURED: the customer has a sentiment; TREND: the customer has a trend (two turns or more); IMPROVED / WORSENED: the customer ended at least 0.1 better / worse than they started (as the dashboard counts).',
  values: Object.fromEntries(CUSTOMER_SENTIMENT_FILTERS.map((v) => [v.toUpperCase(), { value: v }])) as {
    MEASURED: { value: 'measured' };
    TREND: { value: 'trend' };
    IMPROVED: { value: 'improved' };
    WORSENED: { value: 'worsened' };
  },
});

const DisputeOutcomeEnum = builder.enumType('DisputeOutcomeFilter', {
  description:
    'OPENED / STILL_OPEN: a dispute opened within the days (still open now); ACCEPTED / REJECTED: a dispute answered so within the days.',
  values: Object.fromEntries(DISPUTE_OUTCOMES.map((v) => [v.toUpperCase(), { value: v }])) as {
    OPENED: { value: 'opened' };
    STILL_OPEN: { value: 'still_open' };
    ACCEPTED: { value: 'accepted' };
    REJECTED: { value: 'rejected' };
  },
});

const CriterionFilter = builder.inputType('CriterionFilter', {
  description:
    "A criterion key whose result on the call is one of `results`; with `critical`, a critical criterion's fail.",
  fields: (t) => ({
    key: t.string({ required: true }),
    results: t.field({ type: [CriterionOutcomeEnum], required: true }),
    critical: t.boolean(),
  }),
});

const DisputeFilter = builder.inputType('DisputeFilter', {
  description: "Calls with a dispute that had `outcome` within the days (YYYY-MM-DD, the account's time zone).",
  fields: (t) => ({
    outcome: t.field({ type: DisputeOutcomeEnum, required: true }),
    dayFrom: t.string({ required: true }),
    dayTo: t.string({ required: true }),
  }),
});

const CheckedChangeEnum = builder.enumType('CheckedChange', {
  values: Object.fromEntries(CHECKED_CHANGES.map((c) => [c.toUpperCase(), { value: c }])) as {
    [K in CheckedChange as Uppercase<K>]: { value: K };
  },
});

export const CallFilter = builder.inputType('CallFilter', {
  fields: (t) => ({
    view: t.field({ type: CallViewEnum }),
    startedFrom: t.field({ type: 'DateTime', description: 'Inclusive.' }),
    startedTo: t.field({ type: 'DateTime', description: 'Exclusive.' }),
    agentIds: t.idList(),
    campaignIds: t.idList(),
    direction: t.field({ type: CallDirectionEnum }),
    scoreMin: t.float(),
    scoreMax: t.float(),
    topic: t.string({
      description:
        'Topic as shown on calls (the template topic label); the labels of the same topic key in the account’s other templates (other languages) match too.',
    }),
    language: t.string(),
    failedCriterion: t.string({
      description: 'A criterion key (as in the templates) that failed on the call.',
    }),
    criticalFail: t.boolean({
      description: 'true: only calls where a critical criterion failed; false: only calls where none did.',
    }),
    search: t.string({
      description:
        'Full-text search in transcripts, ignoring case and accents; web-search syntax: "exact phrase", -excluded, or.',
    }),
    templateIds: t.idList({ description: 'Templates that scored the call.' }),
    dayFrom: t.string({
      description:
        "First day (YYYY-MM-DD) in the account's time zone, as the dashboard counts days (`startedFrom` is an instant).",
    }),
    dayTo: t.string({ description: "Last day (YYYY-MM-DD, inclusive) in the account's time zone." }),
    scored: t.boolean({
      description: 'true: only scored calls (analyzed with a score), the calls the dashboard counts.',
    }),
    coverageMeasured: t.boolean({
      description:
        'true: only calls with a coverage (calls scored before coverage existed have none), the calls an average coverage is computed over.',
    }),
    languageMismatch: t.boolean({
      description:
        "false: leave out calls whose language did not match their template's (as the dashboard does by default); true: only those.",
    }),
    scoreBelow: t.float({ description: 'Score strictly below this (a score band’s upper bound).' }),
    exactTopic: t.boolean({
      description: 'true: `topic` matches that label only, not the same topic’s labels in other templates.',
    }),
    otherTopics: t.stringList({
      description:
        'Calls with a topic that is none of these labels (calls without a topic are left out): the dashboard’s “other topics”.',
    }),
    criterion: t.field({ type: CriterionFilter }),
    customerSentiment: t.field({ type: CustomerSentimentFilterEnum }),
    dispute: t.field({ type: DisputeFilter }),
    checkedCriterion: t.string({
      description:
        "A criterion key on which a person checked the machine's verdict (override, resolved dispute, closed calibration): the calls behind a row of `machineAgreement`.",
    }),
    checkedChange: t.field({
      type: CheckedChangeEnum,
      description:
        'With `checkedCriterion`: only where the verdict stood, was changed, or was a false fail / false pass.',
    }),
  }),
});

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
function dayOrThrow(v: string | null | undefined, name: string): string | null {
  if (v == null || v === '') return null;
  if (!DAY_RE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw new DomainError('invalid_input', `${name}: must be a date written YYYY-MM-DD.`);
  return v;
}

export function cleanFilter(f: typeof CallFilter.$inferInput | null | undefined): CallFilterShape {
  if (!f) return {};
  // Foreign or malformed ids simply match nothing; they must not turn into an error that reveals anything.
  const ids = (list: readonly (string | number)[] | null | undefined) =>
    list ? list.map(String).filter((id) => uuidOrNull(id)) : null;
  if (f.search && f.search.length > 500)
    throw new DomainError('invalid_search', 'Search text can have at most 500 characters.');
  return {
    view: f.view ?? null,
    startedFrom: f.startedFrom ?? null,
    startedTo: f.startedTo ?? null,
    agentIds: ids(f.agentIds),
    campaignIds: ids(f.campaignIds),
    direction: f.direction ?? null,
    scoreMin: f.scoreMin ?? null,
    scoreMax: f.scoreMax ?? null,
    topic: f.topic ?? null,
    language: f.language?.trim().toLowerCase() || null,
    failedCriterion: f.failedCriterion?.trim() || null,
    criticalFail: f.criticalFail ?? null,
    search: f.search ?? null,
    templateIds: ids(f.templateIds),
    dayFrom: dayOrThrow(f.dayFrom, 'dayFrom'),
    dayTo: dayOrThrow(f.dayTo, 'dayTo'),
    scored: f.scored ?? null,
    coverageMeasured: f.coverageMeasured ?? null,
    languageMismatch: f.languageMismatch ?? null,
    scoreBelow: f.scoreBelow ?? null,
    exactTopic: f.exactTopic ?? null,
    otherTopics: f.otherTopics ?? null,
    criterion: f.criterion
      ? { key: f.criterion.key, results: f.criterion.results, critical: f.criterion.critical }
      : null,
    customerSentiment: f.customerSentiment ?? null,
    dispute: f.dispute
      ? {
          outcome: f.dispute.outcome,
          dayFrom: dayOrThrow(f.dispute.dayFrom || '-', 'dispute.dayFrom') as string,
          dayTo: dayOrThrow(f.dispute.dayTo || '-', 'dispute.dayTo') as string,
        }
      : null,
    checkedCriterion: f.checkedCriterion?.trim() || null,
    checkedChange: f.checkedChange ?? null,
  };
}

const TextRangeRef = builder.objectRef<{ start: number; end: number }>('TextRange').implement({
  description: 'A part of a text, as UTF-16 offsets (end exclusive), as JavaScript strings count.',
  fields: (t) => ({ start: t.exposeInt('start'), end: t.exposeInt('end') }),
});

const SearchSnippetRef = builder.objectRef<SearchSnippet>('SearchSnippet').implement({
  description: 'The first transcript line of a call that matches the search, with the searched words marked.',
  fields: (t) => ({
    text: t.exposeString('text', { description: 'The line as transcribed (original case and accents).' }),
    start: t.exposeFloat('start', { description: 'Seconds from the start of the recording.' }),
    end: t.exposeFloat('end'),
    speaker: t.exposeString('speaker', { description: '`agent`, `customer`, or `speaker` when unknown (mono).' }),
    highlights: t.field({ type: [TextRangeRef], resolve: (s) => s.highlights }),
  }),
});

/** What the calls resolver gives its connection and edges: lazy, shared work for optional fields. */
interface CallsPageState {
  count: () => Promise<CallCount>;
  snippets: () => Promise<Map<string, SearchSnippet>>;
}
const stateOf = (o: unknown) => (o as { state: CallsPageState }).state;

/** Names of the fields asked for directly under this field (through fragments too). */
function selectedFields(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) names.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else walk(info.fragments[sel.name.value]?.selectionSet);
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return names;
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

const CallEdge = builder.edgeObject({ type: Call, name: 'CallEdge' });
builder.objectField(CallEdge, 'snippet', (t) =>
  t.field({
    type: SearchSnippetRef,
    nullable: true,
    description:
      'With a `search` filter: the first transcript line matching it (null without a search, or when no single line matches, e.g. a phrase across two lines). One query per page, only when asked for.',
    resolve: async (edge, _a, _ctx) => (await stateOf(edge).snippets()).get(edge.node.id) ?? null,
  }),
);

const CallConnection = builder.connectionObject({ type: Call, name: 'CallConnection' }, CallEdge);
builder.objectField(CallConnection, 'totalCount', (t) =>
  t.int({
    description: `Calls matching the filter, cheaply: exact for a view without other filters (kept counters); otherwise counted up to ${COUNT_CAP.toLocaleString('en')} (${SEARCH_COUNT_CAP.toLocaleString('en')} with a search), and when there are more it is that cap and \`totalCountExact\` is false (show "${COUNT_CAP.toLocaleString('en')}+").`,
    resolve: async (conn) => (await stateOf(conn).count()).count,
  }),
);
builder.objectField(CallConnection, 'totalCountExact', (t) =>
  t.boolean({
    description: `false when \`totalCount\` stopped at its cap (${COUNT_CAP.toLocaleString('en')}, or ${SEARCH_COUNT_CAP.toLocaleString('en')} with a search) and there are more calls.`,
    resolve: async (conn) => (await stateOf(conn).count()).exact,
  }),
);

const TopicGroupRef = builder.objectRef<{ labels: string[] }>('TopicGroup').implement({
  description: 'One topic of the filter: its labels in every template that names its key (each language’s).',
  fields: (t) => ({ labels: t.exposeStringList('labels') }),
});

const CriterionOptionRef = builder.objectRef<{ key: string; label: string }>('CriterionOption').implement({
  description: 'A criterion of the account’s templates, for the “failed criterion” filter.',
  fields: (t) => ({ key: t.exposeString('key'), label: t.exposeString('label') }),
});

/** The account's filter options, from the api process's cache when it has one (src/calls/filter-options-cache.ts). */
function filterOptionsOf(ctx: GraphQLContext): Promise<CallFilterOptions> {
  const accountId = accountIdOf(ctx);
  const load = () => callFilterOptions(ctx.app.db, accountId);
  return ctx.app.filterOptions ? ctx.app.filterOptions.get(accountId, 'options', load) : load();
}

const CallFilterOptionsRef = builder.objectRef<CallFilterOptions>('CallFilterOptions').implement({
  description:
    'What the account’s calls actually use, for the list’s filters (read from counters the database keeps, never from the calls).',
  fields: (t) => ({
    topics: t.exposeStringList('topics', { description: 'Topic labels, alphabetically.' }),
    topicGroups: t.field({
      type: [TopicGroupRef],
      description: 'The topics merged by template topic key (the same topic in several languages is one entry).',
      resolve: (o) => o.topicGroups,
    }),
    criteria: t.field({
      type: [CriterionOptionRef],
      description: 'Criteria of the account’s templates, one per key, by label.',
      resolve: (o) => o.criteria,
    }),
    languages: t.exposeStringList('languages', { description: 'Language codes (asked for, else detected).' }),
    agents: t.prismaField({
      type: ['Agent'],
      description: 'Agents with at least one call (deactivated ones included), by name.',
      resolve: (query, o, _a, ctx) =>
        cachedRows(ctx, 'options.agents', query, () =>
          ctx.app.db.agent.findMany({
            ...query,
            where: { accountId: accountIdOf(ctx), id: { in: o.agentIds } },
            orderBy: { name: 'asc' },
          }),
        ),
    }),
    campaigns: t.prismaField({
      type: ['Campaign'],
      description: 'Campaigns with at least one call (archived ones included), by name.',
      resolve: (query, o, _a, ctx) =>
        cachedRows(ctx, 'options.campaigns', query, () =>
          ctx.app.db.campaign.findMany({
            ...query,
            where: { accountId: accountIdOf(ctx), id: { in: o.campaignIds } },
            orderBy: { name: 'asc' },
          }),
        ),
    }),
  }),
});

builder.queryFields((t) => ({
  calls: t.field({
    type: CallConnection,
    authScopes: { signedIn: true },
    description: `Calls of the account (an AGENT user: only their own agent's calls), newest first by default. Page size is capped at ${MAX_PAGE_SIZE}.`,
    args: {
      filter: t.arg({ type: CallFilter }),
      sort: t.arg({ type: CallSortEnum, defaultValue: 'started_at' }),
      order: t.arg({ type: SortOrderEnum, defaultValue: 'desc' }),
      first: t.arg.int(),
      after: t.arg.string(),
      last: t.arg.int(),
      before: t.arg.string(),
    },
    complexity: (args) => ({
      field: 5,
      multiplier: Math.min(MAX_PAGE_SIZE, Math.max(1, (args.first ?? args.last ?? 20) as number)),
    }),
    resolve: async (_r, args, ctx, info) => {
      const backward = args.last != null || args.before != null;
      const limit = Math.max(1, Math.min(MAX_PAGE_SIZE, (backward ? args.last : args.first) ?? 20));
      // The agent role's restriction is part of the filter, so the page, its counts and snippets all obey it.
      const viewer = callViewerOf(ctx);
      // So are a calibration grader's blind calls (src/calibration/read.ts).
      const filter = await blindFilter(ctx.app.db, viewer.id, scopeFilter(cleanFilter(args.filter), viewer));
      const accountId = accountIdOf(ctx);
      const asked = selectedFields(info);
      let ids: string[] = [];
      const state: CallsPageState = {
        count: once(() => countCalls(ctx.app.db, accountId, filter)),
        snippets: once(async () =>
          filter.search ? searchSnippets(ctx.app.db, accountId, ids, filter.search) : new Map(),
        ),
      };
      // The count runs beside the page, not after it; the tab counts ask for nothing else.
      if (asked.has('totalCount') || asked.has('totalCountExact')) void state.count().catch(() => {});
      if (!asked.has('edges') && !asked.has('pageInfo')) {
        return { state, edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };
      }
      const page = await listCallPage(ctx.app.db, accountId, filter, {
        sort: (args.sort ?? 'started_at') as CallSort,
        order: args.order ?? 'desc',
        limit,
        after: args.after ?? null,
        before: args.before ?? null,
        backward,
      });
      const query = queryFromInfo({ context: ctx, info, path: ['edges', 'node'], typeName: 'Call' });
      const loaded =
        page.rows.length && asked.has('edges')
          ? await ctx.app.db.call.findMany({
              ...(query as object),
              where: { id: { in: page.rows.map((r) => r.id) }, accountId },
            })
          : [];
      const byId = new Map(loaded.map((c) => [c.id, c]));
      ids = page.rows.filter((r) => byId.has(r.id)).map((r) => r.id);
      return {
        state,
        edges: page.rows.filter((r) => byId.has(r.id)).map((r) => ({ cursor: r.cursor, node: byId.get(r.id)!, state })),
        pageInfo: {
          hasNextPage: page.hasNextPage,
          hasPreviousPage: page.hasPreviousPage,
          startCursor: page.rows[0]?.cursor ?? null,
          endCursor: page.rows.at(-1)?.cursor ?? null,
        },
      };
    },
  }),
  call: t.prismaField({
    type: 'Call',
    nullable: true,
    authScopes: { signedIn: true },
    description: "A call of the account; null for another account's id, or, for an AGENT user, another agent's call.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const viewer = callViewerOf(ctx);
      // A grader of an open calibration scores its calls blind: the lookup answers as for an unknown call.
      return byId(args.id, (id) =>
        ctx.app.db.call.findFirst({ ...query, where: { id, ...callScope(viewer), ...blindCallsWhere(viewer.id) } }),
      );
    },
  }),
  callTopics: t.stringList({
    authScopes: { member: true },
    description: 'Distinct topics (template topic labels) of analyzed calls, for the topic filter.',
    resolve: async (_r, _a, ctx) => (await filterOptionsOf(ctx)).topics,
  }),
  callFilterOptions: t.field({
    type: CallFilterOptionsRef,
    authScopes: { member: true },
    description: 'Topics, languages, agents and campaigns the account’s calls use, for the list’s filters.',
    resolve: (_r, _a, ctx) => filterOptionsOf(ctx),
  }),
}));

builder.mutationField('reanalyzeCall', (t) =>
  t.prismaField({
    type: 'Call',
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Queues a new analysis with the template that applies now. Analysts and above. Errors: `not_transcribed`, `not_ready`, `no_template`.',
    args: {
      id: t.arg.id({ required: true }),
      keepReviews: t.arg.boolean({
        defaultValue: true,
        description:
          "true (default): criteria a person overrode keep the reviewer's result on top of the new analysis. false: the reviews are undone (recorded in the call's review history).",
      }),
    },
    resolve: async (query, _r, args, ctx) => {
      const user = sessionOf(ctx).user;
      const id = parseUuid(args.id, 'Call');
      await assertNotBlind(ctx.app.db, user.id, id);
      const call = await requestReanalysis(ctx.app.db, accountIdOf(ctx), id, user.id, {
        ...(args.keepReviews === false && {
          discardReviewsBy: { id: user.id, accountId: user.accountId, name: user.name },
        }),
      });
      return ctx.app.db.call.findUniqueOrThrow({ ...query, where: { id: call.id } });
    },
  }),
);
