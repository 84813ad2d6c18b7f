import { randomBytes } from 'node:crypto';
import type { AppContext } from '../app/context.ts';
import { openSecret, sealSecret } from '../crypto/secret-box.ts';
import { notFound } from '../domain/errors.ts';
import type { WebhookEndpoint } from '../generated/prisma/client.ts';
import { validateWebhookUrl } from './address-guard.ts';

/** An endpoint as shown to users and code outside this module: never the sealed secret. */
export type PublicWebhookEndpoint = Omit<WebhookEndpoint, 'secretEncrypted'>;

const hideSecret = { secretEncrypted: true } as const;

/** Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (192-bit HMAC key). */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

// The account id is the sealing context: a sealed secret copied to another account will not open.
const seal = (app: AppContext, accountId: string, secret: string) =>
  sealSecret(app.config.appSecret, secret, accountId);

export async function getWebhookEndpoint(app: AppContext, accountId: string): Promise<PublicWebhookEndpoint | null> {
  return app.db.webhookEndpoint.findUnique({ where: { accountId }, omit: hideSecret });
}

/**
 * Creates the account's endpoint, or points the existing one at a new URL (keeping its secret and
 * enabling it again). `secret` is returned only when a new one was made.
 */
export async function setWebhookEndpoint(
  app: AppContext,
  accountId: string,
  url: string,
): Promise<{ endpoint: PublicWebhookEndpoint; secret: string | null }> {
  const normalized = await validateWebhookUrl(url, { allowPrivate: app.config.webhookAllowPrivate });
  const secret = newSecret();
  // One statement, so two concurrent first saves cannot both create (account_id is unique);
  // xmax = 0 tells a freshly inserted row from an updated one.
  const [row] = await app.db.$queryRaw<{ id: string; inserted: boolean }[]>`
    INSERT INTO webhook_endpoints (id, account_id, url, secret_encrypted)
    VALUES (gen_random_uuid(), ${accountId}::uuid, ${normalized}, ${seal(app, accountId, secret)})
    ON CONFLICT (account_id) DO UPDATE
       SET url = excluded.url, enabled = true, disabled_reason = NULL, updated_at = now()
    RETURNING id, (xmax = 0) AS inserted`;
  const endpoint = await app.db.webhookEndpoint.findUniqueOrThrow({ where: { id: row!.id }, omit: hideSecret });
  return { endpoint, secret: row!.inserted ? secret : null };
}

/** Replaces the signing secret at once; deliveries still pending are signed with the new one. */
export async function rotateWebhookSecret(
  app: AppContext,
  accountId: string,
): Promise<{ endpoint: PublicWebhookEndpoint; secret: string }> {
  const secret = newSecret();
  const { count } = await app.db.webhookEndpoint.updateMany({
    where: { accountId },
    data: { secretEncrypted: seal(app, accountId, secret) },
  });
  if (count === 0) throw notFound('Webhook endpoint');
  return { endpoint: (await getWebhookEndpoint(app, accountId))!, secret };
}

/** The secret is encrypted, not hashed, precisely so admins can see it again. */
export async function revealWebhookSecret(app: AppContext, accountId: string): Promise<string> {
  const row = await app.db.webhookEndpoint.findUnique({ where: { accountId }, select: { secretEncrypted: true } });
  if (!row) throw notFound('Webhook endpoint');
  return openSecret(app.config.appSecret, row.secretEncrypted, accountId);
}

export async function disableWebhookEndpoint(
  app: AppContext,
  accountId: string,
  reason = 'Disabled by a user',
): Promise<PublicWebhookEndpoint> {
  return setEnabled(app, accountId, false, reason);
}

export async function enableWebhookEndpoint(app: AppContext, accountId: string): Promise<PublicWebhookEndpoint> {
  return setEnabled(app, accountId, true, null);
}

async function setEnabled(app: AppContext, accountId: string, enabled: boolean, disabledReason: string | null) {
  const { count } = await app.db.webhookEndpoint.updateMany({
    where: { accountId },
    data: { enabled, disabledReason },
  });
  if (count === 0) throw notFound('Webhook endpoint');
  return (await getWebhookEndpoint(app, accountId))!;
}

/** Deletes the endpoint together with its delivery history (the schema cascades). */
export async function removeWebhookEndpoint(app: AppContext, accountId: string): Promise<void> {
  const { count } = await app.db.webhookEndpoint.deleteMany({ where: { accountId } });
  if (count === 0) throw notFound('Webhook endpoint');
}

/** For signing deliveries. */
export function openEndpointSecret(
  app: AppContext,
  endpoint: Pick<WebhookEndpoint, 'accountId' | 'secretEncrypted'>,
): string {
  return openSecret(app.config.appSecret, endpoint.secretEncrypted, endpoint.accountId);
}
