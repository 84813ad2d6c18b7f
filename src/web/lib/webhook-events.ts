/**
 * The webhook events an endpoint can subscribe to, as the Integrations page offers them: the API's
 * one list (SUBSCRIBABLE_EVENT_TYPES, which the server checks subscriptions against), so a new
 * opt-in event appears in the picker without a second list to keep in step. GraphQL spells each as
 * its enum value (call.analyzed ↔ CALL_ANALYZED).
 */
import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from '../../webhooks/kit/event-types.ts';
import type { MessageKey } from '../i18n/index.tsx';

export type EventName = SubscribableEventType;
type EnumOf<T extends string> = T extends `${infer A}.${infer B}` ? Uppercase<`${A}_${B}`> : never;
/** The GraphQL `WebhookEventType` value of an event. */
export type EventType = EnumOf<EventName>;

/** The events the picker offers, in the API's order. */
export const PICKER_EVENTS: readonly EventName[] = SUBSCRIBABLE_EVENT_TYPES;

export const eventType = (name: EventName): EventType => name.replace('.', '_').toUpperCase() as EventType;

/** The wire name of a GraphQL value (what receivers see in `type`). */
export const eventName = (type: EventType): EventName => type.toLowerCase().replace('_', '.') as EventName;

/** What the event means, in the UI language (a missing translation fails the type check). */
export const eventLabelKey = (name: EventName): MessageKey => `webhook.eventType.${name}`;
