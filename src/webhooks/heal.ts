import type { AppContext } from '../context.ts';
import type { AuditBy } from '../accounts/audit.ts';
import type { WebhookReplay } from '../generated/prisma/client.ts';
import { type PublicWebhookEndpoint, reissueWebhookSecret } from './endpoints.ts';
import { startReplay } from './replay.ts';

/**
 * Heals an endpoint whose secret cannot be opened (issue 25.2): a new secret now (the endpoint, its
 * history and its pending deliveries stay), then a replay of every delivery that failed meanwhile,
 * from the oldest one not yet delivered — signed with the new secret, with their original event ids.
 */
export async function healWebhookEndpoint(
  app: AppContext,
  accountId: string,
  id: string,
  by: AuditBy,
): Promise<{ endpoint: PublicWebhookEndpoint; secret: string; replay: WebhookReplay | null }> {
  const { endpoint, secret } = await reissueWebhookSecret(app, accountId, id, by);
  const oldest = await app.db.webhookDelivery.findFirst({
    where: {
      endpointId: endpoint.id,
      OR: [{ status: 'failed' }, { status: 'pending', attemptCount: { gt: 0 } }],
    },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  // A disabled endpoint is healed too; its replay waits until someone enables it.
  const replay = oldest && endpoint.enabled ? await startReplay(app, accountId, endpoint.id, oldest.createdAt) : null;
  return { endpoint, secret, replay };
}
