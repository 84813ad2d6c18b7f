// Human review and agent disputes (issue 10.3–10.4), through the domain functions and the real
// analyze task: overrides recompute the score with the analysis's own rule, re-analysis keeps
// them unless told otherwise, reviews reach webhooks, and disputes move only along their table.
import type { JobHelpers } from 'graphile-worker';
import { createAnalyzeTask } from '../../workers/analyze.ts';
import { Criteria, parseColumn } from '../../src/call-columns.ts';
import {
  acknowledgeCall,
  canMove,
  DISPUTE_MOVES,
  DISPUTE_STATUSES,
  openDispute,
  resolveDispute,
} from '../../src/review/disputes.ts';
import { requestReanalysis } from '../../src/calls/reanalyze.ts';
import { overrideCriterion } from '../../src/review/override.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import type { TestApp } from '../support/harness.ts';
import { describe, expect, test } from '../support/harness.ts';

const TEMPLATE = {
  version: 1,
  language: 'en',
  criteria: [
    {
      key: 'greeting',
      label: 'Greets with the company name',
      kind: 'phrase',
      speaker: 'agent',
      weight: 3,
      phrases: ['thank you for calling Zentrix'],
    },
    { key: 'no_rudeness', label: 'No rude words', kind: 'forbidden', speaker: 'agent', weight: 5, phrases: ['stupid'] },
    { key: 'resolved', label: 'Resolves the issue', kind: 'llm', question: 'Was it resolved?', weight: 4 },
  ],
};

// The recogniser misheard the company name, so the greeting fails automatically.
const SEGMENTS = [
  { start: 0, end: 3, speaker: 'agent', text: 'Thank you for calling Send Tricks, this is Ana', channel: 0 },
  { start: 3.5, end: 6, speaker: 'customer', text: 'Hi, my router keeps dropping the connection', channel: 1 },
  { start: 6.5, end: 9, speaker: 'agent', text: 'Let me restart it from here, one moment please', channel: 0 },
];

const helpers = {
  logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
  job: { attempts: 1, max_attempts: 3 },
} as unknown as JobHelpers;

async function setUp(app: TestApp, seed: (o?: object) => Promise<any>) {
  const s = await seed({
    agents: [
      { name: 'Ana García', code: 'AG-07' },
      { name: 'Bruno Díaz', code: 'AG-08' },
    ],
  });
  const template = await createTemplate(app.db, s.account.id, { name: 'Support', definition: TEMPLATE });
  await setDefaultTemplate(app.db, s.account.id, template.id);
  const manager = await app.db.user.findFirstOrThrow({ where: { accountId: s.account.id } });
  const agentUser = await app.db.user.create({
    data: {
      accountId: s.account.id,
      email: `ana-${s.account.id.slice(0, 8)}@example.com`,
      name: 'Ana García',
      role: 'agent',
      agentId: s.agents[0].id,
      passwordHash: 'x',
    },
  });
  const reviewer = { id: manager.id, accountId: s.account.id, name: 'Marta Ruiz' };
  return { ...s, template, reviewer, agentUser };
}

let n = 0;
async function analyzedCall(app: TestApp, accountId: string, agentId: string) {
  n += 1;
  const call = await app.db.call.create({
    data: {
      accountId,
      agentId,
      source: 'api',
      status: 'analyzing',
      startedAt: new Date(),
      fileName: `c${n}.wav`,
      fileSize: 1000n,
      fileSha256: `${n}`.padStart(64, '0'),
      contentType: 'audio/wav',
      storageKey: `k/${n}`,
      reservedMinutes: 1,
      period: '2026-11',
      channels: 2,
      durationSeconds: 9,
      language: 'en',
      segments: SEGMENTS,
    },
  });
  await runAnalysis(app, call.id);
  return call.id;
}

async function runAnalysis(app: TestApp, callId: string) {
  await createAnalyzeTask(app, null)({ callId }, helpers);
  return app.db.call.findUniqueOrThrow({ where: { id: callId } });
}

const criterion = (call: { criteria: unknown }, key: string) =>
  parseColumn(Criteria, call.criteria)!.find((c) => c.key === key)!;

