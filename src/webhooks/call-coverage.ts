import type { Db } from '../db/client.ts';

/**
 * Why a call's page lists no webhook event, said truthfully (issue 26): "set a webhook" only when the
 * account has none; otherwise which event the call's outcome sends and how many of the account's
 * endpoints would receive it (subscribed, enabled, and for all campaigns or the call's own).
 */
export interface CallWebhookCoverage {
  /** The event this call's outcome sends (`call.analyzed`, `call.failed`); null while it is processed. */
  event: string | null;
  /** Every endpoint of the account. */
  endpoints: number;
  /** Those that take this call's campaign (all campaigns, or this one). */
  forCampaign: number;
  /** Of those, the ones subscribed to `event`. */
  subscribed: number;
  /** Of those, the ones enabled: the ones that were or will be sent the event. */
  enabled: number;
}

const OUTCOME_EVENT: Record<string, string> = { analyzed: 'call.analyzed', failed: 'call.failed' };

export async function callWebhookCoverage(
  db: Db,
  call: { accountId: string; campaignId: string | null; status: string },
): Promise<CallWebhookCoverage> {
  const event = OUTCOME_EVENT[call.status.toLowerCase()] ?? null;
  const rows = await db.webhookEndpoint.findMany({
    where: { accountId: call.accountId },
    select: { campaignId: true, eventTypes: true, enabled: true },
  });
  const forCampaign = rows.filter((e) => e.campaignId == null || e.campaignId === call.campaignId);
  const subscribed = event ? forCampaign.filter((e) => e.eventTypes.includes(event)) : [];
  return {
    event,
    endpoints: rows.length,
    forCampaign: forCampaign.length,
    subscribed: subscribed.length,
    enabled: subscribed.filter((e) => e.enabled).length,
  };
}
