import { builder, MAX_PAGE_SIZE } from '../builder.ts';
import { redeliver } from '../../src/webhooks/deliver.ts';
import {
  createWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  removeWebhookEndpoint,
  revealWebhookSecret,
  rotateWebhookSecret,
  secretsReadable,
  setWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../src/webhooks/endpoints.ts';
import { sendTestEvent } from '../../src/webhooks/enqueue.ts';
import type { SubscribableEventType } from '../../src/webhooks/kit/events.ts';
import { healWebhookEndpoint } from '../../src/webhooks/heal.ts';
import { startReplay } from '../../src/webhooks/replay.ts';
import { blindDeliveriesWhere } from '../../src/calibration/read.ts';
import { notFound } from '../../src/domain/errors.ts';
import { accountIdOf, byUser, directErrors, parseUuid, sessionOf, uuidOrNull, wrappedErrors } from './common.ts';

const DeliveryStatusEnum = builder.enumType('DeliveryStatus', {
  values: { PENDING: { value: 'pending' }, SUCCEEDED: { value: 'succeeded' }, FAILED: { value: 'failed' } } as const,
});

const WebhookEventTypeEnum = builder.enumType('WebhookEventType', {
  description:
    'Events an endpoint can subscribe to. `call.analyzed` is the default; the others are opt-in. Payloads: /v1/webhooks/schema.json.',
  values: {
    CALL_ANALYZED: { value: 'call.analyzed', description: 'A call was transcribed and scored.' },
    CALL_REVIEWED: {
      value: 'call.reviewed',
      description: 'A person overrode a criterion of an analyzed call (the reviewed data and the change).',
    },
    CALL_FAILED: { value: 'call.failed', description: 'A call could not be processed.' },
    WEBHOOK_DISABLED: {
      value: 'webhook.disabled',
      description: 'Another endpoint of the account was disabled after failing for days.',
    },
    COACHING_ASSIGNED: {
      value: 'coaching.assigned',
      description: "A coaching item was assigned to a call's agent.",
    },
    COACHING_COMPLETED: { value: 'coaching.completed', description: 'A coaching item was marked done.' },
  } as const,
});

const ReplayStatusEnum = builder.enumType('WebhookReplayStatus', {
  values: {
    RUNNING: { value: 'running' },
    FINISHED: { value: 'finished' },
    STOPPED: { value: 'stopped', description: 'The endpoint was disabled while the replay ran.' },
  } as const,
});

/** An optional endpoint id: the account's first endpoint when absent; malformed ids are not found. */
const endpointIdArg = (id: string | number | null | undefined) =>
  id == null ? null : parseUuid(id, 'Webhook endpoint');

builder.prismaObject('WebhookEndpoint', {
  description:
    'Where events are POSTed (Standard Webhooks signatures); up to 10 per account. Owners and admins. The signing secret is never a field: see `revealWebhookSecret`.',
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.field({
      type: [WebhookEventTypeEnum],
      select: { eventTypes: true },
      resolve: (e) => e.eventTypes as SubscribableEventType[],
    }),
    campaign: t.relation('campaign', {
      nullable: true,
      description: 'Only calls of this campaign are sent; null for every call.',
    }),
    ratePerSecond: t.exposeInt('ratePerSecond', { description: 'Deliveries per second a bulk replay sends.' }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why it stopped, e.g. the receiver answered 410 Gone.',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description:
        'Every attempt since then failed; WEBHOOK_DISABLE_AFTER_DAYS after it the endpoint is disabled. Null while it works.',
    }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation, the previous secret also signs every delivery until then.',
      select: { previousSecretExpiresAt: true },
      resolve: (e) =>
        e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date() ? e.previousSecretExpiresAt : null,
    }),
    secretReadable: t.boolean({
      description:
        'False when this service cannot open the signing secret (it was sealed under another APP_SECRET): every delivery fails until `reissueWebhookSecret`.',
      select: { accountId: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true },
      resolve: (e, _a, ctx) => secretsReadable(ctx.app, e),
    }),
    replays: t.relation('replays', {
      description: 'The latest bulk replays, newest first.',
      query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 5 },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('WebhookReplay', {
  description: 'A bulk redelivery of the failed deliveries of one endpoint since a time, run as a job.',
  fields: (t) => ({
    id: t.exposeID('id'),
    since: t.expose('since', { type: 'DateTime' }),
    status: t.field({ type: ReplayStatusEnum, resolve: (r) => r.status as 'running' | 'finished' | 'stopped' }),
    total: t.exposeInt('total'),
    attempted: t.exposeInt('attempted'),
    succeeded: t.exposeInt('succeeded'),
    failed: t.exposeInt('failed'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('WebhookDelivery', {
  description: 'One event for one endpoint, with every attempt to deliver it. Every role can read deliveries.',
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeID('endpointId', { description: 'The endpoint it is for.' }),
    eventId: t.exposeString('eventId', {
      description: 'The `webhook-id` header; the same on every attempt and redelivery, and for every endpoint.',
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
    responseHeaders: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The reply headers that matter: `retry-after` and `content-type`, when sent.',
      resolve: (a) => a.responseHeaders,
    }),
    manual: t.exposeBoolean('manual', {
      description: "A user's redelivery or bulk replay rather than the automatic schedule.",
    }),
  }),
});

const EndpointWithSecret = builder
  .objectRef<{ endpointId: string; secret: string | null }>('WebhookEndpointWithSecret')
  .implement({
    fields: (t) => ({
      endpoint: t.prismaField({
        type: 'WebhookEndpoint',
        resolve: (query, p, _a, ctx) =>
          ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: p.endpointId } }),
      }),
      secret: t.exposeString('secret', {
        nullable: true,
        description:
          'The signing secret (`whsec_…`) when a new one was made; null when an existing endpoint kept its secret.',
      }),
    }),
  });

const WebhookEndpointInput = builder.inputType('WebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    description: t.string(),
    eventTypes: t.field({ type: [WebhookEventTypeEnum], description: 'Default: CALL_ANALYZED only.' }),
    campaignId: t.id({ description: 'Only calls of this campaign; null for every call.' }),
    ratePerSecond: t.int({ description: 'Deliveries per second a bulk replay sends (1–1000, default 10).' }),
  }),
});
const WebhookEndpointPatch = builder.inputType('WebhookEndpointPatch', {
  description: 'Only the fields given change; null clears description or campaign. The secret stays.',
  fields: (t) => ({
    url: t.string(),
    description: t.string(),
    eventTypes: t.field({ type: [WebhookEventTypeEnum] }),
    campaignId: t.id(),
    ratePerSecond: t.int(),
  }),
});

