import { CallSentimentColumn, Criteria, Metrics, parseColumn } from '../call-columns.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type {
  CallAnalyzedEvent,
  CallFailedEvent,
  CallReviewedEvent,
  WebhookDisabledEvent,
  WebhookEvent,
  WebhookEventType,
  WebhookTestEvent,
} from './kit/events.ts';

/**
 * Event bodies. Field names are a public contract (docs/api/product-decisions.md, "Webhook `call.analyzed`"):
 * within /v1 fields may be added, never renamed or removed.
 */

export const CALL_ANALYZED = 'call.analyzed';
export const CALL_FAILED = 'call.failed';
export const CALL_REVIEWED = 'call.reviewed';
export const WEBHOOK_DISABLED = 'webhook.disabled';
export const WEBHOOK_TEST = 'webhook.test';

type EventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** The envelope every event shares (kit/events.ts, `event`): its type, when it happened, and its data. */
export function envelope<T extends WebhookEventType>(type: T, at: Date, data: EventOf<T>['data']): EventOf<T> {
  return { type, timestamp: at.toISOString(), data } as EventOf<T>;
}

/** What a call.analyzed body is built from; load with `select: callForWebhook`. */
export const callForWebhook = {
  id: true,
  externalId: true,
  status: true,
  startedAt: true,
  durationSeconds: true,
  direction: true,
  language: true,
  detectedLanguage: true,
  customerPhone: true,
  customerName: true,
  score: true,
  coverage: true,
  needsReview: true,
  languageMismatch: true,
  autoScore: true,
  reviewedAt: true,
  criteria: true,
  topic: true,
  summary: true,
  metrics: true,
  sentiment: true,
  agent: { select: { id: true, name: true, code: true } },
  campaign: { select: { id: true, name: true } },
  template: { select: { id: true, name: true } },
  failureReason: true,
  failureDetail: true,
} as const satisfies Prisma.CallSelect;

export type CallForWebhook = Prisma.CallGetPayload<{ select: typeof callForWebhook }>;

export function callAnalyzedEvent(call: CallForWebhook, publicUrl: string, at = new Date()): CallAnalyzedEvent {
  return envelope(CALL_ANALYZED, at, {
    ...callCommon(call, publicUrl),
    status: 'analyzed',
    template: call.template && { id: call.template.id, name: call.template.name },
    score: call.score,
    coverage: call.coverage,
    needs_review: call.needsReview,
    language_mismatch: call.languageMismatch,
    // Picked field by field so engine-internal fields never leak into the public contract.
    criteria: (parseColumn(Criteria, call.criteria) ?? []).map((c) => ({
      key: c.key,
      label: c.label,
      result: c.result,
      points: c.points,
      max_points: c.max_points,
      critical: c.critical,
      evidence: (c.evidence ?? null) as CallAnalyzedEvent['data']['criteria'][number]['evidence'],
      ...(c.auto_result !== undefined ? { auto_result: c.auto_result } : {}),
    })),
    topic: call.topic,
    summary: call.summary,
    metrics: parseColumn(Metrics, call.metrics) ?? {},
    // The score above is the reviewed one once a person has reviewed the call.
    auto_score: call.autoScore ?? call.score,
    reviewed_at: call.reviewedAt?.toISOString() ?? null,
    sentiment: sentimentSummary(call.sentiment),
  });
}

/** Per speaker and trend; the per-segment readings stay in the app (the transcript is not in the event). */
function sentimentSummary(column: unknown): CallAnalyzedEvent['data']['sentiment'] {
  const s = parseColumn(CallSentimentColumn, column);
  return s && { customer: s.customer, agent: s.agent, overall: s.overall, customer_trend: s.customer_trend };
}

export interface ReviewForWebhook {
  criterionKey: string;
  fromResult: string;
  toResult: string;
  autoResult: string;
  note: string;
  reviewerName: string;
  createdAt: Date;
}

type Outcome = 'passed' | 'failed' | 'na';

/** call.reviewed: the call's current (reviewed) data, as in call.analyzed, and the change made. */
export function callReviewedEvent(
  call: CallForWebhook,
  review: ReviewForWebhook,
  publicUrl: string,
  at = new Date(),
): CallReviewedEvent {
  return envelope(CALL_REVIEWED, at, {
    ...callAnalyzedEvent(call, publicUrl, at).data,
    review: {
      criterion_key: review.criterionKey,
      from_result: review.fromResult as Outcome,
      to_result: review.toResult as Outcome,
      auto_result: review.autoResult as Outcome,
      note: review.note,
      reviewer: review.reviewerName,
      reviewed_at: review.createdAt.toISOString(),
    },
  });
}

export function callFailedEvent(call: CallForWebhook, publicUrl: string, at = new Date()): CallFailedEvent {
  return envelope(CALL_FAILED, at, {
    ...callCommon(call, publicUrl),
    status: 'failed',
    failure_reason: call.failureReason ?? 'unknown',
    failure_detail: call.failureDetail,
  });
}

/** What every call event says about the call (kit/events.ts, callCommon). */
function callCommon(call: CallForWebhook, publicUrl: string) {
  return {
    id: call.id,
    external_id: call.externalId,
    url: `${publicUrl}/calls/${call.id}`,
    agent: { id: call.agent.id, name: call.agent.name, code: call.agent.code },
    campaign: call.campaign && { id: call.campaign.id, name: call.campaign.name },
    started_at: call.startedAt.toISOString(),
    duration_seconds: call.durationSeconds,
    direction: call.direction,
    // The language the call was transcribed in: the one asked for, else the detected one.
    language: call.language ?? call.detectedLanguage,
    customer_phone: call.customerPhone,
    customer_name: call.customerName,
  };
}

export function webhookDisabledEvent(
  endpoint: {
    id: string;
    url: string;
    disabledReason: string | null;
    disabledAt: Date | null;
    failingSince: Date | null;
  },
  at = new Date(),
): WebhookDisabledEvent {
  return envelope(WEBHOOK_DISABLED, at, {
    endpoint_id: endpoint.id,
    url: endpoint.url,
    reason: endpoint.disabledReason ?? 'Disabled',
    disabled_at: (endpoint.disabledAt ?? at).toISOString(),
    failing_since: endpoint.failingSince?.toISOString() ?? null,
  });
}

export function testEvent(accountId: string, at = new Date()): WebhookTestEvent {
  return envelope(WEBHOOK_TEST, at, {
    account_id: accountId,
    message: 'Test event from Escucha: your endpoint is reachable and can verify signatures.',
  });
}
