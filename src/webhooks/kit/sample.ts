import type { CallAnalyzedEvent, CallReviewedEvent, CoachingAssignedEvent, WebhookEvent } from './events.ts';

/** A sample's envelope: `timestamp` is the sample's own time unless the caller overrides it. */
function sample<E extends WebhookEvent>(type: E['type'], timestamp: string, data: E['data']): E {
  return { type, timestamp, data } as E;
}

/**
 * A realistic `call.analyzed` event, valid against the published schema, for an integrator's
 * tests. `overrides.data` is merged into the call data.
 */
export function sampleCallAnalyzed(
  overrides: { timestamp?: string; data?: Partial<CallAnalyzedEvent['data']> } = {},
): CallAnalyzedEvent {
  const id = '0b7e4a5c-2f7d-4c1e-9a55-5d7c1e2b9f10';
  return sample<CallAnalyzedEvent>('call.analyzed', overrides.timestamp ?? '2026-01-15T10:33:02.512Z', {
    id,
    external_id: 'pbx-20260115-0042',
    url: `https://escucha.example/calls/${id}`,
    status: 'analyzed',
    agent: { id: '5f3c1d2e-8a4b-4c6d-9e0f-1a2b3c4d5e6f', name: 'Ana Pérez', code: 'AG-07' },
    campaign: { id: '7a8b9c0d-1e2f-4a3b-8c5d-6e7f8a9b0c1d', name: 'Renewals' },
    started_at: '2026-01-15T10:30:00.000Z',
    duration_seconds: 125.5,
    direction: 'outbound',
    language: 'es',
    customer_phone: '+34600111222',
    customer_name: 'Luis García',
    template: { id: '2c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6', name: 'Sales QA' },
    score: 80,
    coverage: 1,
    needs_review: false,
    language_mismatch: false,
    criteria: [
      {
        key: 'greeting',
        label: 'Greets the customer',
        result: 'passed',
        points: 5,
        max_points: 5,
        critical: false,
        evidence: [{ quote: 'buenos días, le llamo de Acme', start: 1.2, end: 3.4, speaker: 'agent' }],
      },
      {
        key: 'no_insults',
        label: 'No insults',
        result: 'passed',
        points: 3,
        max_points: 3,
        critical: true,
        evidence: [],
      },
    ],
    topic: 'Renewal',
    summary: 'The customer renews for another year.',
    metrics: { talk_ratio: 0.55, longest_silence_seconds: 4.1 },
    sentiment: {
      customer: { label: 'positive', score: 0.21 },
      agent: { label: 'positive', score: 0.34 },
      overall: { label: 'positive', score: 0.28 },
      customer_trend: 0.46,
    },
    ...overrides.data,
  });
}

/**
 * A realistic `call.reviewed` event: a reviewer passed the greeting the recogniser misheard, so the
 * score went from 62.5 to 100. `overrides.data` is merged into the call data.
 */
export function sampleCallReviewed(
  overrides: { timestamp?: string; data?: Partial<CallReviewedEvent['data']> } = {},
): CallReviewedEvent {
  const analyzed = sampleCallAnalyzed();
  return sample<CallReviewedEvent>('call.reviewed', overrides.timestamp ?? '2026-01-16T09:12:40.118Z', {
    ...analyzed.data,
    score: 100,
    auto_score: 62.5,
    reviewed_at: '2026-01-16T09:12:40.101Z',
    criteria: analyzed.data.criteria.map((c) => (c.key === 'greeting' ? { ...c, auto_result: 'failed' as const } : c)),
    review: {
      criterion_key: 'greeting',
      from_result: 'failed',
      to_result: 'passed',
      auto_result: 'failed',
      note: 'The recogniser heard "AKME"; the agent said "Acme".',
      reviewer: 'Marta Ruiz',
      reviewed_at: '2026-01-16T09:12:40.101Z',
    },
    ...overrides.data,
  });
}

/** A realistic `coaching.assigned` event: a manager asks the agent of the sample call to greet by name. */
export function sampleCoachingAssigned(overrides: { timestamp?: string } = {}): CoachingAssignedEvent {
  const call = sampleCallAnalyzed().data;
  const id = '3d1f6a2b-7c4e-4b8a-9f0d-2e5c6b7a8d9e';
  return sample<CoachingAssignedEvent>('coaching.assigned', overrides.timestamp ?? '2026-01-16T09:20:11.004Z', {
    id,
    url: `https://escucha.example/coaching/${id}`,
    status: 'open',
    call: { id: call.id, url: call.url },
    agent: call.agent,
    criteria: [{ key: 'greeting', label: 'Greets the customer' }],
    improve: 'Say your name and the company in the first sentence.',
    moments: [1.2, 64],
    due_on: '2026-01-23',
    assigned_by: 'Marta Ruiz',
    assigned_at: '2026-01-16T09:20:10.990Z',
  });
}
