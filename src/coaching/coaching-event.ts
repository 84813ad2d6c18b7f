import { Criteria, parseColumn } from '../call-columns.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { CoachingAssignedEvent, CoachingCompletedEvent } from '../webhooks/kit/events.ts';
import { envelope } from '../webhooks/payload.ts';

/** What a coaching event's body is built from; load with `select: coachingForEvent`. */
export const coachingForEvent = {
  id: true,
  accountId: true,
  criterionKeys: true,
  improve: true,
  moments: true,
  dueOn: true,
  assignedAt: true,
  acknowledgedAt: true,
  completedAt: true,
  completionNote: true,
  call: { select: { id: true, campaignId: true, criteria: true } },
  agent: { select: { id: true, name: true, code: true } },
  assignedBy: { select: { name: true } },
  completedBy: { select: { name: true } },
} as const satisfies Prisma.CoachingItemSelect;

export type CoachingForEvent = Prisma.CoachingItemGetPayload<{ select: typeof coachingForEvent }>;

/** The body of coaching.assigned or coaching.completed (src/webhooks/kit/events.ts is the contract). */
export function coachingEvent(
  item: CoachingForEvent,
  type: 'coaching.assigned' | 'coaching.completed',
  publicUrl: string,
  at: Date,
): CoachingAssignedEvent | CoachingCompletedEvent {
  const labels = new Map((parseColumn(Criteria, item.call.criteria) ?? []).map((c) => [c.key, c.label]));
  const common = {
    id: item.id,
    url: `${publicUrl}/coaching?agent=${item.agent.id}`,
    call: { id: item.call.id, url: `${publicUrl}/calls/${item.call.id}` },
    agent: item.agent,
    criteria: item.criterionKeys.map((key) => ({ key, label: labels.get(key) ?? key })),
    improve: item.improve,
    moments: item.moments,
    due_on: item.dueOn ? item.dueOn.toISOString().slice(0, 10) : null,
    assigned_by: item.assignedBy?.name ?? null,
    assigned_at: item.assignedAt.toISOString(),
  };
  if (type === 'coaching.assigned') return envelope(type, at, { ...common, status: 'open' });
  return envelope(type, at, {
    ...common,
    status: 'done',
    acknowledged_at: item.acknowledgedAt?.toISOString() ?? null,
    completed_at: (item.completedAt ?? at).toISOString(),
    completed_by: item.completedBy?.name ?? null,
    completion_note: item.completionNote ?? '',
  });
}