describe('overrides', () => {
  test('a reviewer passes a misheard greeting: the score is recomputed, the automatic values and the history are kept', async ({
    app,
    seed,
  }) => {
    const { account, agents, reviewer } = await setUp(app, seed);
    const callId = await analyzedCall(app, account.id, agents[0].id);
    const auto = await app.db.call.findUniqueOrThrow({ where: { id: callId } });
    // greeting failed (0/3), no_rudeness passed (5/5), resolved N/A (no model): 5 / 8.
    expect(auto).toMatchObject({ status: 'analyzed', score: 62.5, autoScore: 62.5, coverage: 0.667, reviewedAt: null });

    await overrideCriterion(
      app.db,
      reviewer,
      { callId, key: 'greeting', result: 'passed', note: 'Said "Zentrix"; the recogniser heard "Send Tricks".' },
      app.config.publicUrl,
    );
    const reviewed = await app.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(reviewed).toMatchObject({ score: 100, autoScore: 62.5, coverage: 0.667, reviewedById: reviewer.id });
    expect(reviewed.reviewedAt).toBeInstanceOf(Date);
    expect(criterion(reviewed, 'greeting')).toMatchObject({
      result: 'passed',
      auto_result: 'failed',
      points: 3,
      max_points: 3,
      review: { by_name: 'Marta Ruiz', note: 'Said "Zentrix"; the recogniser heard "Send Tricks".' },
    });

    // An N/A criterion judged by a person enters the score and the coverage.
    await overrideCriterion(
      app.db,
      reviewer,
      { callId, key: 'resolved', result: 'failed', note: 'The router was not fixed.' },
      app.config.publicUrl,
    );
    const twice = await app.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(twice).toMatchObject({ score: 66.7, autoScore: 62.5, coverage: 1 });

    // Back to the automatic verdict: still a reviewed criterion, and the history has every step.
    await overrideCriterion(
      app.db,
      reviewer,
      { callId, key: 'resolved', result: 'na', note: 'Cannot tell from the call.' },
      app.config.publicUrl,
    );
    const history = await app.db.criterionReview.findMany({ where: { callId }, orderBy: { id: 'asc' } });
    expect(
      history.map((h) => [h.criterionKey, h.autoResult, h.fromResult, h.toResult, h.scoreBefore, h.scoreAfter]),
    ).toEqual([
      ['greeting', 'failed', 'failed', 'passed', 62.5, 100],
      ['resolved', 'na', 'na', 'failed', 100, 66.7],
      ['resolved', 'na', 'failed', 'na', 66.7, 100],
    ]);
    const audit = await app.db.auditLog.findMany({ where: { targetId: callId, action: 'criterion.overridden' } });
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({ actorUserId: reviewer.id, targetType: 'call' });
  });

  test('a note is required, the criterion must exist, and a call being analyzed cannot be reviewed', async ({
    app,
    seed,
  }) => {
    const { account, agents, reviewer } = await setUp(app, seed);
    const callId = await analyzedCall(app, account.id, agents[0].id);
    const url = app.config.publicUrl;
    await expect(
      overrideCriterion(app.db, reviewer, { callId, key: 'greeting', result: 'passed', note: '   ' }, url),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      overrideCriterion(app.db, reviewer, { callId, key: 'nope', result: 'passed', note: 'x' }, url),
    ).rejects.toMatchObject({ code: 'not_found' });
    const other = { ...reviewer, accountId: (await seed({ agents: [] })).account.id };
    await expect(
      overrideCriterion(app.db, other, { callId, key: 'greeting', result: 'passed', note: 'x' }, url),
    ).rejects.toMatchObject({ code: 'not_found' });
    await requestReanalysis(app.db, account.id, callId, reviewer.id);
    await expect(
      overrideCriterion(app.db, reviewer, { callId, key: 'greeting', result: 'passed', note: 'x' }, url),
    ).rejects.toMatchObject({ code: 'not_ready' });
    expect(await app.db.criterionReview.count({ where: { callId } })).toBe(0);
  });

  test('re-analysis keeps reviewed results on top of the new automatic ones, unless the reviewer discards them', async ({
    app,
    seed,
  }) => {
    const { account, agents, reviewer } = await setUp(app, seed);
    const callId = await analyzedCall(app, account.id, agents[0].id);
    await overrideCriterion(
      app.db,
      reviewer,
      { callId, key: 'greeting', result: 'passed', note: 'Misheard name.' },
      app.config.publicUrl,
    );

    await requestReanalysis(app.db, account.id, callId, reviewer.id);
    const kept = await runAnalysis(app, callId);
    expect(kept).toMatchObject({ status: 'analyzed', score: 100, autoScore: 62.5, analysisRevision: 1 });
    expect(criterion(kept, 'greeting')).toMatchObject({ result: 'passed', auto_result: 'failed' });
    expect(criterion(kept, 'greeting').review?.note).toBe('Misheard name.');

    await requestReanalysis(app.db, account.id, callId, reviewer.id, { discardReviewsBy: reviewer });
    const discarded = await runAnalysis(app, callId);
    expect(discarded).toMatchObject({ score: 62.5, autoScore: 62.5, reviewedAt: null });
    expect(criterion(discarded, 'greeting')).toMatchObject({ result: 'failed' });
    expect(criterion(discarded, 'greeting').auto_result).toBeUndefined();
    const last = await app.db.criterionReview.findFirstOrThrow({ where: { callId }, orderBy: { id: 'desc' } });
    expect(last).toMatchObject({
      fromResult: 'passed',
      toResult: 'failed',
      note: 'Review discarded by a re-analysis.',
    });
  });

  test('webhooks: call.analyzed deliveries now carry the reviewed result; only opted-in endpoints get call.reviewed', async ({
    app,
    seed,
  }) => {
    const { account, agents, reviewer } = await setUp(app, seed);
    const endpoint = (url: string, eventTypes: string[]) =>
      app.db.webhookEndpoint.create({ data: { accountId: account.id, url, secretEncrypted: 'x', eventTypes } });
    const plain = await endpoint('https://crm.example/plain', ['call.analyzed']);
    const optedIn = await endpoint('https://crm.example/reviews', ['call.analyzed', 'call.reviewed']);
    const callId = await analyzedCall(app, account.id, agents[0].id);
    const analyzed = await app.db.webhookDelivery.findMany({ where: { callId, eventType: 'call.analyzed' } });
    expect(analyzed).toHaveLength(2);
    expect(analyzed.map((d) => (d.payload as any).data.score)).toEqual([62.5, 62.5]);

    await overrideCriterion(
      app.db,
      reviewer,
      { callId, key: 'greeting', result: 'passed', note: 'Misheard name.' },
      app.config.publicUrl,
    );
    const after = await app.db.webhookDelivery.findMany({ where: { callId }, orderBy: { createdAt: 'asc' } });
    const again = after.filter((d) => d.eventType === 'call.analyzed');
    // Same events (a redelivery keeps its webhook-id), now with the reviewed data.
    expect(again.map((d) => d.eventId).sort()).toEqual(analyzed.map((d) => d.eventId).sort());
    for (const d of again) {
      const data = (d.payload as any).data;
      expect(data).toMatchObject({ score: 100, auto_score: 62.5 });
      expect(data.criteria.find((c: any) => c.key === 'greeting')).toMatchObject({
        result: 'passed',
        auto_result: 'failed',
      });
    }
    const reviewedEvents = after.filter((d) => d.eventType === 'call.reviewed');
    expect(reviewedEvents.map((d) => d.endpointId)).toEqual([optedIn.id]);
    expect((reviewedEvents[0]!.payload as any).data.review).toMatchObject({
      criterion_key: 'greeting',
      from_result: 'failed',
      to_result: 'passed',
      reviewer: 'Marta Ruiz',
    });
    expect(after.some((d) => d.endpointId === plain.id && d.eventType === 'call.reviewed')).toBe(false);
  });
});

