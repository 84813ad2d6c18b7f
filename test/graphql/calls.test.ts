import { describe, expect } from '../support/harness.ts';
import { createDb, type Db } from '../../src/db/client.ts';
import { callUpdatesHubOf } from '../../src/graphql/routes.ts';
import type { TestDb } from '../support/db.ts';
import { insertCall, seedData } from './fixtures.ts';
import { seedAccount, startGraphql, type Harness, test } from './support.ts';

let t: TestDb;
let h: Harness;
let db: Db;
let queries = 0;
let acme: Awaited<ReturnType<typeof seedAccount>>;
let data: Awaited<ReturnType<typeof seedData>>;

test.beforeAll(async ({ db: testDb }) => {
  t = testDb;
  // A client that counts every SQL statement, to prove list queries do not grow with the page size.
  db = createDb(t.url, {
    max: 10,
    onQuery: () => {
      queries += 1;
    },
  });
  h = await startGraphql(t, { db });
  acme = await seedAccount(h, 'Acme');
  data = await seedData(db, acme.account.id, 'Acme', acme.users.owner.id);
});
test.afterAll(async () => {
  await h?.close();
  await db?.$disconnect();
  // Let the adapter's pool finish closing its sockets before DROP DATABASE … WITH (FORCE) kills them.
  await new Promise((resolve) => setTimeout(resolve, 200));
});

