import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { openSecret, sealSecret } from '../crypto/secret-box.ts';
import type { Tx } from '../db/client.ts';
import { type AuditBy, recordAuditBy } from '../accounts/audit.ts';
import { notFound } from '../domain/errors.ts';
import type { WebhookEndpoint } from '../generated/prisma/client.ts';
import { validateWebhookUrl } from './address-guard.ts';
import { endpointLimit, invalidEventTypes, invalidRate, MAX_ENDPOINTS } from './errors.ts';
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './kit/events.ts';

/** An endpoint as shown to users and code outside this module: never a sealed secret. */
export type PublicWebhookEndpoint = Omit<WebhookEndpoint, 'secretEncrypted' | 'previousSecretEncrypted'>;

/** An endpoint and the signing secret just made for it: the only time it is shown (besides `reveal`). */
export interface EndpointWithSecret {
  endpoint: PublicWebhookEndpoint;
  secret: string;
}

const hideSecret = { secretEncrypted: true, previousSecretEncrypted: true } as const;

/** The oldest endpoint is "the" endpoint of the single-endpoint API (it was the only one before). */
const firstFirst = [{ createdAt: 'asc' }, { id: 'asc' }] as const;

/** Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (192-bit HMAC key). */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

// The account id is the sealing context: a sealed secret copied to another account will not open.
const seal = (app: AppContext, accountId: string, secret: string) =>
  sealSecret(app.config.appSecret, secret, accountId);

export interface EndpointInput {
  url: string;
  description?: string | null;
  /** Default: call.analyzed only. */
  eventTypes?: readonly string[];
  /** Only calls of this campaign; null for all. */
  campaignId?: string | null;
  ratePerSecond?: number;
}

export async function listWebhookEndpoints(app: AppContext, accountId: string): Promise<PublicWebhookEndpoint[]> {
  return app.db.webhookEndpoint.findMany({ where: { accountId }, orderBy: [...firstFirst], omit: hideSecret });
}

/** The endpoint `id` of the account, or its first endpoint when `id` is not given. */
export async function getWebhookEndpoint(
  app: AppContext,
  accountId: string,
  id?: string | null,
): Promise<PublicWebhookEndpoint | null> {
  return app.db.webhookEndpoint.findFirst({
    where: { accountId, ...(id ? { id } : {}) },
    orderBy: [...firstFirst],
    omit: hideSecret,
  });
}

