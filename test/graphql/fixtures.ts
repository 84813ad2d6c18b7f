import { randomBytes } from 'node:crypto';
import { sealSecret } from '../../src/crypto/secret-box.ts';
import type { Db } from '../../src/db/client.ts';
import type { CallStatus, Prisma } from '../../src/generated/prisma/client.ts';

/** Must equal the APP_SECRET of test/graphql/support.ts so sealed webhook secrets open. */
export const APP_SECRET = 'a'.repeat(64);

export const TEMPLATE_DEFINITION = {
  version: 1,
  criteria: [
    { key: 'greeting', label: 'Greets the customer', weight: 5, kind: 'phrase', phrases: ['hello'] },
    { key: 'no_swearing', label: 'No swearing', weight: 3, kind: 'forbidden', phrases: ['damn'] },
  ],
  topics: [{ key: 'billing', label: 'Billing', phrases: ['invoice'] }],
};

/** Two agents with telephony codes (`seed({ agents: ANA_AND_BRUNO })`): the call's agent and another. */
export const ANA_AND_BRUNO = [
  { name: 'Ana García', code: 'AG-07' },
  { name: 'Bruno Díaz', code: 'AG-08' },
];

/** TEMPLATE_DEFINITION's criteria on a call that missed the greeting and did not swear (3 of 8 points). */
export const FAILED_GREETING = [
  {
    key: 'greeting',
    label: 'Greets the customer',
    kind: 'phrase',
    result: 'failed',
    points: 0,
    max_points: 5,
    critical: false,
    evidence: [],
  },
  {
    key: 'no_swearing',
    label: 'No swearing',
    kind: 'forbidden',
    result: 'passed',
    points: 3,
    max_points: 3,
    critical: false,
    evidence: [],
  },
];

export const SEGMENTS = [
  { start: 0, end: 2.5, speaker: 'agent', text: 'Hello, thanks for calling Peña Telecom', channel: 0 },
  { start: 3, end: 6, speaker: 'customer', text: 'I have a question about my invoice', channel: 1 },
];

let n = 0;

export async function insertCall(
  db: Db,
  a: { accountId: string; agentId: string; campaignId?: string | null; templateId?: string | null },
  over: Partial<Prisma.CallUncheckedCreateInput> & { status?: CallStatus } = {},
) {
  n += 1;
  const analyzed = (over.status ?? 'analyzed') === 'analyzed';
  return db.call.create({
    data: {
      accountId: a.accountId,
      agentId: a.agentId,
      campaignId: a.campaignId ?? null,
      templateId: a.templateId ?? null,
      source: 'api',
      status: 'analyzed',
      startedAt: new Date(Date.UTC(2024, 0, 1, 10, 0, n)),
      fileName: `call-${n}.wav`,
      fileSize: 1000n,
      fileSha256: randomBytes(32).toString('hex'),
      contentType: 'audio/wav',
      storageKey: `k/${n}`,
      reservedMinutes: 1,
      period: '2024-01',
      channels: 2,
      durationSeconds: 60 + n,
      language: 'en',
      ...(analyzed && {
        segments: SEGMENTS,
        searchText: 'hello thanks for calling pena telecom i have a question about my invoice',
        score: 80,
        topic: 'billing',
        summary: 'A billing question.',
        criteria: [
          {
            key: 'greeting',
            label: 'Greets the customer',
            kind: 'phrase',
            result: 'passed',
            points: 5,
            max_points: 5,
            critical: false,
            evidence: [{ quote: 'Hello', start: 0, end: 0.5, speaker: 'agent' }],
          },
        ],
        metrics: { duration_seconds: 61 },
        analyzedAt: new Date(),
      }),
      ...over,
    },
  });
}

/** Agent, campaign, default template, an analyzed call with history and a webhook delivery, an API key, an invitation. */
export async function seedData(db: Db, accountId: string, label: string, invitedById: string) {
  const agent = await db.agent.create({
    data: {
      accountId,
      name: `${label} Agent`,
      nameNormalized: `${label.toLowerCase()}agent`,
      code: `${label}-7`,
      codeNormalized: `${label.toLowerCase()}7`,
    },
  });
  const template = await db.template.create({
    data: { accountId, name: `${label} Template`, definition: TEMPLATE_DEFINITION },
  });
  await db.account.update({ where: { id: accountId }, data: { defaultTemplateId: template.id } });
  const campaign = await db.campaign.create({
    data: {
      accountId,
      name: `${label} Campaign`,
      nameNormalized: `${label.toLowerCase()}campaign`,
      templateId: template.id,
    },
  });
  const call = await insertCall(
    db,
    { accountId, agentId: agent.id, campaignId: campaign.id, templateId: template.id },
    { externalId: `${label}-ext`, topic: `${label.toLowerCase()}-topic` },
  );
  await db.callEvent.createMany({
    data: [
      { callId: call.id, status: 'queued' },
      { callId: call.id, status: 'analyzed' },
    ],
  });
  const endpoint = await db.webhookEndpoint.create({
    data: {
      accountId,
      url: `https://${label.toLowerCase()}.example/hook`,
      secretEncrypted: sealSecret(APP_SECRET, `whsec_${label}secret`, accountId),
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: {
      accountId,
      endpointId: endpoint.id,
      callId: call.id,
      eventId: `msg_${label}_${randomBytes(4).toString('hex')}`,
      eventType: 'call.analyzed',
      payload: { data: { id: call.id } },
    },
  });
  await db.webhookAttempt.create({
    data: { deliveryId: delivery.id, attemptNumber: 1, statusCode: 500, durationMs: 12 },
  });
  const apiKey = await db.apiKey.create({
    data: {
      accountId,
      name: `${label} key`,
      prefix: `esk_${randomBytes(4).toString('hex')}`,
      keyHash: randomBytes(32).toString('hex'),
    },
  });
  const invitation = await db.invitation.create({
    data: {
      accountId,
      email: `invitee-${label.toLowerCase()}@example.com`,
      role: 'viewer',
      tokenHash: randomBytes(32).toString('hex'),
      invitedById,
      expiresAt: new Date(Date.now() + 86400_000),
    },
  });
  await db.usagePeriod.create({
    data: { accountId, period: '2024-01', calls: 1, minutesUsed: 2, storageBytes: 1000n },
  });
  // An open dispute of the call's greeting, as an agent would leave it (open_disputes kept in step).
  const dispute = await db.dispute.create({
    data: { accountId, callId: call.id, criterionKey: 'greeting', comment: `${label} says hello was said` },
  });
  await db.call.update({ where: { id: call.id }, data: { openDisputes: 1 } });
  // A coaching item from the call's greeting, for the agent.
  const coaching = await db.coachingItem.create({
    data: { accountId, callId: call.id, agentId: agent.id, criterionKeys: ['greeting'], improve: `${label}: greet` },
  });
  return { agent, template, campaign, call, endpoint, delivery, apiKey, invitation, dispute, coaching };
}

/** One phrase criterion's stored result (5 points), for calls seeded straight into `criteria`. */
export const criterionResult = (key: string, label: string, outcome: 'passed' | 'failed', critical = false) => ({
  key,
  label,
  kind: 'phrase',
  result: outcome,
  points: outcome === 'passed' ? 5 : 0,
  max_points: 5,
  critical,
  evidence: [],
});
