// Review queue (issue 10.7): calls that need a person, with their reasons, keyset pages, a stable
// fair sample, assign-to-me and done.
import {
  assignReview,
  completeReview,
  encodeReviewCursor,
  listReviewQueue,
  REVIEW_REASON_KEYS,
  setReviewSamplePercent,
} from '../../src/review/review-queue.ts';
import { insertCall } from '../graphql/fixtures.ts';
import { describe, expect, test } from '../support/harness.ts';
import type { TestApp } from '../support/harness.ts';

const criticalFailed = [
  {
    key: 'no_rudeness',
    label: 'No rude words',
    kind: 'forbidden',
    result: 'failed',
    points: 0,
    max_points: 5,
    critical: true,
    evidence: [],
  },
];

async function setup(app: TestApp, seed: () => Promise<{ account: { id: string }; agents: { id: string }[] }>) {
  const s = await seed();
  await setReviewSamplePercent(app.db, s.account.id, 0);
  const own = { accountId: s.account.id, agentId: s.agents[0]!.id };
  const plain = await insertCall(app.db, own);
  const needsReview = await insertCall(app.db, own, { needsReview: true, coverage: 0.4 });
  const critical = await insertCall(app.db, own, { criteria: criticalFailed, score: 0 });
  const mismatch = await insertCall(app.db, own, { languageMismatch: true });
  const inProgress = await insertCall(app.db, own, { status: 'analyzing', needsReview: true });
  const owner = await app.db.user.findFirstOrThrow({ where: { accountId: s.account.id } });
  return { ...s, owner, own, plain, needsReview, critical, mismatch, inProgress };
}

const ids = (r: { items: { callId: string }[] }) => r.items.map((i) => i.callId);

