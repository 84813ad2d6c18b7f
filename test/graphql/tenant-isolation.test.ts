import { describe, expect } from '../support/harness.ts';
import { schema } from '../../schema/index.ts';
import { roleAtLeast } from '../../src/accounts/users.ts';
import type { UserRole } from '../../src/generated/prisma/client.ts';
import type { TestDb } from '../support/db.ts';
import { seedData } from './fixtures.ts';
import { Browser, seedAccount, signedInUser, type Harness, test } from './support.ts';

let t: TestDb;
let h: Harness;
let A: Awaited<ReturnType<typeof seedAccount>>;
let B: Awaited<ReturnType<typeof seedAccount>>;
let a: Awaited<ReturnType<typeof seedData>> & { bulk: { id: string }; tombstone: string; calibration: string };
/** A's agent user (role agent, linked to A's agent): sees only that agent's calls. */
let agentA: Browser;

test.beforeAll(async ({ db: testDb, gql, acme: acmeAccount }) => {
  t = testDb;
  h = gql;
  A = acmeAccount;
  B = await seedAccount(h, 'Bolt');
  const seeded = await seedData(h.app.db, A.account.id, 'Acme', A.users.owner.id);
  // A running bulk re-analysis of A's (no job: nothing runs in this file).
  const bulk = await h.app.db.bulkReanalysis.create({
    data: { accountId: A.account.id, requestedById: A.users.owner.id, filter: {}, total: 1 },
  });
  // A deleted call of A's (its tombstone): B learns nothing of it either.
  const tombstone = await h.app.db.callTombstone.create({
    data: { id: crypto.randomUUID(), accountId: A.account.id, deletedById: A.users.owner.id },
  });
  // An open calibration of A's call, graded by A's analyst.
  const calibration = await h.app.db.calibrationSession.create({
    data: {
      accountId: A.account.id,
      name: 'Acme calibration',
      templateId: seeded.template.id,
      criteria: [{ key: 'greeting', label: 'Greets the customer' }],
      calls: { create: [{ callId: seeded.call.id, position: 0 }] },
      graders: { create: [{ userId: A.users.analyst.id }] },
    },
  });
  a = { ...seeded, bulk, tombstone: tombstone.id, calibration: calibration.id };
  await seedData(h.app.db, B.account.id, 'Bolt', B.users.owner.id);
  agentA = await signedInUser(h.app.db, h.url, A.account.id, {
    role: 'agent',
    name: 'Acme agent user',
    agentId: a.agent.id,
    email: `agent-${A.account.id.slice(0, 8)}@example.com`,
  });
});

/**
 * How a user of account B fares with account A's ids:
 * - `null`: a lookup answers null;
 * - `notFound`: a mutation answers NotFoundError;
 * - `own`: the field works on B's own data only (lists, creation, self-service) and `check` says how.
 * In every case the whole response must not mention any of A's ids or names, and A's rows must not change.
 */
type Expect = { kind: 'null' } | { kind: 'notFound' } | { kind: 'own'; check?: (value: any) => void };
interface Case {
  doc: (ids: Ids) => string;
  expect: Expect;
  /** Minimum role (from the field's auth scope); a session-less public field has none. */
}
type Ids = Awaited<ReturnType<typeof seedData>> & {
  userId: string;
  bulk: { id: string };
  tombstone: string;
  calibration: string;
};

const R = `__typename ... on Error { code }`;
const JAN = `from: "2024-01-01", to: "2024-01-31"`;
const dayFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const AROUND_TODAY = `from: "${dayFromNow(-2)}", to: "${dayFromNow(2)}"`;
const nul: Expect = { kind: 'null' };
const nf: Expect = { kind: 'notFound' };
const own = (check?: (v: any) => void): Expect => ({ kind: 'own', ...(check && { check }) });
const typename = (name: string) => own((v) => expect(v.__typename).toBe(name));
const code = (c: string) => own((v) => expect(v.code).toBe(c));