const LIST = `query($first: Int, $after: String, $filter: CallFilter, $sort: CallSortField, $order: SortOrder) {
  calls(first: $first, after: $after, filter: $filter, sort: $sort, order: $order) {
    edges { cursor node { id score durationSeconds view agent { name } campaign { name } template { name } } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;

describe('calls', () => {
  test('lists 100 calls with agent, campaign and template in a bounded number of SQL queries', async () => {
    const more = [];
    for (let i = 0; i < 120; i++) {
      const agent = await db.agent.create({
        data: { accountId: acme.account.id, name: `Agent ${i}`, nameNormalized: `agent${i}` },
      });
      more.push(
        insertCall(
          db,
          { accountId: acme.account.id, agentId: agent.id, campaignId: data.campaign.id, templateId: data.template.id },
          { score: i % 100 },
        ),
      );
    }
    await Promise.all(more);
    queries = 0;
    const r = await acme.as.viewer.gql(LIST, { first: 500 });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.calls.edges).toHaveLength(100); // capped
    expect(r.body.data.calls.edges[0].node.agent.name).toMatch(/Agent/);
    expect(r.body.data.calls.edges[0].node.campaign.name).toBe('Acme Campaign');
    expect(r.body.data.calls.edges[0].node.template.name).toBe('Acme Template');
    // session lookup + id page + calls + agents + campaigns + templates, with some slack
    expect(queries).toBeLessThanOrEqual(8);
  });

  test('pages with cursors in a stable order, by score too', async () => {
    const seen = new Set<string>();
    let after: string | null = null;
    let pages = 0;
    do {
      const r: any = await acme.as.viewer.gql(LIST, { first: 50, after, sort: 'SCORE', order: 'DESC' });
      const edges = r.body.data.calls.edges;
      for (let i = 1; i < edges.length; i++)
        expect(edges[i - 1].node.score).toBeGreaterThanOrEqual(edges[i].node.score);
      for (const e of edges) seen.add(e.node.id);
      after = r.body.data.calls.pageInfo.hasNextPage ? r.body.data.calls.pageInfo.endCursor : null;
      pages += 1;
    } while (after);
    expect(pages).toBe(3);
    expect(seen.size).toBe(121);
    const bad = await acme.as.viewer.gql(LIST, { first: 5, after: 'garbage' });
    expect(bad.body.errors?.[0]?.message).toBeDefined();
  });

  test('filters by view, score range, agent and language, and searches transcripts ignoring accents', async () => {
    const failed = await insertCall(
      db,
      { accountId: acme.account.id, agentId: data.agent.id },
      { status: 'failed', failureReason: 'no_speech' },
    );
    const count = async (filter: object) =>
      (await acme.as.viewer.gql(`query($f: CallFilter) { calls(filter: $f) { totalCount } }`, { f: filter })).body.data
        .calls.totalCount;
    expect(await count({ view: 'FAILED' })).toBe(1);
    expect(await count({ view: 'ANALYZED' })).toBe(121);
    expect(await count({ view: 'IN_PROGRESS' })).toBe(0);
    expect(await count({ scoreMin: 10, scoreMax: 19 })).toBe(20);
    expect(await count({ agentIds: [data.agent.id] })).toBe(2);
    expect(await count({ language: 'EN' })).toBe(122);
    expect(await count({ search: 'PEÑA invoice' })).toBe(121);
    expect(await count({ search: '"thanks for calling" -refund' })).toBe(121);
    expect(await count({ search: 'nonexistentword' })).toBe(0);
    const one = await acme.as.viewer.gql(
      `query($id: ID!) { call(id: $id) { view failureReason recordingUrl appUrl } }`,
      { id: failed.id },
    );
    expect(one.body.data.call).toEqual({
      view: 'FAILED',
      failureReason: 'no_speech',
      recordingUrl: `https://escucha.example/api/calls/${failed.id}/recording`,
      appUrl: `https://escucha.example/calls/${failed.id}`,
    });
  });

  test('shows a call with transcript, criteria with evidence, history and webhook deliveries', async () => {
    const r = await acme.as.viewer.gql(
      `query($id: ID!) { call(id: $id) {
      transcript { start end speaker text channel }
      criteria { key result points maxPoints evidence { quote start speaker } }
      events { status }
      webhookDeliveries { eventType status attempts { attemptNumber statusCode } }
    } }`,
      { id: data.call.id },
    );
    const c = r.body.data.call;
    expect(c.transcript[0]).toMatchObject({ speaker: 'agent', channel: 0 });
    expect(c.criteria[0]).toEqual({
      key: 'greeting',
      result: 'PASSED',
      points: 5,
      maxPoints: 5,
      evidence: [{ quote: 'Hello', start: 0, speaker: 'agent' }],
    });
    expect(c.events.map((e: any) => e.status)).toEqual(['QUEUED', 'ANALYZED']);
    expect(c.webhookDeliveries).toEqual([
      { eventType: 'call.analyzed', status: 'PENDING', attempts: [{ attemptNumber: 1, statusCode: 500 }] },
    ]);
  });

  test('previews a template on a call without saving anything', async () => {
    const r = await acme.as.analyst.gql(
      `mutation($id: ID!, $d: JSON!) { previewTemplate(callId: $id, definition: $d) { __typename ... on AnalysisPreview { score criteria { key result } } ... on ValidationError { code issues { path message } } } }`,
      {
        id: data.call.id,
        d: {
          version: 1,
          criteria: [{ key: 'bye', label: 'Says goodbye', weight: 1, kind: 'phrase', phrases: ['goodbye'] }],
        },
      },
    );
    expect(r.body.data.previewTemplate).toMatchObject({
      __typename: 'AnalysisPreview',
      score: 0,
      criteria: [{ key: 'bye', result: 'FAILED' }],
    });
    const bad = await acme.as.analyst.gql(
      `mutation($id: ID!, $d: JSON!) { previewTemplate(callId: $id, definition: $d) { __typename ... on ValidationError { code issues { path message } } } }`,
      {
        id: data.call.id,
        d: { version: 1, criteria: [{ key: 'bye', label: 'x', weight: 11, kind: 'phrase', phrases: ['goodbye'] }] },
      },
    );
    expect(bad.body.data.previewTemplate).toMatchObject({
      __typename: 'ValidationError',
      code: 'invalid_template',
      issues: [{ path: 'criteria[0].weight' }],
    });
  });

  test('re-analysis bumps the revision and enqueues an analyze job in one transaction', async () => {
    const REANALYZE = `mutation($id: ID!) { reanalyzeCall(id: $id) { __typename ... on Call { status analysisRevision } ... on Error { code } } }`;
    const r = await acme.as.analyst.gql(REANALYZE, { id: data.call.id });
    expect(r.body.data.reanalyzeCall).toEqual({ __typename: 'Call', status: 'ANALYZING', analysisRevision: 1 });
    const jobs = await t.sql(
      `SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE k.identifier = 'analyze'`,
    );
    expect(jobs.map((j) => j.payload)).toEqual([{ callId: data.call.id }]);
    const again = await acme.as.analyst.gql(REANALYZE, { id: data.call.id });
    expect(again.body.data.reanalyzeCall).toEqual({ __typename: 'ConflictError', code: 'not_ready' });
  });

  test('delivers callUpdated over SSE when another connection changes a call of the account, and nothing of other accounts', async () => {
    const other = await seedAccount(h, 'Other');
    const otherData = await seedData(db, other.account.id, 'Other', other.users.owner.id);
    const target = await insertCall(
      db,
      { accountId: acme.account.id, agentId: data.agent.id },
      { status: 'transcribing' },
    );
    const controller = new AbortController();
    const res = await fetch(h.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-escucha-csrf': acme.as.viewer.csrf!,
        cookie: acme.as.viewer.cookie!,
      },
      body: JSON.stringify({ query: `subscription { callUpdated { id status } }` }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    // The first chunk (a keep-alive or the stream head) means the subscription is set up.
    await reader.read();
    await callUpdatesHubOf(h.app)!.listening();
    await t.sql(`UPDATE calls SET status = 'failed' WHERE id = $1`, [otherData.call.id]);
    await t.sql(`UPDATE calls SET status = 'analyzing' WHERE id = $1`, [target.id]);
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes(target.id) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain(`"callUpdated":{"id":"${target.id}","status":"ANALYZING"}`);
    expect(text).not.toContain(otherData.call.id);
  });
});
