import { z } from 'zod';

/**
 * The one definition of every webhook event body (docs/api/product-decisions.md, "Webhook `call.analyzed`"). The
 * TypeScript types, the JSON Schema served at /v1/webhooks/schema.json and the sender's own check
 * of every payload all come from here. Field names are a public contract: within /v1 fields may be
 * added, never renamed or removed, so objects are loose (receivers must ignore unknown fields).
 */

const isoDateTime = z.iso.datetime({ offset: true });
const ref = z.looseObject({ id: z.string(), name: z.string() });

export const Evidence = z.looseObject({
  quote: z.string(),
  start: z.number().describe('seconds from the start of the recording'),
  end: z.number(),
  speaker: z.string().describe('agent, customer, or speaker (one voice of a mono recording)'),
});

export const Criterion = z.looseObject({
  key: z.string(),
  label: z.string(),
  result: z.enum(['passed', 'failed', 'na']),
  points: z.number(),
  max_points: z.number(),
  critical: z.boolean(),
  evidence: z.array(Evidence).nullable(),
  auto_result: z
    .enum(['passed', 'failed', 'na'])
    .optional()
    .describe(
      "Present when a reviewer overrode the result: what the automatic analysis said (`result` is the reviewer's).",
    ),
});

/** What every call event says about the call. */
const callCommon = {
  id: z.uuid(),
  external_id: z.string().nullable().describe('The id the telephony system sent with the recording.'),
  url: z.url().describe('The call in the Escucha web app.'),
  agent: z.looseObject({ id: z.string(), name: z.string(), code: z.string().nullable() }),
  campaign: ref.nullable(),
  started_at: isoDateTime,
  duration_seconds: z.number().nullable(),
  direction: z.enum(['inbound', 'outbound']).nullable(),
  language: z.string().nullable().describe('The language the call was transcribed in.'),
  customer_phone: z.string().nullable(),
  customer_name: z.string().nullable(),
};

const SentimentReading = z.looseObject({
  label: z.enum(['negative', 'neutral', 'positive']),
  score: z.number().describe('−1 (very negative) to 1 (very positive).'),
});

export const CallAnalyzedData = z.looseObject({
  ...callCommon,
  status: z.literal('analyzed'),
  template: ref.nullable(),
  score: z.number().nullable().describe('0–100'),
  coverage: z
    .number()
    .nullable()
    .describe(
      "Share (0–1) of the template's weight the score rests on; criteria that could not be evaluated leave it.",
    ),
  needs_review: z
    .boolean()
    .describe("Coverage is below the template's minimum: a person should look before trusting the score."),
  language_mismatch: z.boolean().describe('The template that scored the call is in another language than the call.'),
  criteria: z.array(Criterion),
  topic: z.string().nullable(),
  summary: z.string().nullable(),
  metrics: z.record(z.string(), z.unknown()),
  auto_score: z
    .number()
    .nullable()
    .optional()
    .describe('The automatic analysis score; differs from `score` when a reviewer overrode criteria.'),
  reviewed_at: isoDateTime.nullable().optional().describe('When a person last reviewed the results; null if never.'),
  sentiment: z
    .looseObject({
      customer: SentimentReading.nullable(),
      agent: SentimentReading.nullable(),
      overall: SentimentReading.nullable(),
      customer_trend: z
        .number()
        .nullable()
        .describe("The customer's last third of turns minus their first third (−2 to 2); above 0 they ended happier."),
    })
    .nullable()
    .optional()
    .describe('How the call felt, from the words said; per-speaker figures are null on mono recordings.'),
});

export const CallReviewedData = CallAnalyzedData.extend({
  review: z.looseObject({
    criterion_key: z.string(),
    from_result: z.enum(['passed', 'failed', 'na']),
    to_result: z.enum(['passed', 'failed', 'na']),
    auto_result: z.enum(['passed', 'failed', 'na']),
    note: z.string(),
    reviewer: z.string().describe("The reviewer's name."),
    reviewed_at: isoDateTime,
  }),
});

export const CallFailedData = z.looseObject({
  ...callCommon,
  status: z.literal('failed'),
  failure_reason: z.string().describe('A stable code, e.g. no_speech, unreadable_audio.'),
  failure_detail: z.string().nullable(),
});

export const WebhookDisabledData = z.looseObject({
  endpoint_id: z.uuid().describe('The endpoint that was disabled (not the one receiving this event).'),
  url: z.string(),
  reason: z.string(),
  disabled_at: isoDateTime,
  failing_since: isoDateTime.nullable(),
});