// Mutations are listed in the order they run. The webhook endpoint mutations take A's endpoint
// id (not found for B); setWebhookEndpoint, without an id, changes B's own first endpoint.
const QUERIES: Record<string, Case> = {
  calibrationSessions: { doc: () => `{ calibrationSessions { id name } }`, expect: own((v) => expect(v).toEqual([])) },
  calibrationSession: { doc: (i) => `{ calibrationSession(id: "${i.calibration}") { id name } }`, expect: nul },
  machineAgreement: {
    doc: () => `{ machineAgreement { threshold rows { criterionKey checked } } }`,
    expect: own((v) => expect(v).toEqual({ threshold: 80, rows: [] })),
  },
  session: { doc: () => `{ session { user { id email } } }`, expect: own() },
  me: { doc: () => `{ me { id email role } }`, expect: own() },
  // Service-wide readiness, no account data in it.
  serviceStatus: {
    doc: () => `{ serviceStatus { ready problems { check message } } }`,
    expect: own((v) => expect(v.ready).toBe(true)),
  },
  account: {
    doc: () =>
      `{ account { id name plan { seats } defaultTemplate { id name } retentionRecordingDays retentionTranscriptDays reviewSamplePercent monoSpeakers } }`,
    expect: own((v) => expect(v.name).toBe('Bolt')),
  },
  users: { doc: () => `{ users { id email } }`, expect: own((v) => expect(v).toHaveLength(4)) },
  invitations: { doc: () => `{ invitations { id email } }`, expect: own((v) => expect(v).toHaveLength(1)) },
  agents: {
    doc: () => `{ agents(includeInactive: true) { id name } }`,
    expect: own((v) => expect(v.map((x: any) => x.name)).toEqual(['Bolt Agent'])),
  },
  agent: { doc: (i) => `{ agent(id: "${i.agent.id}") { id name } }`, expect: nul },
  seats: { doc: () => `{ seats { used total } }`, expect: own((v) => expect(v.used).toBe(1)) },
  campaigns: {
    doc: () => `{ campaigns(includeArchived: true) { id name template { id } } }`,
    expect: own((v) => expect(v).toHaveLength(1)),
  },
  campaign: { doc: (i) => `{ campaign(id: "${i.campaign.id}") { id } }`, expect: nul },
  templates: { doc: () => `{ templates { id name } }`, expect: own((v) => expect(v).toHaveLength(1)) },
  template: { doc: (i) => `{ template(id: "${i.template.id}") { id } }`, expect: nul },
  calls: {
    doc: (i) =>
      `{ calls(first: 100, filter: { agentIds: ["${i.agent.id}"], campaignIds: ["${i.campaign.id}"] }) { totalCount edges { node { id } } } }`,
    expect: own((v) => expect(v).toEqual({ totalCount: 0, edges: [] })),
  },
  call: {
    doc: (i) =>
      `{ call(id: "${i.call.id}") { id transcript { text } audioSnrDb audioQuality diarized diarizationConfidence recordingDeletedAt transcriptDeletedAt autoScore reviewedAt reviewedBy { id } openDisputes acknowledgedAt disputeWindowClosesAt criteria { autoResult reviewed reviewNote reviewedByName reviewedAt lowConfidence } reviews { note } comments { body } disputes { comment events { status } } sentiment { customer { label score } customerTrend segments { label } } } }`,
    expect: nul,
  },
  deletedCall: { doc: (i) => `{ deletedCall(id: "${i.tombstone}") { id deletedAt deletedByName } }`, expect: nul },
  callsToDeleteCount: {
    doc: (i) => `{ callsToDeleteCount(filter: { agentIds: ["${i.agent.id}"] }) }`,
    expect: own((v) => expect(v).toBe(0)),
  },
  auditActions: { doc: () => `{ auditActions }`, expect: own((v) => expect(v).toContain('call.deleted')) },
  auditLog: {
    doc: () =>
      `{ auditLog(first: 100) { edges { node { id action actor { id email } targetType targetId detail createdAt } } } }`,
    // B's own entries only (its seed wrote none through audited paths); A's never appear (markers).
    expect: own((v) => expect(Array.isArray(v.edges)).toBe(true)),
  },
  callTopics: { doc: () => `{ callTopics }`, expect: own((v) => expect(v).toEqual(['bolt-topic'])) },
  callFilterOptions: {
    doc: () => `{ callFilterOptions { topics languages agents { id name } campaigns { id name } } }`,
    expect: own((v) => {
      expect(v.topics).toEqual(['bolt-topic']);
      expect(v.languages).toEqual(['en']);
      expect(v.agents.map((x: any) => x.name)).toEqual(['Bolt Agent']);
    }),
  },
  apiKeys: { doc: () => `{ apiKeys { id prefix } }`, expect: own((v) => expect(v).toHaveLength(1)) },
  webhookEndpoint: {
    doc: (i) => `{ webhookEndpoint(id: "${i.endpoint.id}") { id url } }`,
    expect: nul,
  },
  webhookEndpoints: {
    doc: () => `{ webhookEndpoints { id url eventTypes campaign { id } replays { id total } } }`,
    expect: own((v) => expect(v.map((e: any) => e.url)).toEqual(['https://bolt.example/hook'])),
  },
  webhookDeliveries: {
    doc: (i) => `{ webhookDeliveries(callId: "${i.call.id}") { edges { node { id } } } }`,
    expect: own((v) => expect(v.edges).toEqual([])),
  },
  usage: {
    doc: () => `{ usage(period: "2024-01") { ${R} ... on QueryUsageSuccess { data { calls storageFreedBytes } } } }`,
    expect: own((v) => expect(v.data.calls).toBe(1)),
  },
  bulkReanalysisCount: {
    doc: (i) =>
      `{ bulkReanalysisCount(filter: { agentIds: ["${i.agent.id}"] }, templateId: "${i.template.id}") { ${R} ... on BulkReanalysisCount { count } } }`,
    expect: own((v) => expect(v.count).toBe(0)),
  },
  bulkReanalysis: { doc: (i) => `{ bulkReanalysis(id: "${i.bulk.id}") { id total } }`, expect: nul },
  reviewQueue: {
    doc: (i) =>
      `{ reviewQueue(filter: { agentIds: ["${i.agent.id}"] }) { ${R} ... on ReviewQueuePage { items { call { id } } hasNextPage } } }`,
    expect: own((v) => expect(v.items).toEqual([])),
  },
  disputes: {
    doc: () => `{ disputes { id comment call { id } } }`,
    expect: own((v) => expect(v.map((d: any) => d.comment)).toEqual(['Bolt says hello was said'])),
  },
  coachingItems: {
    doc: (i) => `{ coachingItems(agentId: "${i.agent.id}") { id improve } }`,
    expect: own((v) => expect(v).toEqual([])),
  },
  coachingReport: {
    doc: () => `{ coachingReport { agentName open } }`,
    expect: own((v) => expect(v).toEqual([{ agentName: 'Bolt Agent', open: 1 }])),
  },
  usageHistory: {
    doc: () => `{ usageHistory { period calls } }`,
    expect: own((v) => expect(v).toEqual([{ period: '2024-01', calls: 1 }])),
  },
  // Reports: B's own call only; A's ids in a filter match nothing.
  reportTrend: {
    doc: (i) =>
      `{ reportTrend(filter: { ${JAN}, agentIds: ["${i.agent.id}"] }, interval: DAY) { ${R} ... on ReportTrend { rows { period calls } } } }`,
    expect: own((v) => expect(v.rows).toEqual([])),
  },
  reportAgents: {
    doc: () => `{ reportAgents(filter: { ${JAN} }) { ${R} ... on ReportBreakdown { rows { id name calls } } } }`,
    expect: own((v) => expect(v.rows.map((r: any) => [r.name, r.calls])).toEqual([['Bolt Agent', 1]])),
  },
  reportCampaigns: {
    doc: (i) =>
      `{ reportCampaigns(filter: { ${JAN}, campaignIds: ["${i.campaign.id}"] }) { ${R} ... on ReportBreakdown { rows { id name } } } }`,
    expect: own((v) => expect(v.rows).toEqual([])),
  },
  reportCriteria: {
    doc: () => `{ reportCriteria(filter: { ${JAN} }) { ${R} ... on ReportCriteria { rows { key passed } } } }`,
    expect: own((v) => expect(v.rows).toEqual([{ key: 'greeting', passed: 1 }])),
  },
  reportScoreDistribution: {
    doc: () =>
      `{ reportScoreDistribution(filter: { ${JAN} }) { ${R} ... on ReportScoreDistribution { rows { from calls } } } }`,
    expect: own((v) => expect(v.rows.filter((b: any) => b.calls)).toEqual([{ from: 80, calls: 1 }])),
  },
  reportTopics: {
    doc: (i) =>
      `{ reportTopics(filter: { ${JAN}, templateIds: ["${i.template.id}"] }, interval: MONTH) { ${R} ... on ReportTopics { rows { topic calls } } } }`,
    expect: own((v) => expect(v.rows).toEqual([])),
  },
  reportSentiment: {
    doc: () =>
      `{ reportSentiment(filter: { ${JAN} }, interval: MONTH) { ${R} ... on ReportSentiment { rows { period calls sentimentCalls } } } }`,
    expect: own((v) => expect(v.rows).toEqual([{ period: '2024-01-01', calls: 1, sentimentCalls: 0 }])),
  },
  // The fixtures' disputes were opened today: B counts its own one, not A's.
  reportDisputes: {
    doc: () =>
      `{ reportDisputes(filter: { ${AROUND_TODAY} }, interval: MONTH) { ${R} ... on ReportDisputes { rows { opened stillOpen } } } }`,
    expect: own((v) => expect(v.rows).toEqual([{ opened: 1, stillOpen: 1 }])),
  },
};