describe('disputes', () => {
  test('the table of moves: open → accepted | rejected, both final', () => {
    expect(DISPUTE_MOVES).toEqual({ open: ['accepted', 'rejected'], accepted: [], rejected: [] });
    for (const from of DISPUTE_STATUSES)
      for (const to of DISPUTE_STATUSES) expect(canMove(from, to)).toBe(from === 'open' && to !== 'open');
  });

  test('an agent disputes a criterion; an analyst rejects with a reply, then accepts a second dispute, which overrides it', async ({
    app,
    seed,
  }) => {
    const { account, agents, reviewer, agentUser } = await setUp(app, seed);
    const callId = await analyzedCall(app, account.id, agents[0].id);
    const url = app.config.publicUrl;
    const openCount = async () => (await app.db.call.findUniqueOrThrow({ where: { id: callId } })).openDisputes;

    const first = await openDispute(app.db, agentUser, { callId, key: 'greeting', comment: 'I said Zentrix!' });
    expect(first.status).toBe('open');
    expect(await openCount()).toBe(1);
    await expect(openDispute(app.db, agentUser, { callId, key: 'greeting', comment: 'again' })).rejects.toMatchObject({
      code: 'already_disputed',
    });

    const rejected = await resolveDispute(
      app.db,
      reviewer,
      { id: first.id, accept: false, reply: 'Listen at 0:01.' },
      url,
    );
    expect(rejected).toMatchObject({ status: 'rejected', reply: 'Listen at 0:01.', resolvedById: reviewer.id });
    expect(rejected.resolvedAt).toBeInstanceOf(Date);
    expect(await openCount()).toBe(0);
    await expect(
      resolveDispute(app.db, reviewer, { id: first.id, accept: true, reply: 'changed my mind' }, url),
    ).rejects.toMatchObject({ code: 'dispute_closed' });
    expect((await app.db.call.findUniqueOrThrow({ where: { id: callId } })).score).toBe(62.5);

    const second = await openDispute(app.db, agentUser, { callId, key: 'greeting', comment: 'Please listen again.' });
    expect(await openCount()).toBe(1);
    const accepted = await resolveDispute(
      app.db,
      reviewer,
      { id: second.id, accept: true, reply: 'You are right.' },
      url,
    );
    expect(accepted.status).toBe('accepted');
    const call = await app.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(call).toMatchObject({ openDisputes: 0, score: 100, autoScore: 62.5 });
    expect(criterion(call, 'greeting')).toMatchObject({ result: 'passed', auto_result: 'failed' });
    expect(await app.db.criterionReview.findFirst({ where: { callId } })).toMatchObject({
      disputeId: second.id,
      note: 'You are right.',
    });
    const events = await app.db.disputeEvent.findMany({ where: { disputeId: first.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.status, e.note])).toEqual([
      ['open', 'I said Zentrix!'],
      ['rejected', 'Listen at 0:01.'],
    ]);
  });

  test("only the call's own agent, within the window, acknowledges or disputes", async ({ app, seed }) => {
    const { account, agents, agentUser, reviewer } = await setUp(app, seed);
    const own = await analyzedCall(app, account.id, agents[0].id);
    const others = await analyzedCall(app, account.id, agents[1].id);

    const first = await acknowledgeCall(app.db, agentUser, own);
    expect(first.acknowledgedAt).toBeInstanceOf(Date);
    const again = await acknowledgeCall(app.db, agentUser, own, new Date(Date.now() + 60_000));
    expect(again.acknowledgedAt).toEqual(first.acknowledgedAt);
    expect(again.acknowledgedById).toBe(agentUser.id);

    await expect(acknowledgeCall(app.db, agentUser, others)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      openDispute(app.db, agentUser, { callId: others, key: 'greeting', comment: 'x' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const manager = { ...reviewer, role: 'admin' as const, agentId: null };
    await expect(acknowledgeCall(app.db, manager, own)).rejects.toMatchObject({ code: 'forbidden' });

    // Seven days by default; the account sets it.
    const eightDays = new Date(Date.now() + 8 * 86_400_000);
    await expect(
      openDispute(app.db, agentUser, { callId: own, key: 'greeting', comment: 'late' }, eightDays),
    ).rejects.toMatchObject({ code: 'dispute_window_closed' });
    await app.db.account.update({ where: { id: account.id }, data: { disputeWindowDays: 10 } });
    const late = await openDispute(app.db, agentUser, { callId: own, key: 'greeting', comment: 'late' }, eightDays);
    expect(late.openedAt).toEqual(eightDays);
  });
});