export const WebhookTestData = z.looseObject({ account_id: z.uuid(), message: z.string() });

/** What every coaching event says about the item (issue 31.3; docs/guides/coaching.md). */
const coachingCommon = {
  id: z.uuid(),
  url: z.url().describe("The agent's coaching in the Escucha web app."),
  call: z.looseObject({ id: z.uuid(), url: z.url() }),
  agent: z.looseObject({ id: z.string(), name: z.string(), code: z.string().nullable() }),
  criteria: z
    .array(z.looseObject({ key: z.string(), label: z.string() }))
    .describe('The criteria of the call the item was made from.'),
  improve: z.string().describe('What the agent should improve, in the words of the person who assigned it.'),
  moments: z.array(z.number()).describe('Seconds from the start of the recording; each plays from its moment.'),
  due_on: z.iso.date().nullable().describe("A calendar day in the account's time zone; null for no due date."),
  assigned_by: z.string().nullable().describe("The assigner's name."),
  assigned_at: isoDateTime,
};

export const CoachingAssignedData = z.looseObject({ ...coachingCommon, status: z.literal('open') });

export const CoachingCompletedData = z.looseObject({
  ...coachingCommon,
  status: z.literal('done'),
  acknowledged_at: isoDateTime.nullable().describe('When the agent acknowledged it; null if they never did.'),
  completed_at: isoDateTime,
  completed_by: z.string().nullable().describe('The name of the person who marked it done.'),
  completion_note: z.string(),
});

const event = <T extends string, D extends z.ZodType>(type: T, data: D, description: string) =>
  z.looseObject({ type: z.literal(type), timestamp: isoDateTime, data }).describe(description);

export const CallAnalyzedEvent = event(
  'call.analyzed',
  CallAnalyzedData,
  'A call was transcribed and scored (again after a re-analysis). Sent to every endpoint unless it unsubscribes.',
);
export const CallReviewedEvent = event(
  'call.reviewed',
  CallReviewedData,
  "A person overrode a criterion of an analyzed call: the call's current (reviewed) data and the change. Opt-in.",
);
export const CallFailedEvent = event(
  'call.failed',
  CallFailedData,
  'A call could not be processed (no charge is made). Opt-in.',
);
export const WebhookDisabledEvent = event(
  'webhook.disabled',
  WebhookDisabledData,
  'Another endpoint of the account was disabled after failing every attempt for days. Opt-in.',
);
export const CoachingAssignedEvent = event(
  'coaching.assigned',
  CoachingAssignedData,
  "A manager or analyst assigned a coaching item to a call's agent. Opt-in.",
);
export const CoachingCompletedEvent = event(
  'coaching.completed',
  CoachingCompletedData,
  'A coaching item was marked done, with a note. Opt-in.',
);
export const WebhookTestEvent = event(
  'webhook.test',
  WebhookTestData,
  'Sent by "Send test event" in the app; always delivered to the endpoint it was sent to.',
);

/** Every event an endpoint can receive. */
export const WebhookEvent = z.discriminatedUnion('type', [
  CallAnalyzedEvent,
  CallReviewedEvent,
  CallFailedEvent,
  WebhookDisabledEvent,
  CoachingAssignedEvent,
  CoachingCompletedEvent,
  WebhookTestEvent,
]);

export type CallAnalyzedEvent = z.infer<typeof CallAnalyzedEvent>;
export type CallFailedEvent = z.infer<typeof CallFailedEvent>;
export type CallReviewedEvent = z.infer<typeof CallReviewedEvent>;
export type WebhookDisabledEvent = z.infer<typeof WebhookDisabledEvent>;
export type WebhookTestEvent = z.infer<typeof WebhookTestEvent>;
export type CoachingAssignedEvent = z.infer<typeof CoachingAssignedEvent>;
export type CoachingCompletedEvent = z.infer<typeof CoachingCompletedEvent>;
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export type WebhookEventType = WebhookEvent['type'];

export { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from './event-types.ts';

/** The JSON Schema (draft 2020-12) of every event, as served at /v1/webhooks/schema.json. */
export function webhookJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(WebhookEvent, { target: 'draft-2020-12' }),
    $id: 'https://escucha.dev/v1/webhooks/schema.json',
    title: 'Escucha webhook event',
  };
}