const MUTATIONS: Record<string, Case> = {
  createCalibrationSession: {
    doc: (i) =>
      `mutation { createCalibrationSession(input: { name: "x", templateId: "${i.template.id}", callIds: ["${i.call.id}"], graderIds: ["${i.userId}"] }) { ${R} } }`,
    expect: nf,
  },
  saveCalibrationAnswers: {
    doc: (i) =>
      `mutation { saveCalibrationAnswers(sessionId: "${i.calibration}", callId: "${i.call.id}", answers: [{ key: "greeting", result: FAILED }]) { ${R} } }`,
    expect: nf,
  },
  closeCalibrationSession: {
    doc: (i) => `mutation { closeCalibrationSession(id: "${i.calibration}") { ${R} } }`,
    expect: nf,
  },
  applyCalibrationBenchmark: {
    doc: (i) => `mutation { applyCalibrationBenchmark(id: "${i.calibration}") { ${R} } }`,
    expect: nf,
  },
  setMachineAgreementThreshold: {
    doc: () =>
      `mutation { setMachineAgreementThreshold(percent: 70) { ${R} ... on Account { name machineAgreementThreshold } } }`,
    expect: own((v) => expect(v).toMatchObject({ name: 'Bolt', machineAgreementThreshold: 70 })),
  },
  setVocabulary: {
    doc: () => `mutation { setVocabulary(words: ["Bolt Energía"]) { ${R} ... on Account { name vocabulary } } }`,
    expect: own((v) => expect(v).toMatchObject({ __typename: 'Account', vocabulary: ['Bolt Energía'] })),
  },
  setRedaction: {
    doc: () =>
      `mutation { setRedaction(mode: TEXT, kinds: [CARD_NUMBER, EMAIL]) { ${R} ... on Account { name redaction { mode kinds } } } }`,
    expect: own((v) =>
      expect(v).toMatchObject({ __typename: 'Account', redaction: { mode: 'TEXT', kinds: ['CARD_NUMBER', 'EMAIL'] } }),
    ),
  },
  updateAccountSettings: {
    doc: () => `mutation { updateAccountSettings(agentChannel: RIGHT, monoSpeakers: GREETING) { ${R} } }`,
    expect: typename('Account'),
  },
  createAgent: {
    doc: () => `mutation { createAgent(input: { name: "New B agent" }) { ${R} } }`,
    expect: typename('Agent'),
  },
  updateAgent: {
    doc: (i) => `mutation { updateAgent(id: "${i.agent.id}", input: { name: "x" }) { ${R} } }`,
    expect: nf,
  },
  deactivateAgent: { doc: (i) => `mutation { deactivateAgent(id: "${i.agent.id}") { ${R} } }`, expect: nf },
  reactivateAgent: { doc: (i) => `mutation { reactivateAgent(id: "${i.agent.id}") { ${R} } }`, expect: nf },
  createCampaign: {
    doc: (i) => `mutation { createCampaign(input: { name: "Stolen", templateId: "${i.template.id}" }) { ${R} } }`,
    expect: nf,
  },
  updateCampaign: {
    doc: (i) => `mutation { updateCampaign(id: "${i.campaign.id}", input: { name: "x" }) { ${R} } }`,
    expect: nf,
  },
  archiveCampaign: { doc: (i) => `mutation { archiveCampaign(id: "${i.campaign.id}") { ${R} } }`, expect: nf },
  unarchiveCampaign: { doc: (i) => `mutation { unarchiveCampaign(id: "${i.campaign.id}") { ${R} } }`, expect: nf },
  createTemplate: {
    doc: () =>
      `mutation { createTemplate(name: "B2", definition: { version: 1, criteria: [{ key: "a", label: "A", weight: 1, kind: "phrase", phrases: ["hi"] }] }) { ${R} } }`,
    expect: typename('Template'),
  },
  updateTemplate: { doc: (i) => `mutation { updateTemplate(id: "${i.template.id}", name: "x") { ${R} } }`, expect: nf },
  deleteTemplate: { doc: (i) => `mutation { deleteTemplate(id: "${i.template.id}") { ${R} } }`, expect: nf },
  setDefaultTemplate: { doc: (i) => `mutation { setDefaultTemplate(id: "${i.template.id}") { ${R} } }`, expect: nf },
  setLanguageDefaultTemplate: {
    doc: (i) => `mutation { setLanguageDefaultTemplate(language: "es", id: "${i.template.id}") { ${R} } }`,
    expect: nf,
  },
  previewTemplate: {
    doc: (i) =>
      `mutation { previewTemplate(callId: "${i.call.id}", definition: { version: 1, criteria: [{ key: "a", label: "A", weight: 1, kind: "phrase", phrases: ["hello"] }] }) { ${R} } }`,
    expect: nf,
  },
  reanalyzeCall: { doc: (i) => `mutation { reanalyzeCall(id: "${i.call.id}") { ${R} } }`, expect: nf },
  deleteCall: { doc: (i) => `mutation { deleteCall(id: "${i.call.id}") { ${R} } }`, expect: nf },
  deleteCalls: {
    doc: (i) =>
      `mutation { deleteCalls(filter: { agentIds: ["${i.agent.id}"] }, expectedCount: 0) { ${R} ... on BulkDeletion { count queued } } }`,
    // The filter would be stored in the audit entry: another account's ids are refused (foreign-ids.test.ts).
    expect: nf,
  },
  updateRetention: {
    doc: () =>
      `mutation { updateRetention(recordingDays: 90, transcriptDays: 365) { ${R} ... on Account { name retentionRecordingDays } } }`,
    expect: own((v) => expect(v).toMatchObject({ name: 'Bolt', retentionRecordingDays: 90 })),
  },
  startBulkReanalysis: {
    doc: (i) => `mutation { startBulkReanalysis(templateId: "${i.template.id}") { ${R} } }`,
    expect: nf,
  },
  cancelBulkReanalysis: { doc: (i) => `mutation { cancelBulkReanalysis(id: "${i.bulk.id}") { ${R} } }`, expect: nf },
  assignReview: { doc: (i) => `mutation { assignReview(callId: "${i.call.id}") { ${R} } }`, expect: nf },
  completeReview: { doc: (i) => `mutation { completeReview(callId: "${i.call.id}") { ${R} } }`, expect: nf },
  setReviewSamplePercent: {
    doc: () => `mutation { setReviewSamplePercent(percent: 10) { ${R} ... on Account { reviewSamplePercent } } }`,
    expect: own((v) => expect(v).toMatchObject({ __typename: 'Account', reviewSamplePercent: 10 })),
  },
  overrideCriterion: {
    doc: (i) =>
      `mutation { overrideCriterion(callId: "${i.call.id}", key: "greeting", result: FAILED, note: "stolen") { ${R} } }`,
    expect: nf,
  },
  addCallComment: {
    doc: (i) => `mutation { addCallComment(callId: "${i.call.id}", body: "hi", atSeconds: 1) { ${R} } }`,
    expect: nf,
  },
  resolveDispute: {
    doc: (i) => `mutation { resolveDispute(id: "${i.dispute.id}", accept: true, reply: "ok") { ${R} } }`,
    expect: nf,
  },
  assignCoaching: {
    doc: (i) =>
      `mutation { assignCoaching(callId: "${i.call.id}", criterionKeys: ["greeting"], improve: "x") { ${R} } }`,
    expect: nf,
  },
  completeCoaching: {
    doc: (i) => `mutation { completeCoaching(id: "${i.coaching.id}", note: "x") { ${R} } }`,
    expect: nf,
  },
  acknowledgeCoaching: {
    doc: (i) => `mutation { acknowledgeCoaching(id: "${i.coaching.id}") { ${R} } }`,
    expect: code('forbidden'),
  },
  // Only agent users acknowledge or dispute; B's owner is refused before any lookup.
  acknowledgeCall: {
    doc: (i) => `mutation { acknowledgeCall(id: "${i.call.id}") { ${R} } }`,
    expect: code('forbidden'),
  },
  disputeCriterion: {
    doc: (i) => `mutation { disputeCriterion(callId: "${i.call.id}", key: "greeting", comment: "x") { ${R} } }`,
    expect: code('forbidden'),
  },
  createApiKey: { doc: () => `mutation { createApiKey(name: "B key 2") { ${R} } }`, expect: typename('CreatedApiKey') },
  revokeApiKey: { doc: (i) => `mutation { revokeApiKey(id: "${i.apiKey.id}") { ${R} } }`, expect: nf },
  inviteUser: {
    doc: () => `mutation { inviteUser(email: "new-b@example.com", role: VIEWER) { ${R} } }`,
    expect: typename('InvitationPayload'),
  },
  revokeInvitation: { doc: (i) => `mutation { revokeInvitation(id: "${i.invitation.id}") { ${R} } }`, expect: nf },
  changeUserRole: {
    doc: (i) => `mutation { changeUserRole(userId: "${i.userId}", role: VIEWER) { ${R} } }`,
    expect: nf,
  },
  removeUser: { doc: (i) => `mutation { removeUser(userId: "${i.userId}") { ${R} } }`, expect: nf },
  redeliverWebhook: {
    doc: (i) => `mutation { redeliverWebhook(deliveryId: "${i.delivery.id}") { ${R} } }`,
    expect: nf,
  },
  updateWebhookEndpoint: {
    doc: (i) =>
      `mutation { updateWebhookEndpoint(id: "${i.endpoint.id}", input: { url: "https://93.184.216.34/x" }) { ${R} } }`,
    expect: nf,
  },
  replayWebhookDeliveries: {
    doc: (i) => `mutation { replayWebhookDeliveries(id: "${i.endpoint.id}", since: "2024-01-01T00:00:00Z") { ${R} } }`,
    expect: nf,
  },
  createWebhookEndpoint: {
    doc: (i) =>
      `mutation { createWebhookEndpoint(input: { url: "https://93.184.216.34/b", campaignId: "${i.campaign.id}" }) { ${R} } }`,
    expect: nf,
  },
  // Only one's own name: there is no user id to aim at another account's user.
  updateMyProfile: {
    doc: () => `mutation { updateMyProfile(name: "Bea from Bolt") { ${R} ... on User { name } } }`,
    expect: own((v) => expect(v).toMatchObject({ __typename: 'User', name: 'Bea from Bolt' })),
  },
  changePassword: {
    doc: () =>
      `mutation { changePassword(currentPassword: "wrong password", newPassword: "another long one") { ${R} } }`,
    expect: code('invalid_credentials'),
  },
  signIn: {
    doc: () => `mutation { signIn(email: "nobody@example.com", password: "whatever") { ${R} } }`,
    expect: code('invalid_credentials'),
  },
  acceptInvitation: {
    doc: () => `mutation { acceptInvitation(token: "bogus", name: "X", password: "long enough pw") { ${R} } }`,
    expect: code('invalid_invitation'),
  },
  sendTestWebhook: {
    doc: (i) => `mutation { sendTestWebhook(id: "${i.endpoint.id}") { ${R} } }`,
    expect: nf,
  },
  revealWebhookSecret: {
    doc: (i) =>
      `mutation { revealWebhookSecret(id: "${i.endpoint.id}") { ${R} ... on MutationRevealWebhookSecretSuccess { data } } }`,
    expect: nf,
  },
  rotateWebhookSecret: {
    doc: (i) =>
      `mutation { rotateWebhookSecret(id: "${i.endpoint.id}") { ${R} ... on WebhookEndpointWithSecret { endpoint { url } } } }`,
    expect: nf,
  },
  reissueWebhookSecret: {
    doc: (i) =>
      `mutation { reissueWebhookSecret(id: "${i.endpoint.id}") { ${R} ... on WebhookEndpointWithSecret { endpoint { url } } } }`,
    expect: nf,
  },
  disableWebhookEndpoint: {
    doc: (i) =>
      `mutation { disableWebhookEndpoint(id: "${i.endpoint.id}") { ${R} ... on WebhookEndpoint { url enabled } } }`,
    expect: nf,
  },
  enableWebhookEndpoint: {
    doc: (i) =>
      `mutation { enableWebhookEndpoint(id: "${i.endpoint.id}") { ${R} ... on WebhookEndpoint { enabled } } }`,
    expect: nf,
  },
  removeWebhookEndpoint: {
    doc: (i) => `mutation { removeWebhookEndpoint(id: "${i.endpoint.id}") { ${R} } }`,
    expect: nf,
  },
  setWebhookEndpoint: {
    doc: () =>
      `mutation { setWebhookEndpoint(url: "https://93.184.216.34/b-hook") { ${R} ... on WebhookEndpointWithSecret { secret endpoint { url } } } }`,
    // B's first endpoint now points elsewhere and keeps its secret.
    expect: own((v) => expect(v).toMatchObject({ secret: null, endpoint: { url: 'https://93.184.216.34/b-hook' } })),
  },
  signOut: { doc: () => `mutation { signOut }`, expect: own((v) => expect(v).toBe(true)) },
};

