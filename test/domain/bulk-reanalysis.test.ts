// Bulk re-analysis (issue 10.6): the count shown first is the number of calls re-analyzed, cancel
// stops between calls, the work queues below new calls, and another account's calls are never touched.
import { Logger, run } from 'graphile-worker';
import { createTemplate } from '../../src/accounts/templates.ts';
import {
  BULK_BATCH,
  cancelBulkReanalysis,
  countBulkReanalysis,
  runBulkReanalysisBatch,
  startBulkReanalysis,
} from '../../src/calls/bulk-reanalysis.ts';
import { requestReanalysis } from '../../src/calls/reanalyze.ts';
import { createAnalyzeTask } from '../../workers/analyze.ts';
import { createBulkReanalyzeTask } from '../../workers/bulk-reanalyze.ts';
import { JOBS } from '../../src/jobs/catalog.ts';
import { insertCall, SEGMENTS, TEMPLATE_DEFINITION } from '../graphql/fixtures.ts';
import { describe, expect, test } from '../support/harness.ts';
import type { TestApp } from '../support/harness.ts';

async function account(
  app: TestApp,
  seed: () => Promise<{ account: { id: string }; agents: { id: string }[] }>,
  calls: number,
) {
  const s = await seed();
  const template = await createTemplate(app.db, s.account.id, { name: 'Support', definition: TEMPLATE_DEFINITION });
  await app.db.account.update({ where: { id: s.account.id }, data: { defaultTemplateId: template.id } });
  const ids: string[] = [];
  for (let i = 0; i < calls; i++) {
    const c = await insertCall(app.db, { accountId: s.account.id, agentId: s.agents[0]!.id, templateId: template.id });
    ids.push(c.id);
  }
  const owner = await app.db.user.findFirstOrThrow({ where: { accountId: s.account.id } });
  return { ...s, owner, template, ids };
}

async function jobs(app: TestApp) {
  return app.db.$queryRaw<{ task: string; priority: number; key: string | null }[]>`
    SELECT t.identifier AS task, j.priority, j.key
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     ORDER BY j.id`;
}

/** Runs the job the way the worker does, batch after batch, until it stops queueing itself. */
async function drain(app: TestApp, id: string) {
  while (await runBulkReanalysisBatch(app.db, id)) {}
}

