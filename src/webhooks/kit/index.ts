/**
 * @escucha/webhooks: what an integrator needs to build and test a receiver of Escucha webhooks.
 * No server dependencies (zod and standardwebhooks only), so it can be published on its own.
 */
export {
  CallAnalyzedEvent,
  CallFailedEvent,
  CallReviewedEvent,
  CoachingAssignedEvent,
  CoachingCompletedEvent,
  DEFAULT_EVENT_TYPES,
  SUBSCRIBABLE_EVENT_TYPES,
  WebhookDisabledEvent,
  WebhookEvent,
  WebhookTestEvent,
  webhookJsonSchema,
  type SubscribableEventType,
  type WebhookEventType,
} from './events.ts';
export { sampleCallAnalyzed, sampleCallReviewed, sampleCoachingAssigned } from './sample.ts';
export { deliveryHeaders, signatureHeader, signEvent, type SignedRequest } from './sign.ts';
