import { DomainError } from '../domain/errors.ts';

/*
 * The webhook error codes, in one place (schema/types/errors.ts sorts them into GraphQL types:
 * `invalid_*` → ValidationError, `webhook_disabled` → ConflictError, `webhook_endpoint_limit` →
 * LimitError). `invalid_webhook_url` and `private_address` are made in address-guard.ts.
 */

export const MAX_ENDPOINTS = 10;

export const endpointLimit = () =>
  new DomainError(
    'webhook_endpoint_limit',
    `An account can have up to ${MAX_ENDPOINTS} webhook endpoints; remove one before adding another.`,
    { limit: MAX_ENDPOINTS },
  );

export const invalidEventTypes = (message: string) => new DomainError('invalid_event_types', message);

export const invalidRate = () =>
  new DomainError('invalid_rate', 'The rate must be a whole number of deliveries per second from 1 to 1000.');

export const invalidSince = (message: string) => new DomainError('invalid_since', message);

export const webhookDisabled = (reason: string | null, action: string) =>
  new DomainError(
    'webhook_disabled',
    `The webhook endpoint is disabled (${reason ?? 'no reason given'}); enable it before ${action}.`,
  );