function rootFields(kind: 'query' | 'mutation') {
  const type = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  return Object.values(type.getFields());
}

/** Everything of account A a response must never contain. */
function markersOfA(): string[] {
  return [
    A.account.id,
    ...Object.values(A.users).map((u) => u.id),
    ...Object.values(A.users).map((u) => u.email),
    a.agent.id,
    a.template.id,
    a.campaign.id,
    a.call.id,
    a.endpoint.id,
    a.delivery.id,
    a.apiKey.id,
    a.apiKey.prefix,
    a.invitation.id,
    a.bulk.id,
    a.dispute.id,
    a.tombstone,
    a.calibration,
    'Acme',
    'acme.example',
    'Acme-ext',
  ];
}

async function snapshotA() {
  const rows = await t.sql(
    `
    SELECT json_build_object(
      'account', (SELECT row_to_json(x) FROM accounts x WHERE id = $1),
      'users', (SELECT json_agg(x ORDER BY id) FROM users x WHERE account_id = $1),
      'agents', (SELECT json_agg(x ORDER BY id) FROM agents x WHERE account_id = $1),
      'campaigns', (SELECT json_agg(x ORDER BY id) FROM campaigns x WHERE account_id = $1),
      'templates', (SELECT json_agg(x ORDER BY id) FROM templates x WHERE account_id = $1),
      'calls', (SELECT json_agg(json_build_object('id', id, 'status', status, 'rev', analysis_revision, 'updated', updated_at, 'score', score, 'criteria', criteria, 'ack', acknowledged_at, 'open', open_disputes) ORDER BY id) FROM calls x WHERE account_id = $1),
      'reviews', (SELECT count(*) FROM criterion_reviews WHERE account_id = $1),
      'disputes', (SELECT json_agg(x ORDER BY id) FROM disputes x WHERE account_id = $1),
      'comments', (SELECT count(*) FROM call_comments WHERE account_id = $1),
      'coaching', (SELECT json_agg(x ORDER BY id) FROM coaching_items x WHERE account_id = $1),
      'calibrations', (SELECT json_agg(x ORDER BY id) FROM calibration_sessions x WHERE account_id = $1),
      'calibrationAnswers', (SELECT count(*) FROM calibration_answers a JOIN calibration_sessions s ON s.id = a.session_id WHERE s.account_id = $1),
      'keys', (SELECT json_agg(x ORDER BY id) FROM api_keys x WHERE account_id = $1),
      'invitations', (SELECT json_agg(x ORDER BY id) FROM invitations x WHERE account_id = $1),
      'endpoint', (SELECT json_agg(x) FROM webhook_endpoints x WHERE account_id = $1),
      'replays', (SELECT count(*) FROM webhook_replays WHERE account_id = $1),
      'bulk', (SELECT json_agg(x ORDER BY id) FROM bulk_reanalyses x WHERE account_id = $1),
      'reviews', (SELECT json_agg(x ORDER BY call_id) FROM call_reviews x WHERE account_id = $1),
      'attempts', (SELECT count(*) FROM webhook_attempts w JOIN webhook_deliveries d ON d.id = w.delivery_id WHERE d.account_id = $1),
      'sessions', (SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.account_id = $1),
      'tombstones', (SELECT count(*) FROM call_tombstones WHERE account_id = $1),
      'audit', (SELECT count(*) FROM audit_log WHERE account_id = $1)
    ) AS snap`,
    [A.account.id],
  );
  return rows[0].snap;
}