describe('review queue', () => {
  test('lists analyzed calls with a reason, newest first, each with its reasons', async ({ app, seed }) => {
    const s = await setup(app, seed);
    const page = await listReviewQueue(app.db, s.account.id, {}, { first: 25 });
    expect(ids(page)).toEqual([s.mismatch.id, s.critical.id, s.needsReview.id]);
    expect(page.items.map((i) => i.reasons)).toEqual([['language_mismatch'], ['critical_fail'], ['needs_review']]);
    const onlyCritical = await listReviewQueue(app.db, s.account.id, { reasons: ['critical_fail'] }, { first: 25 });
    expect(ids(onlyCritical)).toEqual([s.critical.id]);
    // Another account sees none of them.
    const other = await seed();
    expect((await listReviewQueue(app.db, other.account.id, {}, { first: 25 })).items).toEqual([]);
  });

  test('a critical fail follows the criteria (a generated column), whoever writes them', async ({ app, seed }) => {
    const s = await setup(app, seed);
    await app.db.call.update({
      where: { id: s.critical.id },
      data: { criteria: [{ ...criticalFailed[0], result: 'passed', points: 5 }] },
    });
    expect(ids(await listReviewQueue(app.db, s.account.id, { reasons: ['critical_fail'] }, { first: 25 }))).toEqual([]);
  });

  test('a criterion failed only on unsure words is its own reason, while it stays failed', async ({ app, seed }) => {
    const s = await setup(app, seed);
    const unsure = { ...criticalFailed[0]!, critical: false, kind: 'phrase', low_confidence: true };
    const call = await insertCall(app.db, s.own, { criteria: [unsure], score: 0 });
    const page = await listReviewQueue(app.db, s.account.id, { reasons: ['low_confidence'] }, { first: 25 });
    expect(page.items.map((i) => [i.callId, i.reasons])).toEqual([[call.id, ['low_confidence']]]);
    await app.db.call.update({ where: { id: call.id }, data: { criteria: [{ ...unsure, result: 'passed' }] } });
    expect(ids(await listReviewQueue(app.db, s.account.id, { reasons: ['low_confidence'] }, { first: 25 }))).toEqual(
      [],
    );
  });

  test('samples a stable share of every agent’s calls by a hash of the call id', async ({ app, seed }) => {
    const s = await setup(app, seed);
    const second = await app.db.agent.create({
      data: { accountId: s.account.id, name: 'Beto', nameNormalized: 'beto' },
    });
    for (let i = 0; i < 200; i++) {
      await insertCall(app.db, { accountId: s.account.id, agentId: i % 2 ? s.agents[0]!.id : second.id });
    }
    await setReviewSamplePercent(app.db, s.account.id, 20);
    const all = async (agentIds?: string[]) => {
      const got: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await listReviewQueue(
          app.db,
          s.account.id,
          { reasons: ['sample'], agentIds: agentIds ?? null },
          {
            first: 7,
            after,
          },
        );
        got.push(...ids(page));
        if (!page.hasNextPage) return got;
        after = encodeReviewCursor(page.items.at(-1)!);
      }
    };
    const first = await all();
    expect(await all()).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
    // About 20 % of each agent's 100 calls (a binomial; 5–40 is far outside chance either way).
    for (const agent of [s.agents[0]!.id, second.id]) {
      const n = (await all([agent])).length;
      expect(n).toBeGreaterThan(5);
      expect(n).toBeLessThan(40);
    }
    await setReviewSamplePercent(app.db, s.account.id, 0);
    expect(await all()).toEqual([]);
    await setReviewSamplePercent(app.db, s.account.id, 100);
    expect((await all()).length).toBe(204);
    await expect(setReviewSamplePercent(app.db, s.account.id, 101)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  test('assign to me and done keep who and when; done calls leave the open queue', async ({ app, seed }) => {
    const s = await setup(app, seed);
    const assigned = await assignReview(app.db, s.account.id, s.critical.id, s.owner.id);
    expect(assigned).toMatchObject({ assignedToId: s.owner.id, doneAt: null });
    expect(assigned.assignedAt).toBeInstanceOf(Date);
    const mine = await listReviewQueue(app.db, s.account.id, { assignedToId: s.owner.id }, { first: 25 });
    expect(ids(mine)).toEqual([s.critical.id]);
    const done = await completeReview(app.db, s.account.id, s.critical.id, s.owner.id);
    expect(done).toMatchObject({ doneById: s.owner.id, reasons: ['critical_fail'] });
    expect(ids(await listReviewQueue(app.db, s.account.id, {}, { first: 25 }))).toEqual([
      s.mismatch.id,
      s.needsReview.id,
    ]);
    expect(ids(await listReviewQueue(app.db, s.account.id, { state: 'done' }, { first: 25 }))).toEqual([s.critical.id]);
    await completeReview(app.db, s.account.id, s.critical.id, s.owner.id, false);
    expect(ids(await listReviewQueue(app.db, s.account.id, {}, { first: 25 }))).toContain(s.critical.id);
    const other = await seed();
    await expect(assignReview(app.db, other.account.id, s.critical.id, s.owner.id)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  test('rejects a forged cursor', async ({ app, seed }) => {
    const s = await seed();
    await expect(listReviewQueue(app.db, s.account.id, {}, { first: 5, after: 'nonsense' })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  test('each flagged reason has an index that starts with the account and the flag, then the list order', async ({
    db,
  }) => {
    expect(REVIEW_REASON_KEYS).toEqual([
      'disputed',
      'needs_review',
      'critical_fail',
      'language_mismatch',
      'low_confidence',
      'sample',
    ]);
    // On a nearly empty table the planner may pick any index, so the test checks the indexes
    // themselves: each reason's rows of an account are one range, read in (started_at, id) order.
    const rows = await db.sql<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'calls' AND indexname LIKE 'calls_account_id_%_started_at_id_idx'`,
    );
    const defs = rows.map((r) => r.indexdef);
    for (const column of ['open_disputes', 'needs_review', 'critical_fail', 'language_mismatch', 'low_confidence_fail'])
      expect(defs, column).toContainEqual(expect.stringContaining(`(account_id, ${column}, started_at, id)`));
  });
});
