import { builder, MAX_PAGE_SIZE } from '../builder.ts';
import { redeliver } from '../../src/webhooks/deliver.ts';
import {
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  removeWebhookEndpoint,
  revealWebhookSecret,
  rotateWebhookSecret,
  setWebhookEndpoint,
} from '../../src/webhooks/endpoints.ts';
import { sendTestEvent } from '../../src/webhooks/enqueue.ts';
import { accountIdOf, directErrors, parseUuid, uuidOrNull, wrappedErrors } from './common.ts';

const DeliveryStatusEnum = builder.enumType('DeliveryStatus', {
  values: { PENDING: { value: 'pending' }, SUCCEEDED: { value: 'succeeded' }, FAILED: { value: 'failed' } } as const,
});

builder.prismaObject('WebhookEndpoint', {
  description:
    'Where `call.analyzed` events are POSTed (Standard Webhooks signatures). Owners and admins. The signing secret is never a field: see `revealWebhookSecret`.',
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why it stopped, e.g. the receiver answered 410 Gone.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('WebhookDelivery', {
  description: 'One event for the webhook, with every attempt to deliver it. Every role can read deliveries.',
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeString('eventId', {
      description: 'The `webhook-id` header; the same on every attempt and redelivery.',
    }),
    eventType: t.exposeString('eventType'),
    status: t.expose('status', { type: DeliveryStatusEnum }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    payload: t.expose('payload', { type: 'JSON', description: 'The body as sent.' }),
    call: t.relation('call', { nullable: true }),
    attempts: t.relation('attempts', { query: { orderBy: [{ at: 'asc' }, { id: 'asc' }] } }),
  }),
});

builder.prismaObject('WebhookAttempt', {
  fields: (t) => ({
    id: t.id({ resolve: (a) => String(a.id) }),
    attemptNumber: t.exposeInt('attemptNumber'),
    at: t.expose('at', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: 'Null when no HTTP answer came (timeout, refused, DNS).',
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    manual: t.exposeBoolean('manual', { description: "A user's redelivery rather than the automatic schedule." }),
  }),
});

const EndpointWithSecret = builder
  .objectRef<{ accountId: string; secret: string | null }>('WebhookEndpointWithSecret')
  .implement({
    fields: (t) => ({
      endpoint: t.prismaField({
        type: 'WebhookEndpoint',
        resolve: (query, p, _a, ctx) =>
          ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { accountId: p.accountId } }),
      }),
      secret: t.exposeString('secret', {
        nullable: true,
        description:
          'The signing secret (`whsec_…`) when a new one was made; null when an existing endpoint kept its secret.',
      }),
    }),
  });

builder.queryFields((t) => ({
  webhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    nullable: true,
    authScopes: { admin: true },
    resolve: (query, _r, _a, ctx) =>
      ctx.app.db.webhookEndpoint.findUnique({ ...query, where: { accountId: accountIdOf(ctx) } }),
  }),
  webhookDeliveries: t.prismaConnection({
    type: 'WebhookDelivery',
    cursor: 'id',
    authScopes: { member: true },
    defaultSize: 20,
    maxSize: MAX_PAGE_SIZE,
    description: 'Newest first.',
    args: { status: t.arg({ type: DeliveryStatusEnum }), callId: t.arg.id() },
    resolve: (query, _r, args, ctx) => {
      const callId = args.callId == null ? undefined : uuidOrNull(args.callId);
      if (callId === null) return [];
      return ctx.app.db.webhookDelivery.findMany({
        ...query,
        where: {
          accountId: accountIdOf(ctx),
          ...(args.status ? { status: args.status } : {}),
          ...(callId ? { callId } : {}),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  setWebhookEndpoint: t.field({
    type: EndpointWithSecret,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Creates the endpoint (the secret is returned) or points it at a new URL and enables it (secret unchanged, returned null). Errors: `invalid_webhook_url`, `private_address`.',
    args: { url: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const accountId = accountIdOf(ctx);
      const { secret } = await setWebhookEndpoint(ctx.app, accountId, args.url);
      return { accountId, secret };
    },
  }),
  rotateWebhookSecret: t.field({
    type: EndpointWithSecret,
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Replaces the signing secret at once; pending deliveries are signed with the new one.',
    resolve: async (_r, _a, ctx) => {
      const accountId = accountIdOf(ctx);
      const { secret } = await rotateWebhookSecret(ctx.app, accountId);
      return { accountId, secret };
    },
  }),
  revealWebhookSecret: t.string({
    authScopes: { admin: true },
    errors: wrappedErrors,
    description: 'The current signing secret. Logged as an audit event.',
    resolve: async (_r, _a, ctx) => {
      const secret = await revealWebhookSecret(ctx.app, accountIdOf(ctx));
      ctx.app.log.info({ userId: ctx.session?.user.id, accountId: accountIdOf(ctx) }, 'webhook secret revealed');
      return secret;
    },
  }),
  disableWebhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    authScopes: { admin: true },
    errors: directErrors,
    resolve: async (query, _r, _a, ctx) => {
      const accountId = accountIdOf(ctx);
      await disableWebhookEndpoint(ctx.app, accountId);
      return ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { accountId } });
    },
  }),
  enableWebhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    authScopes: { admin: true },
    errors: directErrors,
    resolve: async (query, _r, _a, ctx) => {
      const accountId = accountIdOf(ctx);
      await enableWebhookEndpoint(ctx.app, accountId);
      return ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { accountId } });
    },
  }),
  removeWebhookEndpoint: t.boolean({
    authScopes: { admin: true },
    errors: wrappedErrors,
    description: 'Deletes the endpoint and its delivery history.',
    resolve: async (_r, _a, ctx) => {
      await removeWebhookEndpoint(ctx.app, accountIdOf(ctx));
      return true;
    },
  }),
  sendTestWebhook: t.prismaField({
    type: 'WebhookDelivery',
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Queues a `webhook.test` event (one attempt). Errors: `not_found` (no endpoint), `webhook_disabled`.',
    resolve: async (query, _r, _a, ctx) => {
      const delivery = await sendTestEvent(ctx.app, accountIdOf(ctx));
      return ctx.app.db.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: delivery.id } });
    },
  }),
  redeliverWebhook: t.prismaField({
    type: 'WebhookAttempt',
    authScopes: { admin: true },
    errors: directErrors,
    description: 'One attempt now with the same `webhook-id`, recorded as manual; waits for the receiver (up to 15 s).',
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const attempt = await redeliver(ctx.app, accountIdOf(ctx), parseUuid(args.deliveryId, 'Webhook delivery'));
      return ctx.app.db.webhookAttempt.findUniqueOrThrow({ ...query, where: { id: attempt.id } });
    },
  }),
}));