const campaignIdOf = (id: string | number | null | undefined) =>
  id === undefined ? undefined : id === null || id === '' ? null : parseUuid(id, 'Campaign');

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaField({
    type: ['WebhookEndpoint'],
    authScopes: { admin: true },
    description: 'Every endpoint of the account, oldest first.',
    resolve: (query, _r, _a, ctx) =>
      ctx.app.db.webhookEndpoint.findMany({
        ...query,
        where: { accountId: accountIdOf(ctx) },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
  }),
  webhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    nullable: true,
    authScopes: { admin: true },
    description: "The endpoint `id`, or the account's first (oldest) endpoint when no id is given.",
    args: { id: t.arg.id() },
    resolve: (query, _r, args, ctx) => {
      const id = args.id == null ? undefined : uuidOrNull(args.id);
      if (id === null) return null;
      return ctx.app.db.webhookEndpoint.findFirst({
        ...query,
        where: { accountId: accountIdOf(ctx), ...(id ? { id } : {}) },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
    },
  }),
  webhookDeliveries: t.prismaConnection({
    type: 'WebhookDelivery',
    cursor: 'id',
    authScopes: { member: true },
    defaultSize: 20,
    maxSize: MAX_PAGE_SIZE,
    description: 'Newest first.',
    args: { status: t.arg({ type: DeliveryStatusEnum }), callId: t.arg.id(), endpointId: t.arg.id() },
    resolve: (query, _r, args, ctx) => {
      const callId = args.callId == null ? undefined : uuidOrNull(args.callId);
      const endpointId = args.endpointId == null ? undefined : uuidOrNull(args.endpointId);
      if (callId === null || endpointId === null) return [];
      return ctx.app.db.webhookDelivery.findMany({
        ...query,
        where: {
          accountId: accountIdOf(ctx),
          // A delivery's payload carries its call's score and verdicts: none of a call the reader
          // grades blind (src/calibration/read.ts).
          ...blindDeliveriesWhere(sessionOf(ctx).user.id),
          ...(args.status ? { status: args.status } : {}),
          ...(callId ? { callId } : {}),
          ...(endpointId ? { endpointId } : {}),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
}));

builder.mutationFields((t) => {
  const optionalId = () => ({
    id: t.arg.id({ description: "The endpoint; the account's first (oldest) endpoint when not given." }),
  });
  const endpointField = (
    description: string,
    run: (ctx: Parameters<typeof accountIdOf>[0], accountId: string, id: string | null) => Promise<{ id: string }>,
  ) =>
    t.prismaField({
      type: 'WebhookEndpoint',
      authScopes: { admin: true },
      errors: directErrors,
      description,
      args: optionalId(),
      resolve: async (query, _r, args, ctx) => {
        const endpoint = await run(ctx, accountIdOf(ctx), endpointIdArg(args.id));
        return ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpoint.id } });
      },
    });

  return {
    setWebhookEndpoint: t.field({
      type: EndpointWithSecret,
      authScopes: { admin: true },
      errors: directErrors,
      description:
        "Creates the account's first endpoint (the secret is returned) or points it at a new URL and enables it (secret unchanged, returned null). Errors: `invalid_webhook_url`, `private_address`.",
      args: { url: t.arg.string({ required: true }) },
      resolve: async (_r, args, ctx) => {
        const { endpoint, secret } = await setWebhookEndpoint(ctx.app, accountIdOf(ctx), args.url, byUser(ctx));
        return { endpointId: endpoint.id, secret };
      },
    }),
    createWebhookEndpoint: t.field({
      type: EndpointWithSecret,
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'Adds an endpoint; its secret is returned. Errors: `invalid_webhook_url`, `private_address`, `invalid_event_types`, `invalid_rate`, `not_found` (campaign), `webhook_endpoint_limit` (10).',
      args: { input: t.arg({ type: WebhookEndpointInput, required: true }) },
      resolve: async (_r, { input }, ctx) => {
        const { endpoint, secret } = await createWebhookEndpoint(
          ctx.app,
          accountIdOf(ctx),
          {
            url: input.url,
            description: input.description,
            eventTypes: input.eventTypes ?? undefined,
            campaignId: campaignIdOf(input.campaignId) ?? null,
            ratePerSecond: input.ratePerSecond ?? undefined,
          },
          byUser(ctx),
        );
        return { endpointId: endpoint.id, secret };
      },
    }),
    updateWebhookEndpoint: t.prismaField({
      type: 'WebhookEndpoint',
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'Errors: `invalid_webhook_url`, `private_address`, `invalid_event_types`, `invalid_rate`, `not_found` (endpoint or campaign).',
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: WebhookEndpointPatch, required: true }) },
      resolve: async (query, _r, { id, input }, ctx) => {
        const endpoint = await updateWebhookEndpoint(
          ctx.app,
          accountIdOf(ctx),
          parseUuid(id, 'Webhook endpoint'),
          {
            ...(input.url != null && { url: input.url }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.eventTypes != null && { eventTypes: input.eventTypes }),
            ...(input.campaignId !== undefined && { campaignId: campaignIdOf(input.campaignId) }),
            ...(input.ratePerSecond != null && { ratePerSecond: input.ratePerSecond }),
          },
          byUser(ctx),
        );
        return ctx.app.db.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpoint.id } });
      },
    }),
    rotateWebhookSecret: t.field({
      type: EndpointWithSecret,
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'A new signing secret. The previous one keeps signing too (a second `v1,` signature) until `previousSecretExpiresAt` (WEBHOOK_SECRET_OVERLAP_HOURS, default 24), so receivers can switch without losing deliveries.',
      args: optionalId(),
      resolve: async (_r, args, ctx) => {
        const { endpoint, secret } = await rotateWebhookSecret(
          ctx.app,
          accountIdOf(ctx),
          endpointIdArg(args.id),
          byUser(ctx),
        );
        return { endpointId: endpoint.id, secret };
      },
    }),
    reissueWebhookSecret: t.field({
      type: EndpointWithSecret,
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'For an endpoint whose secret cannot be opened (`secretReadable: false`): a new signing secret now, with no overlap (the old one cannot sign). The endpoint, its history and its pending deliveries stay (signed with the new secret from their next attempt), and the deliveries that failed meanwhile are replayed (see `replays`).',
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_r, args, ctx) => {
        const { endpoint, secret } = await healWebhookEndpoint(
          ctx.app,
          accountIdOf(ctx),
          parseUuid(args.id, 'Webhook endpoint'),
          byUser(ctx),
        );
        return { endpointId: endpoint.id, secret };
      },
    }),
    revealWebhookSecret: t.string({
      authScopes: { admin: true },
      errors: wrappedErrors,
      description: 'The current signing secret. Logged as an audit event.',
      args: optionalId(),
      resolve: async (_r, args, ctx) => {
        const id = endpointIdArg(args.id);
        const secret = await revealWebhookSecret(ctx.app, accountIdOf(ctx), id);
        ctx.app.log.info(
          { userId: ctx.session?.user.id, accountId: accountIdOf(ctx), endpointId: id },
          'webhook secret revealed',
        );
        return secret;
      },
    }),
    disableWebhookEndpoint: endpointField('Stops deliveries to the endpoint.', (ctx, accountId, id) =>
      disableWebhookEndpoint(ctx.app, accountId, undefined, id),
    ),
    enableWebhookEndpoint: endpointField('Resumes deliveries and restarts its failure clock.', (ctx, accountId, id) =>
      enableWebhookEndpoint(ctx.app, accountId, id),
    ),
    removeWebhookEndpoint: t.boolean({
      authScopes: { admin: true },
      errors: wrappedErrors,
      description: 'Deletes the endpoint and its delivery history.',
      args: optionalId(),
      resolve: async (_r, args, ctx) => {
        await removeWebhookEndpoint(ctx.app, accountIdOf(ctx), endpointIdArg(args.id), byUser(ctx));
        return true;
      },
    }),
    sendTestWebhook: t.prismaField({
      type: 'WebhookDelivery',
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'Queues a `webhook.test` event (one attempt). Errors: `not_found` (no endpoint), `webhook_disabled`.',
      args: optionalId(),
      resolve: async (query, _r, args, ctx) => {
        const delivery = await sendTestEvent(ctx.app, accountIdOf(ctx), endpointIdArg(args.id));
        return ctx.app.db.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: delivery.id } });
      },
    }),
    redeliverWebhook: t.prismaField({
      type: 'WebhookAttempt',
      authScopes: { admin: true },
      errors: directErrors,
      description:
        'One attempt now with the same `webhook-id`, recorded as manual; waits for the receiver (up to 15 s).',
      args: { deliveryId: t.arg.id({ required: true }) },
      resolve: async (query, _r, args, ctx) => {
        const id = parseUuid(args.deliveryId, 'Webhook delivery');
        // A delivery of a call the admin grades blind is unknown to them, as in `webhookDeliveries`.
        const visible = { id, accountId: accountIdOf(ctx), ...blindDeliveriesWhere(sessionOf(ctx).user.id) };
        if (!(await ctx.app.db.webhookDelivery.count({ where: visible }))) throw notFound('Webhook delivery');
        const attempt = await redeliver(ctx.app, accountIdOf(ctx), id);
        return ctx.app.db.webhookAttempt.findUniqueOrThrow({ ...query, where: { id: attempt.id } });
      },
    }),
    replayWebhookDeliveries: t.prismaField({
      type: 'WebhookReplay',
      authScopes: { admin: true },
      errors: directErrors,
      description:
        "Redelivers every delivery of the endpoint since `since` that has not succeeded, in a job, with the original `webhook-id`s, at the endpoint's rate. Follow its progress on `WebhookEndpoint.replays`. Errors: `not_found`, `webhook_disabled`, `invalid_since`.",
      args: { id: t.arg.id({ required: true }), since: t.arg({ type: 'DateTime', required: true }) },
      resolve: async (query, _r, args, ctx) => {
        const replay = await startReplay(
          ctx.app,
          accountIdOf(ctx),
          parseUuid(args.id, 'Webhook endpoint'),
          args.since as Date,
        );
        return ctx.app.db.webhookReplay.findUniqueOrThrow({ ...query, where: { id: replay.id } });
      },
    }),
  };
});
