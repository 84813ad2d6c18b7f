/**
 * The types an endpoint can subscribe to; webhook.test is not one (it is sent on request). Kept
 * apart from events.ts (zod) so the web app's event picker can import the one list without the schemas.
 */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'call.analyzed',
  'call.reviewed',
  'call.failed',
  'webhook.disabled',
  'coaching.assigned',
  'coaching.completed',
] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
/** What a new endpoint receives: the one event the intake document promises. */
export const DEFAULT_EVENT_TYPES: readonly SubscribableEventType[] = ['call.analyzed'];