async function requireEndpoint(app: AppContext, accountId: string, id?: string | null): Promise<WebhookEndpoint> {
  const row = await app.db.webhookEndpoint.findFirst({
    where: { accountId, ...(id ? { id } : {}) },
    orderBy: [...firstFirst],
  });
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

function checkEventTypes(types: readonly string[]): string[] {
  const unique = [...new Set(types)];
  const unknown = unique.filter((t) => !(SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length)
    throw invalidEventTypes(
      `Unknown event type ${unknown.map((t) => `"${t}"`).join(', ')}; an endpoint can subscribe to ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}.`,
    );
  if (unique.length === 0) throw invalidEventTypes('An endpoint must subscribe to at least one event type.');
  return unique;
}

function checkRate(rate: number): number {
  if (!Number.isInteger(rate) || rate < 1 || rate > 1000) throw invalidRate();
  return rate;
}

async function checkCampaign(tx: Tx, accountId: string, campaignId: string | null | undefined) {
  if (!campaignId) return;
  const campaign = await tx.campaign.findFirst({ where: { id: campaignId, accountId }, select: { id: true } });
  if (!campaign) throw notFound('Campaign');
}

/** The audit entry of an endpoint's URL: created (from null), changed, or removed (to null). */
async function auditUrl(
  tx: Tx,
  accountId: string,
  by: AuditBy,
  endpointId: string,
  from: string | null,
  to: string | null,
) {
  if (from === to) return;
  // A removal read "URL changed … → —" (issue 26): created and removed are entries of their own.
  const [action, detail] =
    from == null
      ? (['webhook.endpoint_created', { url: to }] as const)
      : to == null
        ? (['webhook.endpoint_removed', { url: from }] as const)
        : (['webhook.url_changed', { from, to }] as const);
  await recordAuditBy(tx, by, {
    accountId,
    action,
    targetType: 'webhook_endpoint',
    targetId: endpointId,
    detail,
  });
}

/** Serializes endpoint creation per account, so two concurrent adds cannot pass the limit together. */
async function lockAccount(tx: Tx, accountId: string) {
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
}

/** Adds an endpoint (up to MAX_ENDPOINTS); its new secret is returned only now (and by reveal). */
export async function createWebhookEndpoint(
  app: AppContext,
  accountId: string,
  input: EndpointInput,
  by: AuditBy = { system: 'cli' },
): Promise<EndpointWithSecret> {
  const url = await validateWebhookUrl(input.url, { allowPrivate: app.config.webhookAllowPrivate });
  const eventTypes = checkEventTypes(input.eventTypes ?? DEFAULT_EVENT_TYPES);
  const ratePerSecond = checkRate(input.ratePerSecond ?? 10);
  const secret = newSecret();
  const endpoint = await app.db.$transaction(async (tx) => {
    await checkCampaign(tx, accountId, input.campaignId);
    await lockAccount(tx, accountId);
    if ((await tx.webhookEndpoint.count({ where: { accountId } })) >= MAX_ENDPOINTS) throw endpointLimit();
    const created = await tx.webhookEndpoint.create({
      data: {
        accountId,
        url,
        description: input.description?.trim() || null,
        eventTypes,
        campaignId: input.campaignId ?? null,
        ratePerSecond,
        secretEncrypted: seal(app, accountId, secret),
      },
      omit: hideSecret,
    });
    await auditUrl(tx, accountId, by, created.id, null, created.url);
    return created;
  });
  return { endpoint, secret };
}

/** Changes what is given; the secret stays. */
export async function updateWebhookEndpoint(
  app: AppContext,
  accountId: string,
  id: string,
  patch: Partial<EndpointInput>,
  by: AuditBy = { system: 'cli' },
): Promise<PublicWebhookEndpoint> {
  const url =
    patch.url === undefined
      ? undefined
      : await validateWebhookUrl(patch.url, { allowPrivate: app.config.webhookAllowPrivate });
  const eventTypes = patch.eventTypes === undefined ? undefined : checkEventTypes(patch.eventTypes);
  const ratePerSecond = patch.ratePerSecond === undefined ? undefined : checkRate(patch.ratePerSecond);
  return app.db.$transaction(async (tx) => {
    await checkCampaign(tx, accountId, patch.campaignId);
    const before = await tx.webhookEndpoint.findFirst({ where: { id, accountId }, select: { url: true } });
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id, accountId },
      data: {
        url,
        eventTypes,
        ratePerSecond,
        ...(patch.description !== undefined && { description: patch.description?.trim() || null }),
        ...(patch.campaignId !== undefined && { campaignId: patch.campaignId }),
      },
    });
    if (count === 0 || !before) throw notFound('Webhook endpoint');
    if (url !== undefined) await auditUrl(tx, accountId, by, id, before.url, url);
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, omit: hideSecret });
  });
}

/**
 * The single-endpoint API (and `webhook:set`): creates the account's first endpoint, or points it
 * at a new URL (keeping its secret and enabling it again). `secret` is returned only when a new
 * one was made.
 */
export async function setWebhookEndpoint(
  app: AppContext,
  accountId: string,
  url: string,
  by: AuditBy = { system: 'cli' },
): Promise<{ endpoint: PublicWebhookEndpoint; secret: string | null }> {
  const normalized = await validateWebhookUrl(url, { allowPrivate: app.config.webhookAllowPrivate });
  const secret = newSecret();
  return app.db.$transaction(async (tx) => {
    // Locked so two concurrent first saves make one endpoint, not two.
    await lockAccount(tx, accountId);
    const first = await tx.webhookEndpoint.findFirst({ where: { accountId }, orderBy: [...firstFirst] });
    if (!first) {
      const endpoint = await tx.webhookEndpoint.create({
        data: { accountId, url: normalized, secretEncrypted: seal(app, accountId, secret) },
        omit: hideSecret,
      });
      await auditUrl(tx, accountId, by, endpoint.id, null, endpoint.url);
      return { endpoint, secret };
    }
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: first.id },
      data: { url: normalized, ...enabledState(true, null) },
      omit: hideSecret,
    });
    await auditUrl(tx, accountId, by, endpoint.id, first.url, endpoint.url);
    return { endpoint, secret: null };
  });
}

/**
 * A new signing secret. The one it replaces keeps signing too (a second `v1,` signature in the
 * same header) for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver that switches later loses nothing.
 */
export async function rotateWebhookSecret(
  app: AppContext,
  accountId: string,
  id?: string | null,
  by: AuditBy = { system: 'cli' },
): Promise<EndpointWithSecret> {
  const current = await requireEndpoint(app, accountId, id);
  const secret = newSecret();
  const overlapMs = app.config.webhookSecretOverlapHours * 3_600_000;
  // Conditional on the secret being the one read: a concurrent rotation must not be overwritten
  // with a previous secret that no receiver is told about.
  const count = await app.db.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: current.id, secretEncrypted: current.secretEncrypted },
      data: {
        secretEncrypted: seal(app, accountId, secret),
        previousSecretEncrypted: overlapMs > 0 ? current.secretEncrypted : null,
        previousSecretExpiresAt: overlapMs > 0 ? new Date(Date.now() + overlapMs) : null,
      },
    });
    if (count) {
      // Never the secrets themselves: only that it changed, and how long the old one still signs.
      await recordAuditBy(tx, by, {
        accountId,
        action: 'webhook.secret_rotated',
        targetType: 'webhook_endpoint',
        targetId: current.id,
        detail: { url: current.url, overlapHours: app.config.webhookSecretOverlapHours },
      });
    }
    return count;
  });
  if (count === 0) return rotateWebhookSecret(app, accountId, current.id, by);
  return { endpoint: (await getWebhookEndpoint(app, accountId, current.id))!, secret };
}