describe('tenant isolation over the whole schema', () => {
  test('has a case for every query and mutation field', () => {
    expect(
      rootFields('query')
        .map((f) => f.name)
        .filter((n) => !(n in QUERIES)),
    ).toEqual([]);
    expect(
      rootFields('mutation')
        .map((f) => f.name)
        .filter((n) => !(n in MUTATIONS)),
    ).toEqual([]);
  });

  test("a user of account B using account A's ids gets null or not-found, never A's data, and changes nothing in A", async () => {
    const before = await snapshotA();
    const ids: Ids = { ...a, userId: A.users.admin.id };
    const markers = markersOfA();
    for (const [kind, table] of [
      ['query', QUERIES],
      ['mutation', MUTATIONS],
    ] as const) {
      for (const [field, c] of Object.entries(table)) {
        const r = await B.as.owner.gql(c.doc(ids));
        const where = `${kind} ${field}: ${JSON.stringify(r.body)}`;
        expect(r.body.errors, where).toBeUndefined();
        const value = r.body.data?.[field];
        if (c.expect.kind === 'null') expect(value, where).toBeNull();
        if (c.expect.kind === 'notFound')
          expect(value, where).toMatchObject({ __typename: 'NotFoundError', code: 'not_found' });
        if (c.expect.kind === 'own') c.expect.check?.(value);
        const text = JSON.stringify(r.body);
        for (const m of markers) expect(text.includes(m), `${where} mentions ${m}`).toBe(false);
      }
    }
    expect(await snapshotA()).toEqual(before);
  });
});

