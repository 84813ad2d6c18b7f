import { Criteria, Metrics, parseColumn } from '../call-columns.ts';
import type { Prisma } from '../generated/prisma/client.ts';

/**
 * Event bodies. Field names are a public contract (PRODUCT.md, "Webhook `call.analyzed`"):
 * within /v1 fields may be added, never renamed or removed.
 */

export const CALL_ANALYZED = 'call.analyzed';
export const WEBHOOK_TEST = 'webhook.test';

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
  criteria: true,
  topic: true,
  summary: true,
  metrics: true,
  agent: { select: { id: true, name: true, code: true } },
  campaign: { select: { id: true, name: true } },
  template: { select: { id: true, name: true } },
} as const satisfies Prisma.CallSelect;

export type CallForWebhook = Prisma.CallGetPayload<{ select: typeof callForWebhook }>;

// A type alias, not an interface, so a body is assignable to Prisma's JSON input type.
export type WebhookEvent<T extends string, D> = {
  type: T;
  timestamp: string;
  data: D;
};

export type CallAnalyzedEvent = WebhookEvent<typeof CALL_ANALYZED, ReturnType<typeof callData>>;

export function callAnalyzedEvent(call: CallForWebhook, publicUrl: string, at = new Date()): CallAnalyzedEvent {
  return { type: CALL_ANALYZED, timestamp: at.toISOString(), data: callData(call, publicUrl) };
}

function callData(call: CallForWebhook, publicUrl: string) {
  return {
    id: call.id,
    external_id: call.externalId,
    url: `${publicUrl}/calls/${call.id}`,
    status: call.status,
    agent: { id: call.agent.id, name: call.agent.name, code: call.agent.code },
    campaign: call.campaign && { id: call.campaign.id, name: call.campaign.name },
    started_at: call.startedAt.toISOString(),
    duration_seconds: call.durationSeconds,
    direction: call.direction,
    // The language the call was transcribed in: the one asked for, else the detected one.
    language: call.language ?? call.detectedLanguage,
    customer_phone: call.customerPhone,
    customer_name: call.customerName,
    template: call.template && { id: call.template.id, name: call.template.name },
    score: call.score,
    // Picked field by field so engine-internal fields never leak into the public contract.
    criteria: (parseColumn(Criteria, call.criteria) ?? []).map((c) => ({
      key: c.key,
      label: c.label,
      result: c.result,
      points: c.points,
      max_points: c.max_points,
      critical: c.critical,
      evidence: c.evidence ?? null,
    })),
    topic: call.topic,
    summary: call.summary,
    metrics: parseColumn(Metrics, call.metrics) ?? {},
  };
}

export function testEvent(
  accountId: string,
  at = new Date(),
): WebhookEvent<typeof WEBHOOK_TEST, { account_id: string; message: string }> {
  return {
    type: WEBHOOK_TEST,
    timestamp: at.toISOString(),
    data: {
      account_id: accountId,
      message: 'Test event from Escucha: your endpoint is reachable and can verify signatures.',
    },
  };
}