/**
 * "Issue a new secret now", for an endpoint whose secret cannot be opened (sealed under another
 * APP_SECRET, see src/crypto/key-check.ts): a new secret replaces it and no previous one signs (it
 * cannot be opened either). The endpoint, its delivery history and its pending deliveries stay;
 * those are signed with the new secret from their next attempt (signing happens per attempt).
 */
export async function reissueWebhookSecret(
  app: AppContext,
  accountId: string,
  id: string,
  by: AuditBy = { system: 'cli' },
): Promise<EndpointWithSecret> {
  const current = await requireEndpoint(app, accountId, id);
  const secret = newSecret();
  const endpoint = await app.db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        secretEncrypted: seal(app, accountId, secret),
        previousSecretEncrypted: null,
        previousSecretExpiresAt: null,
      },
      omit: hideSecret,
    });
    await recordAuditBy(tx, by, {
      accountId,
      action: 'webhook.secret_reissued',
      targetType: 'webhook_endpoint',
      targetId: current.id,
      detail: { url: current.url, readableBefore: secretsReadable(app, current) },
    });
    return updated;
  });
  return { endpoint, secret };
}

/** Whether this APP_SECRET opens every secret that signs the endpoint's deliveries now. */
export function secretsReadable(
  app: AppContext,
  endpoint: Pick<
    WebhookEndpoint,
    'accountId' | 'secretEncrypted' | 'previousSecretEncrypted' | 'previousSecretExpiresAt'
  >,
): boolean {
  try {
    openSigningSecrets(app, endpoint);
    return true;
  } catch {
    return false;
  }
}

/** The secret is encrypted, not hashed, precisely so admins can see it again. */
export async function revealWebhookSecret(app: AppContext, accountId: string, id?: string | null): Promise<string> {
  const row = await requireEndpoint(app, accountId, id);
  return openSecret(app.config.appSecret, row.secretEncrypted, accountId);
}

const enabledState = (enabled: boolean, disabledReason: string | null) => ({
  enabled,
  disabledReason,
  disabledAt: enabled ? null : new Date(),
  // Enabling starts the failure clock again: the endpoint gets its full grace period.
  ...(enabled && { failingSince: null }),
});

export async function disableWebhookEndpoint(
  app: AppContext,
  accountId: string,
  reason = 'Disabled by a user',
  id?: string | null,
): Promise<PublicWebhookEndpoint> {
  return setEnabled(app, accountId, id, false, reason);
}

export async function enableWebhookEndpoint(
  app: AppContext,
  accountId: string,
  id?: string | null,
): Promise<PublicWebhookEndpoint> {
  return setEnabled(app, accountId, id, true, null);
}

async function setEnabled(
  app: AppContext,
  accountId: string,
  id: string | null | undefined,
  enabled: boolean,
  reason: string | null,
) {
  const row = await requireEndpoint(app, accountId, id);
  return app.db.webhookEndpoint.update({
    where: { id: row.id },
    data: enabledState(enabled, reason),
    omit: hideSecret,
  });
}

/** Deletes the endpoint together with its delivery history (the schema cascades). */
export async function removeWebhookEndpoint(
  app: AppContext,
  accountId: string,
  id?: string | null,
  by: AuditBy = { system: 'cli' },
): Promise<void> {
  const row = await requireEndpoint(app, accountId, id);
  await app.db.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: row.id } });
    if (count) await auditUrl(tx, accountId, by, row.id, row.url, null);
  });
}

/** The secrets that sign a delivery now: the current one, and the previous one during its overlap. */
export function openSigningSecrets(
  app: AppContext,
  endpoint: Pick<
    WebhookEndpoint,
    'accountId' | 'secretEncrypted' | 'previousSecretEncrypted' | 'previousSecretExpiresAt'
  >,
  now = new Date(),
): string[] {
  const open = (sealed: string) => openSecret(app.config.appSecret, sealed, endpoint.accountId);
  const secrets = [open(endpoint.secretEncrypted)];
  if (endpoint.previousSecretEncrypted && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(open(endpoint.previousSecretEncrypted));
  return secrets;
}