describe('bulk re-analysis', () => {
  test('re-analyzes exactly the calls counted first, in batches, below the priority of new calls', async ({
    app,
    seed,
  }) => {
    await app.db.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    const a = await account(app, seed, BULK_BATCH + 7);
    const other = await account(app, seed, 3);
    const scope = { filter: {} };
    const count = await countBulkReanalysis(app.db, a.account.id, scope);
    expect(count).toBe(BULK_BATCH + 7);

    const bulk = await startBulkReanalysis(app.db, a.account.id, a.owner.id, scope);
    expect(bulk).toMatchObject({ total: count, status: 'running', requested: 0 });
    expect(await jobs(app)).toEqual([{ task: 'bulk-reanalyze', priority: 10, key: `bulk-reanalyze:${bulk.id}` }]);

    // The first run does one batch and queues the next.
    expect(await runBulkReanalysisBatch(app.db, bulk.id)).toBe(true);
    const analyzeJobs = (await jobs(app)).filter((j) => j.task === 'analyze');
    expect(analyzeJobs).toHaveLength(BULK_BATCH);
    // Below new calls: transcription is 0 and a new call's analysis -10; lower numbers run first.
    expect(JOBS['bulk-reanalyze'].priority).toBeGreaterThan(JOBS.transcribe.priority);
    expect(JOBS['bulk-reanalyze'].priority).toBeGreaterThan(JOBS.analyze.priority);
    for (const j of analyzeJobs) expect(j.priority).toBe(JOBS['bulk-reanalyze'].priority);

    await drain(app, bulk.id);
    const done = await app.db.bulkReanalysis.findUniqueOrThrow({ where: { id: bulk.id } });
    expect(done).toMatchObject({ status: 'finished', requested: count, skipped: 0 });
    const rows = await app.db.call.findMany({ where: { accountId: a.account.id } });
    expect(rows.every((c) => c.status === 'analyzing' && c.analysisRevision === 1)).toBe(true);
    // Each call went through the lifecycle: a history row naming the bulk re-analysis.
    const events = await app.db.callEvent.count({
      where: { callId: { in: a.ids }, detail: { contains: `bulk re-analysis ${bulk.id}` } },
    });
    expect(events).toBe(count);
    // Another account's calls are neither counted nor touched.
    const untouched = await app.db.call.findMany({ where: { accountId: other.account.id } });
    expect(untouched.every((c) => c.status === 'analyzed' && c.analysisRevision === 0)).toBe(true);
  });

  test('filters like the calls list, and by template', async ({ app, seed }) => {
    const a = await account(app, seed, 4);
    const other = await createTemplate(app.db, a.account.id, { name: 'Other', definition: TEMPLATE_DEFINITION });
    await app.db.call.update({ where: { id: a.ids[0]! }, data: { templateId: other.id, score: 10 } });
    expect(await countBulkReanalysis(app.db, a.account.id, { filter: {}, templateId: other.id })).toBe(1);
    expect(await countBulkReanalysis(app.db, a.account.id, { filter: { scoreMax: 20 } })).toBe(1);
    expect(await countBulkReanalysis(app.db, a.account.id, { filter: { view: 'failed' } })).toBe(0);
    const bulk = await startBulkReanalysis(app.db, a.account.id, a.owner.id, { filter: {}, templateId: other.id });
    await drain(app, bulk.id);
    const moved = await app.db.call.findMany({ where: { accountId: a.account.id, analysisRevision: 1 } });
    expect(moved.map((c) => c.id)).toEqual([a.ids[0]]);
  });

  test('cancel stops it between calls; a finished one cannot be cancelled', async ({ app, seed }) => {
    const a = await account(app, seed, BULK_BATCH * 2 + 1);
    const bulk = await startBulkReanalysis(app.db, a.account.id, a.owner.id, { filter: {} });
    expect(await runBulkReanalysisBatch(app.db, bulk.id)).toBe(true);
    const cancelled = await cancelBulkReanalysis(app.db, a.account.id, bulk.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', requested: BULK_BATCH });
    expect(await runBulkReanalysisBatch(app.db, bulk.id)).toBe(false);
    expect(await app.db.call.count({ where: { accountId: a.account.id, analysisRevision: 1 } })).toBe(BULK_BATCH);
    await expect(cancelBulkReanalysis(app.db, a.account.id, bulk.id)).rejects.toMatchObject({ code: 'not_ready' });
    // Another account cannot see or cancel it.
    const b = await seed();
    await expect(cancelBulkReanalysis(app.db, b.account.id, bulk.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('resumes after the last call claimed; a call that cannot be re-analyzed is skipped, not retried', async ({
    app,
    seed,
  }) => {
    const a = await account(app, seed, 3);
    const bulk = await startBulkReanalysis(app.db, a.account.id, a.owner.id, { filter: {} });
    // Between the count and its turn, one call got re-analyzed by hand (it is now `analyzing`).
    const sorted = await app.db.call.findMany({
      where: { accountId: a.account.id },
      orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    });
    await requestReanalysis(app.db, a.account.id, sorted[1]!.id, a.owner.id);
    // A worker killed after claiming the first call: the next run starts after it.
    await app.db.bulkReanalysis.update({
      where: { id: bulk.id },
      data: { cursorStartedAt: sorted[0]!.startedAt, cursorId: sorted[0]!.id },
    });
    await drain(app, bulk.id);
    const done = await app.db.bulkReanalysis.findUniqueOrThrow({ where: { id: bulk.id } });
    expect(done).toMatchObject({ status: 'finished', requested: 1 });
    const revisions = await app.db.call.findMany({
      where: { accountId: a.account.id },
      orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
    });
    expect(revisions.map((c) => c.analysisRevision)).toEqual([0, 1, 1]);
  });

  test('in a real worker, new calls are analyzed before the bulk backlog, and every counted call ends analyzed', async ({
    app,
    db,
    seed,
  }) => {
    await app.db.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    const a = await account(app, seed, 12);
    const bulk = await startBulkReanalysis(app.db, a.account.id, a.owner.id, { filter: {} });
    await runBulkReanalysisBatch(app.db, bulk.id);
    // A new call, just transcribed, is queued for analysis (at the analyze job's own priority) after the backlog.
    const fresh = await insertCall(
      app.db,
      { accountId: a.account.id, agentId: a.agents[0]!.id },
      { status: 'transcribed', segments: SEGMENTS },
    );
    await requestReanalysis(app.db, a.account.id, fresh.id, a.owner.id);
    const runner = await run({
      connectionString: db.url,
      concurrency: 1,
      taskList: { analyze: createAnalyzeTask(app, null), 'bulk-reanalyze': createBulkReanalyzeTask(app) },
      noHandleSignals: true,
      pollInterval: 50,
      logger: new Logger(() => () => {}),
    });
    try {
      const deadline = Date.now() + 30_000;
      while ((await app.db.call.count({ where: { accountId: a.account.id, status: 'analyzing' } })) > 0) {
        if (Date.now() > deadline) throw new Error('analysis did not finish');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await runner.stop();
    }
    const calls = await app.db.call.findMany({ where: { accountId: a.account.id }, orderBy: { analyzedAt: 'asc' } });
    expect(calls[0]!.id).toBe(fresh.id);
    expect(calls.filter((c) => c.id !== fresh.id && c.analysisRevision === 1 && c.status === 'analyzed')).toHaveLength(
      bulk.total,
    );
  });
});
