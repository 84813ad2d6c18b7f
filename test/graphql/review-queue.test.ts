// Review queue and bulk re-analysis over GraphQL (issue 10.6–7), as the web app uses them.
import { describe, expect } from '../support/harness.ts';
import { runBulkReanalysisBatch } from '../../src/calls/bulk-reanalysis.ts';
import { insertCall, seedData } from './fixtures.ts';
import { seedAccount, type Harness, test } from './support.ts';

let h: Harness;
let acme: Awaited<ReturnType<typeof seedAccount>>;
let bolt: Awaited<ReturnType<typeof seedAccount>>;
let data: Awaited<ReturnType<typeof seedData>>;

test.beforeAll(async ({ gql, acme: seeded }) => {
  h = gql;
  acme = seeded;
  bolt = await seedAccount(h, 'Bolt');
  data = await seedData(h.app.db, acme.account.id, 'Acme', acme.users.owner.id);
  await seedData(h.app.db, bolt.account.id, 'Bolt', bolt.users.owner.id);
});

const own = () => ({ accountId: acme.account.id, agentId: data.agent.id, templateId: data.template.id });

describe('bulk re-analysis over GraphQL', () => {
  test('shows the count first, starts with that count, reports progress, and re-analyzes that many calls', async () => {
    for (let i = 0; i < 4; i++) await insertCall(h.app.db, own(), { startedAt: new Date(Date.now() - i * 86400_000) });
    const filter = { startedFrom: new Date(Date.now() - 30 * 86400_000).toISOString() };
    const counted = await acme.as.analyst.gql(
      `query($filter: CallFilter, $t: ID) { bulkReanalysisCount(filter: $filter, templateId: $t) { __typename ... on BulkReanalysisCount { count } } }`,
      { filter, t: data.template.id },
    );
    expect(counted.body.data.bulkReanalysisCount.count).toBe(4);

    const started = await acme.as.analyst.gql(
      `mutation($filter: CallFilter, $t: ID) { startBulkReanalysis(filter: $filter, templateId: $t) { __typename ... on BulkReanalysis { id status total requested } } }`,
      { filter, t: data.template.id },
    );
    const bulk = started.body.data.startBulkReanalysis;
    expect(bulk).toMatchObject({ __typename: 'BulkReanalysis', status: 'RUNNING', total: 4, requested: 0 });

    while (await runBulkReanalysisBatch(h.app.db, bulk.id)) {}
    const progress = await acme.as.viewer.gql(`{ bulkReanalysis(id: "${bulk.id}") { id } }`);
    expect(progress.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const done = await acme.as.analyst.gql(`{ bulkReanalysis(id: "${bulk.id}") { status total requested skipped } }`);
    expect(done.body.data.bulkReanalysis).toEqual({ status: 'FINISHED', total: 4, requested: 4, skipped: 0 });
    expect(
      await h.app.db.call.count({ where: { accountId: acme.account.id, status: 'analyzing', analysisRevision: 1 } }),
    ).toBe(4);
    // Another account's analyst cannot read it.
    const foreign = await bolt.as.owner.gql(`{ bulkReanalysis(id: "${bulk.id}") { id } }`);
    expect(foreign.body.data.bulkReanalysis).toBeNull();
    // Finished: cancelling is a conflict, not a silent success.
    const cancel = await acme.as.analyst.gql(
      `mutation { cancelBulkReanalysis(id: "${bulk.id}") { __typename ... on Error { code } } }`,
    );
    expect(cancel.body.data.cancelBulkReanalysis).toEqual({ __typename: 'ConflictError', code: 'not_ready' });
    await h.app.db.call.updateMany({ where: { accountId: acme.account.id }, data: { status: 'analyzed' } });
  });

  test('cancel stops a running one', async () => {
    const started = await acme.as.admin.gql(`mutation { startBulkReanalysis { ... on BulkReanalysis { id total } } }`);
    const { id } = started.body.data.startBulkReanalysis;
    const cancelled = await acme.as.admin.gql(
      `mutation { cancelBulkReanalysis(id: "${id}") { ... on BulkReanalysis { status requested } } }`,
    );
    expect(cancelled.body.data.cancelBulkReanalysis).toEqual({ status: 'CANCELLED', requested: 0 });
    expect(await runBulkReanalysisBatch(h.app.db, id)).toBe(false);
    expect(await h.app.db.call.count({ where: { accountId: acme.account.id, status: 'analyzing' } })).toBe(0);
  });
});

describe('review queue over GraphQL', () => {
  const QUEUE = `query($filter: ReviewQueueFilter, $first: Int, $after: String) {
    reviewQueue(filter: $filter, first: $first, after: $after) {
      __typename
      ... on ReviewQueuePage { items { call { id } reasons assignedTo { name } doneBy { name } doneAt } hasNextPage endCursor }
      ... on Error { code }
    }
  }`;

  test('pages through flagged calls with their reasons; assign to me and done', async () => {
    await acme.as.analyst.gql(`mutation { setReviewSamplePercent(percent: 0) { __typename } }`);
    const flagged = [];
    for (let i = 0; i < 3; i++) {
      flagged.push(
        await insertCall(h.app.db, own(), { needsReview: true, startedAt: new Date(Date.UTC(2025, 0, 1 + i)) }),
      );
    }
    const newestFirst = flagged.map((c) => c.id).reverse();
    // The seed has a disputed call too (test/graphql/support.ts); this test pages through its own flags.
    const filter = { reasons: ['NEEDS_REVIEW'] };
    const p1 = await acme.as.analyst.gql(QUEUE, { filter, first: 2 });
    const page1 = p1.body.data.reviewQueue;
    expect(page1.items.map((i: any) => i.call.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.items[0].reasons).toEqual(['NEEDS_REVIEW']);
    expect(page1.hasNextPage).toBe(true);
    const p2 = await acme.as.analyst.gql(QUEUE, { filter, first: 2, after: page1.endCursor });
    expect(p2.body.data.reviewQueue.items.map((i: any) => i.call.id)).toEqual(newestFirst.slice(2));
    expect(p2.body.data.reviewQueue.hasNextPage).toBe(false);

    const assigned = await acme.as.analyst.gql(
      `mutation { assignReview(callId: "${newestFirst[0]}") { ... on ReviewItem { assignedTo { name } } } }`,
    );
    expect(assigned.body.data.assignReview.assignedTo.name).toBe('Acme analyst');
    const mine = await acme.as.analyst.gql(QUEUE, { filter: { assignedToMe: true } });
    expect(mine.body.data.reviewQueue.items.map((i: any) => i.call.id)).toEqual([newestFirst[0]]);
    const done = await acme.as.analyst.gql(
      `mutation { completeReview(callId: "${newestFirst[0]}") { ... on ReviewItem { doneBy { name } doneAt } } }`,
    );
    expect(done.body.data.completeReview.doneBy.name).toBe('Acme analyst');
    const open = await acme.as.analyst.gql(QUEUE, { filter: { reasons: ['NEEDS_REVIEW'] } });
    expect(open.body.data.reviewQueue.items.map((i: any) => i.call.id)).toEqual(newestFirst.slice(1));

    // Viewers do not see the queue; another account sees none of these calls.
    const viewer = await acme.as.viewer.gql(QUEUE, {});
    expect(viewer.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const foreign = await bolt.as.owner.gql(QUEUE, {});
    expect(JSON.stringify(foreign.body)).not.toContain(newestFirst[1]);
    const forged = await acme.as.analyst.gql(QUEUE, { after: 'garbage' });
    expect(forged.body.data.reviewQueue).toEqual({ __typename: 'ValidationError', code: 'invalid_cursor' });
  });

  test('a criterion failed only on unsure words puts the call in the queue as LOW_CONFIDENCE until overridden', async () => {
    await acme.as.analyst.gql(`mutation { setReviewSamplePercent(percent: 0) { __typename } }`);
    const criteria = [
      {
        key: 'greeting',
        label: 'Greets the customer',
        kind: 'phrase',
        result: 'failed',
        points: 0,
        max_points: 1,
        critical: false,
        evidence: [],
        weight: 1,
        low_confidence: true,
      },
    ];
    const call = await insertCall(h.app.db, own(), { criteria, score: 0, startedAt: new Date(Date.UTC(2024, 5, 1)) });
    const filter = { reasons: ['LOW_CONFIDENCE'] };
    const listed = await acme.as.analyst.gql(QUEUE, { filter });
    expect(listed.body.data.reviewQueue.items).toEqual([
      expect.objectContaining({ call: { id: call.id }, reasons: ['LOW_CONFIDENCE'] }),
    ]);
    const page = await acme.as.analyst.gql(`{ call(id: "${call.id}") { criteria { key lowConfidence } } }`);
    expect(page.body.data.call.criteria).toEqual([{ key: 'greeting', lowConfidence: true }]);

    // A reviewer who listened and heard the greeting takes it out of the queue.
    const override = await acme.as.analyst.gql(
      `mutation { overrideCriterion(callId: "${call.id}", key: "greeting", result: PASSED, note: "Heard it on the recording") { __typename } }`,
    );
    expect(override.body.data.overrideCriterion.__typename).toBe('Call');
    expect((await acme.as.analyst.gql(QUEUE, { filter })).body.data.reviewQueue.items).toEqual([]);
    const after = await acme.as.analyst.gql(`{ call(id: "${call.id}") { criteria { key lowConfidence } } }`);
    expect(after.body.data.call.criteria).toEqual([{ key: 'greeting', lowConfidence: false }]);
  });

  test('exposes the sample share on the account', async () => {
    const set = await acme.as.analyst.gql(
      `mutation { setReviewSamplePercent(percent: 7.5) { ... on Account { reviewSamplePercent } } }`,
    );
    expect(set.body.data.setReviewSamplePercent.reviewSamplePercent).toBe(7.5);
    const read = await acme.as.viewer.gql(`{ account { reviewSamplePercent } }`);
    expect(read.body.data.account.reviewSamplePercent).toBe(7.5);
  });
});
