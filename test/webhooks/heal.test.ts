// Issue 25.2: an endpoint whose signing secret was sealed under another APP_SECRET (a CLI run from
// another shell, before the key check existed) is shown as such and healed through GraphQL —
// "issue a new secret now" keeps the endpoint, its history and its pending deliveries, which are
// then signed with the new secret, and replays the ones that failed.
import { http, passthrough } from 'msw';
import type { SetupServer } from 'msw/node';
import { afterEach, beforeEach } from 'vitest';
import { describe, expect } from '../support/harness.ts';
import { sealSecret } from '../../src/crypto/secret-box.ts';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import { createWebhookEndpoint, setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { runReplay } from '../../src/webhooks/replay.ts';
import type { TestDb } from '../support/db.ts';
import { type Harness, signedInUser, testWithGraphql } from '../graphql/support.ts';
import {
  addAnalyzedCall,
  attempts,
  delivery,
  enqueueAnalyzed,
  seedAnalyzedCall,
  verifyingReceiver,
} from './helpers.ts';

const RECEIVER = 'https://receiver.example/escucha';
// msw stands in for the receiver only; the GraphQL server on loopback is the real one.
const graphqlThrough = http.post(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/, () => passthrough());
const test = testWithGraphql({ WEBHOOK_ALLOW_PRIVATE: 'true' });
let server: SetupServer;
let t: TestDb;
let h: Harness;
test.beforeAll(({ db, gql, mswServer }) => {
  t = db;
  h = gql;
  server = mswServer;
});
beforeEach(() => server.use(graphqlThrough));
afterEach(() => server.resetHandlers());

const adminOf = (accountId: string) =>
  signedInUser(h.app.db, h.url, accountId, {
    role: 'admin',
    name: 'Admin',
    email: `admin-${accountId.slice(0, 8)}@example.com`,
  });

/** A receiver that verifies each delivery with the secret it was given; 401 when it cannot. */
function receiver() {
  const config = { secret: '' };
  return { seen: verifyingReceiver(server, RECEIVER, config), config };
}

const ENDPOINTS = `{ webhookEndpoints { id secretReadable } }`;
const REISSUE = `mutation($id: ID!) { reissueWebhookSecret(id: $id) { __typename
  ... on WebhookEndpointWithSecret { secret endpoint { id secretReadable replays { id total status } } }
  ... on Error { code message } } }`;

describe('an endpoint whose secret cannot be opened', () => {
  test('is shown as such, and "issue a new secret now" keeps its history and pending deliveries, signs them with the new secret and replays the failed ones', async () => {
    const rx = receiver();
    const seeded = await seedAnalyzedCall(h.app);
    const accountId = seeded.account.id;
    const { endpoint } = await setWebhookEndpoint(h.app, accountId, RECEIVER);
    // What `webhook:set` from a shell with another APP_SECRET left behind.
    await t.sql('UPDATE webhook_endpoints SET secret_encrypted = $1 WHERE id = $2', [
      sealSecret('another-shell-secret-'.padEnd(48, 'y'), 'whsec_c2VhbGVkLWVsc2V3aGVyZQ==', accountId),
      endpoint.id,
    ]);
    const [failed] = await enqueueAnalyzed(h.app, seeded.call.id);
    await deliverWebhook(h.app, failed!.id);
    expect((await attempts(t, failed!.id))[0].error).toMatch(/cannot be opened/);
    const later = await addAnalyzedCall(h.app, seeded);
    const [pending] = await enqueueAnalyzed(h.app, later.id);

    const admin = await adminOf(accountId);
    const before = await admin.gql(ENDPOINTS);
    expect(before.body.data.webhookEndpoints).toEqual([{ id: endpoint.id, secretReadable: false }]);

    const healed = (await admin.gql(REISSUE, { id: endpoint.id })).body.data.reissueWebhookSecret;
    expect(healed.__typename, JSON.stringify(healed)).toBe('WebhookEndpointWithSecret');
    expect(healed.secret).toMatch(/^whsec_/);
    expect(healed.endpoint).toMatchObject({ id: endpoint.id, secretReadable: true });
    expect(healed.endpoint.replays).toEqual([expect.objectContaining({ total: 1, status: 'RUNNING' })]);

    // The receiver is given the new secret; the replay and the pending delivery both verify with it.
    rx.config.secret = healed.secret;
    await runReplay(h.app, healed.endpoint.replays[0].id);
    await deliverWebhook(h.app, pending!.id);
    expect(rx.seen).toEqual([
      { id: (await delivery(t, failed!.id)).event_id, accepted: true, signatures: expect.any(Number) },
      { id: (await delivery(t, pending!.id)).event_id, accepted: true, signatures: expect.any(Number) },
    ]);
    expect((await delivery(t, failed!.id)).status).toBe('succeeded');
    expect((await delivery(t, pending!.id)).status).toBe('succeeded');
    // The history is kept: the failed attempt, then the replayed one.
    expect((await attempts(t, failed!.id)).map((a) => a.status_code)).toEqual([null, 204]);
    expect((await admin.gql(ENDPOINTS)).body.data.webhookEndpoints).toEqual([
      { id: endpoint.id, secretReadable: true },
    ]);
  });

  test("another account's endpoint is refused like an unknown one", async () => {
    const mine = await seedAnalyzedCall(h.app);
    const theirs = await seedAnalyzedCall(h.app);
    const { endpoint } = await setWebhookEndpoint(h.app, theirs.account.id, RECEIVER);
    const admin = await adminOf(mine.account.id);
    const r = (await admin.gql(REISSUE, { id: endpoint.id })).body.data.reissueWebhookSecret;
    expect(r).toMatchObject({ __typename: 'NotFoundError', code: 'not_found' });
  });
});

describe('LimitError.limit', () => {
  test('says 10 when the 11th webhook endpoint is refused', async () => {
    const seeded = await seedAnalyzedCall(h.app);
    for (let i = 0; i < 10; i++)
      await createWebhookEndpoint(h.app, seeded.account.id, { url: `https://e${i}.example/h` });
    const admin = await adminOf(seeded.account.id);
    const r = await admin.gql(
      `mutation { createWebhookEndpoint(input: { url: "https://e10.example/h" }) { __typename ... on Error { code } ... on LimitError { limit } } }`,
    );
    expect(r.body.data.createWebhookEndpoint).toEqual({
      __typename: 'LimitError',
      code: 'webhook_endpoint_limit',
      limit: 10,
    });
  });
});
