// Issue 26, points 6 and the webhook note, through GraphQL as the app uses it: every settings change,
// template edit, per-language default, bulk re-analysis and dispute answer is in the audit log, each
// entry names its object (the call, template, endpoint, user or dispute — by name, never a bare id,
// and by the name it kept once the object is gone); and a call with no delivery says why.
import { describe, expect } from '../support/harness.ts';
import { FAILED_GREETING, insertCall, TEMPLATE_DEFINITION } from './fixtures.ts';
import { type Harness, type SeededAccount, seedAccount, test } from './support.ts';

let h: Harness;
let acme: SeededAccount;
let agentId: string;

test.beforeAll(async ({ gql, acme: seeded }) => {
  h = gql;
  acme = seeded;
  agentId = (await h.app.db.agent.create({ data: { accountId: acme.account.id, name: 'Ana', nameNormalized: 'ana' } }))
    .id;
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

interface Entry {
  action: string;
  actor: { email: string } | null;
  detail: Record<string, unknown>;
  objects: { kind: string; id: string | null; name: string | null; gone: boolean; callId: string | null }[];
}

async function log(): Promise<Entry[]> {
  const r = await acme.as.owner.gql(
    `{ auditLog(first: 100) { edges { node { action actor { email } detail objects { kind id name gone callId } } } } }`,
  );
  expect(r.body.errors).toBeUndefined();
  return r.body.data.auditLog.edges.map((e: { node: Entry }) => e.node);
}

const ok = (r: { body: { data?: Record<string, unknown>; errors?: unknown } }, field: string) => {
  expect(r.body.errors).toBeUndefined();
  const v = r.body.data?.[field] as { __typename?: string; code?: string } | undefined;
  expect(v?.code, JSON.stringify(v)).toBeUndefined();
  return v as Record<string, any>;
};

describe('an audit log people can act on', () => {
  test('settings, redaction, template edits, defaults, bulk re-analysis and disputes are logged, each naming its object', async () => {
    const { owner, admin, analyst } = acme.as;
    const before = (await log()).length;
    // Settings: what changed, from → to; sending the same values again changes nothing and logs nothing.
    const SETTINGS = `mutation { updateAccountSettings(timeZone: "Europe/Madrid", disputeWindowDays: 14) { __typename } }`;
    ok(await admin.gql(SETTINGS), 'updateAccountSettings');
    ok(await admin.gql(SETTINGS), 'updateAccountSettings');
    ok(
      await admin.gql(`mutation { setRedaction(mode: TEXT, kinds: [CARD_NUMBER, IBAN]) { __typename } }`),
      'setRedaction',
    );
    ok(await analyst.gql(`mutation { setReviewSamplePercent(percent: 10) { __typename } }`), 'setReviewSamplePercent');
    ok(await admin.gql(`mutation { setVocabulary(words: ["Acme", "Escucha"]) { __typename } }`), 'setVocabulary');

    // A template's life: created, edited (renamed, a criterion added), default for Spanish and for all, deleted.
    const created = ok(
      await analyst.gql(
        `mutation($d: JSON!) { createTemplate(name: "Soporte", definition: $d) { ... on Template { id } } }`,
        { d: TEMPLATE_DEFINITION },
      ),
      'createTemplate',
    );
    const templateId = created.id as string;
    const edited = {
      ...TEMPLATE_DEFINITION,
      criteria: [
        ...TEMPLATE_DEFINITION.criteria,
        { key: 'closing', label: 'Offers more help', weight: 2, kind: 'phrase', phrases: ['anything else'] },
      ],
    };
    ok(
      await analyst.gql(
        `mutation($id: ID!, $d: JSON!) { updateTemplate(id: $id, name: "Soporte ES", definition: $d) { __typename } }`,
        { id: templateId, d: edited },
      ),
      'updateTemplate',
    );
    ok(
      await analyst.gql(`mutation($id: ID!) { setLanguageDefaultTemplate(language: "es", id: $id) { __typename } }`, {
        id: templateId,
      }),
      'setLanguageDefaultTemplate',
    );
    ok(
      await analyst.gql(`mutation($id: ID!) { setDefaultTemplate(id: $id) { __typename } }`, { id: templateId }),
      'setDefaultTemplate',
    );

    // A score override on a call, a dispute accepted and one rejected, a bulk re-analysis started and cancelled.
    const call = await insertCall(
      h.app.db,
      { accountId: acme.account.id, agentId, templateId },
      {
        customerName: 'Late Greeting',
        score: 0,
        criteria: FAILED_GREETING,
      },
    );
    const accepted = await h.app.db.dispute.create({
      data: { accountId: acme.account.id, callId: call.id, criterionKey: 'greeting', comment: 'I said hello' },
    });
    const rejected = await h.app.db.dispute.create({
      data: { accountId: acme.account.id, callId: call.id, criterionKey: 'no_swearing', comment: 'Not me' },
    });
    ok(
      await analyst.gql(`mutation($id: ID!) { resolveDispute(id: $id, accept: true, reply: "Right") { __typename } }`, {
        id: accepted.id,
      }),
      'resolveDispute',
    );
    ok(
      await analyst.gql(
        `mutation($id: ID!) { resolveDispute(id: $id, accept: false, reply: "It passed") { __typename } }`,
        {
          id: rejected.id,
        },
      ),
      'resolveDispute',
    );
    const bulk = ok(
      await analyst.gql(
        `mutation($t: ID) { startBulkReanalysis(templateId: $t) { ... on BulkReanalysis { id total } } }`,
        { t: templateId },
      ),
      'startBulkReanalysis',
    );
    expect(bulk.total).toBe(1);
    ok(
      await analyst.gql(`mutation($id: ID!) { cancelBulkReanalysis(id: $id) { __typename } }`, { id: bulk.id }),
      'cancelBulkReanalysis',
    );
    ok(
      await analyst.gql(`mutation($id: ID!) { deleteTemplate(id: $id) { __typename } }`, { id: templateId }),
      'deleteTemplate',
    );
    // An endpoint added and removed: the removal reads as removed, naming the URL it had.
    const ep = ok(
      await admin.gql(
        `mutation { createWebhookEndpoint(input: { url: "https://93.184.216.34/hook" }) { ... on WebhookEndpointWithSecret { endpoint { id } } } }`,
      ),
      'createWebhookEndpoint',
    );
    ok(
      await admin.gql(`mutation($id: ID) { removeWebhookEndpoint(id: $id) { __typename } }`, { id: ep.endpoint.id }),
      'removeWebhookEndpoint',
    );

    const entries = (await log()).slice(0, -before || undefined).reverse();
    const byAction = (a: string) => entries.filter((e) => e.action === a);
    expect(entries.map((e) => e.action)).toEqual([
      'settings.changed',
      'redaction.changed',
      'review_sample.changed',
      'vocabulary.changed',
      'template.created',
      'template.updated',
      'template.language_default_changed',
      'template.default_changed',
      'criterion.overridden',
      'dispute.rejected',
      'bulk_reanalysis.started',
      'bulk_reanalysis.cancelled',
      'template.deleted',
      'webhook.endpoint_created',
      'webhook.endpoint_removed',
    ]);
    expect(byAction('settings.changed')[0]!.detail).toEqual({
      timeZone: { from: 'UTC', to: 'Europe/Madrid' },
      disputeWindowDays: { from: 7, to: 14 },
    });
    expect(byAction('settings.changed')[0]!.actor?.email).toBe(acme.users.admin.email);
    expect(byAction('redaction.changed')[0]!.detail).toMatchObject({
      mode: { from: 'off', to: 'text' },
      kinds: { to: ['card_number', 'iban'] },
    });
    expect(byAction('template.updated')[0]!.detail).toEqual({
      name: { from: 'Soporte', to: 'Soporte ES' },
      criteriaAdded: 'Offers more help',
    });
    expect(byAction('template.language_default_changed')[0]!.detail).toEqual({
      language: 'es',
      from: null,
      to: 'Soporte ES',
    });
    expect(byAction('bulk_reanalysis.started')[0]!.detail).toMatchObject({ count: 1, template: 'Soporte ES' });

    // Every entry names its object: the call by its customer, the dispute by its criterion (with its
    // call), the deleted template and removed endpoint by the names they had; no UUID as a name.
    const override = byAction('criterion.overridden')[0]!;
    expect(override.objects).toEqual([
      { kind: 'call', id: call.id, name: 'Late Greeting', gone: false, callId: null },
      { kind: 'dispute', id: accepted.id, name: 'Greets the customer', gone: false, callId: call.id },
    ]);
    expect(byAction('dispute.rejected')[0]!.objects).toEqual([
      { kind: 'dispute', id: rejected.id, name: 'No swearing', gone: false, callId: call.id },
    ]);
    for (const a of ['template.created', 'template.updated', 'template.deleted', 'template.default_changed'])
      expect(byAction(a)[0]!.objects, a).toEqual([
        { kind: 'template', id: templateId, name: 'Soporte ES', gone: true, callId: null },
      ]);
    expect(byAction('webhook.endpoint_removed')[0]!.objects).toEqual([
      { kind: 'webhook_endpoint', id: ep.endpoint.id, name: 'https://93.184.216.34/hook', gone: true, callId: null },
    ]);
    expect(byAction('webhook.endpoint_removed')[0]!.detail).toEqual({ url: 'https://93.184.216.34/hook' });
    expect(byAction('settings.changed')[0]!.objects.map((o) => o.kind)).toEqual(['settings']);
    for (const e of entries) for (const o of e.objects) expect(o.name ?? '', e.action).not.toMatch(UUID);

    // A deleted call keeps the name the entry can show without its content: its external id.
    await h.app.db.call.update({ where: { id: call.id }, data: { externalId: 'crm-4711' } });
    ok(await owner.gql(`mutation($id: ID!) { deleteCall(id: $id) { __typename } }`, { id: call.id }), 'deleteCall');
    const deleted = (await log()).find((e) => e.action === 'call.deleted')!;
    expect(deleted.objects).toEqual([{ kind: 'call', id: call.id, name: 'crm-4711', gone: true, callId: null }]);
    expect((await log()).find((e) => e.action === 'criterion.overridden')!.objects[0]).toMatchObject({
      name: 'crm-4711',
      gone: true,
    });
  });
});

describe("a call's webhook note says what is true", () => {
  test('no endpoint, an endpoint not subscribed to the event, one of another campaign, a disabled one, a subscribed one', async () => {
    const { admin, viewer } = acme.as;
    const failed = await insertCall(
      h.app.db,
      { accountId: acme.account.id, agentId },
      { status: 'failed', failureReason: 'no_speech' },
    );
    const coverage = async () => {
      const r = await viewer.gql(
        `query($id: ID!) { call(id: $id) { webhookCoverage { event endpoints forCampaign subscribed enabled } } }`,
        { id: failed.id },
      );
      expect(r.body.errors).toBeUndefined();
      return r.body.data.call.webhookCoverage;
    };
    for (const e of await h.app.db.webhookEndpoint.findMany({ where: { accountId: acme.account.id } }))
      await h.app.db.webhookEndpoint.delete({ where: { id: e.id } });
    expect(await coverage()).toEqual({ event: 'call.failed', endpoints: 0, forCampaign: 0, subscribed: 0, enabled: 0 });
    const ep = ok(
      await admin.gql(
        `mutation { createWebhookEndpoint(input: { url: "https://93.184.216.34/only-analyzed" }) { ... on WebhookEndpointWithSecret { endpoint { id } } } }`,
      ),
      'createWebhookEndpoint',
    ).endpoint.id as string;
    // The case the issue saw: an endpoint exists, subscribed to call.analyzed only.
    expect(await coverage()).toEqual({ event: 'call.failed', endpoints: 1, forCampaign: 1, subscribed: 0, enabled: 0 });
    const campaign = await h.app.db.campaign.create({
      data: { accountId: acme.account.id, name: 'Other', nameNormalized: 'other' },
    });
    await h.app.db.webhookEndpoint.update({
      where: { id: ep },
      data: { eventTypes: ['call.analyzed', 'call.failed'], campaignId: campaign.id },
    });
    expect(await coverage()).toMatchObject({ forCampaign: 0, subscribed: 0 });
    await h.app.db.webhookEndpoint.update({ where: { id: ep }, data: { campaignId: null, enabled: false } });
    expect(await coverage()).toEqual({ event: 'call.failed', endpoints: 1, forCampaign: 1, subscribed: 1, enabled: 0 });
    await h.app.db.webhookEndpoint.update({ where: { id: ep }, data: { enabled: true } });
    expect(await coverage()).toMatchObject({ subscribed: 1, enabled: 1 });
    // Another account's endpoints count for nothing here.
    const other = await seedAccount(h, 'Other Co');
    ok(
      await other.as.admin.gql(
        `mutation { createWebhookEndpoint(input: { url: "https://93.184.216.34/other", eventTypes: [CALL_FAILED] }) { __typename } }`,
      ),
      'createWebhookEndpoint',
    );
    expect(await coverage()).toMatchObject({ endpoints: 1 });
  });
});