describe('roles', () => {
  function minimumRole(field: { extensions: unknown }): UserRole | null {
    const scopes = (field.extensions as { pothosOptions?: { authScopes?: Record<string, boolean> } }).pothosOptions
      ?.authScopes;
    if (!scopes) return null;
    if (scopes.owner) return 'owner';
    if (scopes.admin) return 'admin';
    if (scopes.analyst) return 'analyst';
    if (scopes.member) return 'viewer';
    // `signedIn`: open to agent users too (the field narrows the data to their own calls).
    return 'agent';
  }

  test('documents the role model: viewers only read; analysts also manage templates, campaigns and re-analysis', () => {
    const needs = Object.fromEntries(rootFields('mutation').map((f) => [f.name, minimumRole(f)]));
    for (const f of [
      'createTemplate',
      'updateTemplate',
      'deleteTemplate',
      'setDefaultTemplate',
      'setLanguageDefaultTemplate',
      'previewTemplate',
      'createCampaign',
      'updateCampaign',
      'archiveCampaign',
      'unarchiveCampaign',
      'reanalyzeCall',
      'startBulkReanalysis',
      'cancelBulkReanalysis',
      'assignReview',
      'completeReview',
      'setReviewSamplePercent',
      'overrideCriterion',
      'resolveDispute',
      'addCallComment',
      'assignCoaching',
      'completeCoaching',
    ]) {
      expect(needs[f], f).toBe('analyst');
    }
    for (const f of [
      'createAgent',
      'updateAgent',
      'deactivateAgent',
      'reactivateAgent',
      'createApiKey',
      'revokeApiKey',
      'inviteUser',
      'revokeInvitation',
      'changeUserRole',
      'removeUser',
      'setWebhookEndpoint',
      'rotateWebhookSecret',
      'reissueWebhookSecret',
      'revealWebhookSecret',
      'disableWebhookEndpoint',
      'enableWebhookEndpoint',
      'removeWebhookEndpoint',
      'sendTestWebhook',
      'redeliverWebhook',
      'createWebhookEndpoint',
      'updateWebhookEndpoint',
      'replayWebhookDeliveries',
      'setVocabulary',
      'deleteCall',
      'deleteCalls',
      'updateRetention',
      'setRedaction',
    ]) {
      expect(needs[f], f).toBe('admin');
    }
    // The audit log is the owners' alone (it shows what admins did).
    const queryNeeds = Object.fromEntries(rootFields('query').map((f) => [f.name, minimumRole(f)]));
    for (const f of ['auditLog', 'auditActions']) expect(queryNeeds[f], f).toBe('owner');
    expect(queryNeeds.callsToDeleteCount).toBe('admin');
    const openToAgents = Object.entries(needs)
      .filter(([, role]) => role === 'viewer' || role === 'agent')
      .map(([f]) => f);
    // Viewers change nothing but their password and name; agent users also acknowledge and dispute their
    // calls and acknowledge their coaching.
    expect(openToAgents.sort()).toEqual([
      'acknowledgeCall',
      'acknowledgeCoaching',
      'changePassword',
      'disputeCriterion',
      'updateMyProfile',
    ]);
    const agentQueries = rootFields('query')
      .filter((f) => minimumRole(f) === 'agent')
      .map((f) => f.name);
    expect(agentQueries.sort()).toEqual(['call', 'calls', 'coachingItems', 'deletedCall', 'disputes', 'me']);
  });

  test('lets every role read the reports (viewer and above)', () => {
    const needs = Object.fromEntries(rootFields('query').map((f) => [f.name, minimumRole(f)]));
    for (const f of [
      'reportTrend',
      'reportAgents',
      'reportCampaigns',
      'reportCriteria',
      'reportScoreDistribution',
      'reportTopics',
      'reportSentiment',
      'reportDisputes',
    ]) {
      expect(needs[f], f).toBe('viewer');
    }
  });

  test("refuses every mutation and query above a role with FORBIDDEN, and A's data stays as it was", async () => {
    const before = await snapshotA();
    const ids: Ids = { ...a, userId: A.users.admin.id };
    for (const role of ['agent', 'viewer', 'analyst', 'admin'] as const) {
      for (const [kind, table] of [
        ['query', QUERIES],
        ['mutation', MUTATIONS],
      ] as const) {
        for (const field of rootFields(kind)) {
          const min = minimumRole(field);
          if (!min || roleAtLeast(role, min)) continue;
          const r = await (role === 'agent' ? agentA : A.as[role]).gql(table[field.name]!.doc(ids));
          expect(r.body.errors?.[0]?.extensions?.code, `${role} ${field.name}: ${JSON.stringify(r.body)}`).toBe(
            'FORBIDDEN',
          );
          expect(r.body.data?.[field.name] ?? null).toBeNull();
        }
      }
    }
    expect(await snapshotA()).toEqual(before);
  });

  test('answers UNAUTHENTICATED to a signed-out browser for every guarded field', async () => {
    const anon = new Browser(h.url);
    const ids: Ids = { ...a, userId: A.users.admin.id };
    for (const [kind, table] of [
      ['query', QUERIES],
      ['mutation', MUTATIONS],
    ] as const) {
      for (const field of rootFields(kind)) {
        if (!minimumRole(field)) continue;
        const r = await anon.gql(table[field.name]!.doc(ids));
        expect(r.body.errors?.[0]?.extensions?.code, `${field.name}: ${JSON.stringify(r.body)}`).toBe(
          'UNAUTHENTICATED',
        );
      }
    }
  });
});
