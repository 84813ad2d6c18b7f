// Retention, deletion with tombstones and the audit log (issue 13.4–6), through the real service:
// intake at POST /v1/calls, GraphQL as signed-in users of each role, the CSV export, the jobs' work.
import { randomUUID } from 'node:crypto';
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { runBulkDeletion, filterFromDetail } from '../../src/calls/call-deletion.ts';
import { applyRetention } from '../../src/calls/retention.ts';
import { AUDIT_CSV_COLUMNS } from '../../src/export/audit-route.ts';
import { insertQueuedCall } from '../../src/intake/intake-sql.ts';
import { createHousekeepingTask } from '../../workers/housekeeping.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';
import { insertCall } from './fixtures.ts';
import { seedAccount } from './support.ts';

type Acct = Awaited<ReturnType<typeof seedAccount>>;

async function setup(service: TestService, name: string) {
  const acct = await seedAccount({ app: service.app, url: `${service.url}/graphql` } as never, name);
  const agent = await createAgent(service.app.db, acct.account.id, { name: 'Ana García', code: 'AG-07' });
  const { key } = await createApiKey(service.app.db, acct.account.id, 'intake', { system: 'cli' });
  return { ...acct, agent, key };
}

const post = (service: TestService, key: string, externalId: string, bytes = 4096) =>
  postCall(service.url, {
    key,
    file: { blob: wavBlob(bytes), name: 'call.wav' },
    fields: { agent_code: 'AG-07', external_id: externalId },
  });

async function usageOf(a: Acct) {
  const r = await a.as.owner.gql(
    `{ usage { ... on QueryUsageSuccess { data { calls minutesReserved minutesUsed storageBytes storageFreedBytes } } } }`,
  );
  return r.body.data.usage.data;
}

async function auditOf(a: Acct, actions?: string[]) {
  const r = await a.as.owner.gql(
    `query($a: [String!]) { auditLog(actions: $a, first: 100) { edges { node { action actor { email } targetType targetId detail createdAt } } } }`,
    { a: actions ?? null },
  );
  expect(r.body.errors).toBeUndefined();
  return r.body.data.auditLog.edges.map((e: { node: unknown }) => e.node) as {
    action: string;
    actor: { email: string } | null;
    targetType: string;
    targetId: string | null;
    detail: Record<string, unknown>;
  }[];
}

const DELETE_CALL = `mutation($id: ID!) { deleteCall(id: $id) { __typename ... on DeletedCall { id externalId } ... on Error { code } } }`;
const COUNT = `query($f: CallFilter) { callsToDeleteCount(filter: $f) }`;
const DELETE_CALLS = `mutation($f: CallFilter, $n: Int!) { deleteCalls(filter: $f, expectedCount: $n) { __typename ... on BulkDeletion { count queued } ... on Error { code message } } }`;

describe('deleting a call', () => {
  test('removes call, recording and charge-free reservation; a resent external_id answers exists and is never charged', async ({
    service,
  }) => {
    const a = await setup(service, 'Deleto');
    const first = await post(service, a.key, 'crm-1', 3 * 1_048_576);
    expect(first.status).toBe(201);
    const id = first.body.id as string;
    expect(service.storedFiles()).toHaveLength(1);
    const before = await usageOf(a);
    expect(before).toMatchObject({ calls: 1, minutesReserved: 3, storageBytes: 3 * 1_048_576 });

    const r = await a.as.admin.gql(DELETE_CALL, { id });
    expect(r.body.data.deleteCall).toEqual({ __typename: 'DeletedCall', id, externalId: 'crm-1' });

    // Recording gone from storage, row gone, tombstone kept.
    expect(service.storedFiles()).toHaveLength(0);
    expect(await service.app.db.call.count({ where: { id } })).toBe(0);
    expect(await service.app.db.callTombstone.findUnique({ where: { id } })).toMatchObject({ externalId: 'crm-1' });
    const gone = await a.as.owner.gql(`query($id: ID!) { call(id: $id) { id } }`, { id });
    expect(gone.body.data.call).toBeNull();
    // Its link still says what happened: deleted, when and by whom (nothing of its content).
    const tomb = await a.as.viewer.gql(`query($id: ID!) { deletedCall(id: $id) { id deletedAt deletedByName } }`, {
      id,
    });
    expect(tomb.body.data.deletedCall).toEqual({ id, deletedAt: expect.any(String), deletedByName: 'Deleto admin' });
    const deletedAt = tomb.body.data.deletedCall.deletedAt as string;

    // The queued call's reservation was given back (no charge); storage went down and shows as freed.
    const after = await usageOf(a);
    expect(after).toMatchObject({ calls: 1, minutesReserved: 0, minutesUsed: 0, storageBytes: 0 });
    expect(after.storageFreedBytes).toBe(3 * 1_048_576);

    // Resent: 200 exists with the original id, nothing stored, nothing charged.
    const again = await post(service, a.key, 'crm-1', 2 * 1_048_576);
    expect(again.status).toBe(200);
    // …and says the call was deleted (when), so the integrator does not follow a dead link unawares.
    expect(again.body).toEqual({
      id,
      status: 'exists',
      url: expect.stringMatching(new RegExp(`/calls/${id}$`)),
      deleted_at: deletedAt,
    });
    expect(service.storedFiles()).toHaveLength(0);
    expect(await usageOf(a)).toEqual(after);
    // The ledger is history: the reservation and its release outlive the call.
    const ledger = await service.app.db.minuteLedger.findMany({ where: { callId: id }, orderBy: { id: 'asc' } });
    expect(ledger.map((l) => l.kind)).toEqual(['reserve', 'release']);

    const audit = await auditOf(a, ['call.deleted']);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'call.deleted',
        actor: { email: a.users.admin.email },
        targetId: id,
        detail: { externalId: 'crm-1' },
      }),
    ]);
  });

  test('an intake that read its facts before the deletion still answers exists (the insert checks tombstones)', async ({
    service,
  }) => {
    const a = await setup(service, 'Racy');
    const call = await insertCall(
      service.app.db,
      { accountId: a.account.id, agentId: a.agent.id },
      { externalId: 'x-9' },
    );
    await a.as.owner.gql(DELETE_CALL, { id: call.id });
    const answer = await insertQueuedCall(
      service.app.db,
      {
        id: randomUUID(),
        accountId: a.account.id,
        externalId: 'x-9',
        source: 'api',
        agentId: a.agent.id,
        campaignId: null,
        startedAt: new Date(),
        customerPhone: null,
        customerName: null,
        direction: null,
        language: null,
        fileName: 'x.wav',
        fileSize: 10,
        fileSha256: 'ab',
        contentType: 'audio/wav',
        storageKey: 'k/racy',
        minutes: 1,
        period: '2026-11',
      },
      1000,
      'accepted via api',
    );
    expect(answer).toEqual({ status: 'exists' });
    expect(await service.app.db.call.count({ where: { accountId: a.account.id } })).toBe(0);
    expect(await service.app.db.usagePeriod.count({ where: { accountId: a.account.id, period: '2026-11' } })).toBe(0);
  });

  test('a settled call keeps its charged minutes after deletion', async ({ service }) => {
    const a = await setup(service, 'Settled');
    const call = await insertCall(service.app.db, { accountId: a.account.id, agentId: a.agent.id }, { usedMinutes: 2 });
    await service.app.db.usagePeriod.create({
      data: { accountId: a.account.id, period: '2024-01', calls: 1, minutesUsed: 2, storageBytes: 1000n },
    });
    await service.app.db.minuteLedger.createMany({
      data: [
        { accountId: a.account.id, callId: call.id, period: '2024-01', kind: 'reserve', minutes: 1 },
        { accountId: a.account.id, callId: call.id, period: '2024-01', kind: 'settle', minutes: 2 },
      ],
    });
    const r = await a.as.owner.gql(DELETE_CALL, { id: call.id });
    expect(r.body.data.deleteCall.__typename).toBe('DeletedCall');
    const period = await service.app.db.usagePeriod.findUniqueOrThrow({
      where: { accountId_period: { accountId: a.account.id, period: '2024-01' } },
    });
    expect(period).toMatchObject({ minutesUsed: 2, minutesReserved: 0, storageBytes: 0n, storageFreedBytes: 1000n });
  });

  test('viewers and analysts cannot delete; another account’s call is not found', async ({ service }) => {
    const a = await setup(service, 'Roles');
    const b = await setup(service, 'Other');
    const call = await insertCall(service.app.db, { accountId: a.account.id, agentId: a.agent.id });
    for (const role of ['viewer', 'analyst'] as const) {
      const r = await a.as[role].gql(DELETE_CALL, { id: call.id });
      expect(r.body.errors?.[0]?.extensions?.code, role).toBe('FORBIDDEN');
      const bulk = await a.as[role].gql(DELETE_CALLS, { f: {}, n: 1 });
      expect(bulk.body.errors?.[0]?.extensions?.code, role).toBe('FORBIDDEN');
    }
    const foreign = await b.as.owner.gql(DELETE_CALL, { id: call.id });
    expect(foreign.body.data.deleteCall).toEqual({ __typename: 'NotFoundError', code: 'not_found' });
    expect(await service.app.db.call.count({ where: { id: call.id } })).toBe(1);
  });

  test('a crash between commit and file removal leaves a file the hourly housekeeping removes', async ({ service }) => {
    const a = await setup(service, 'Crashy');
    const call = await insertCall(service.app.db, { accountId: a.account.id, agentId: a.agent.id });
    const file = path.join(service.config.storageDir, call.storageKey);
    const temp = path.join(service.config.storageDir, 'crash.tmp');
    await writeFile(temp, 'audio');
    await service.app.storage.putFile(call.storageKey, temp);
    // What a crash right after the commit leaves: the row is gone, the file is not.
    await service.app.db.call.delete({ where: { id: call.id } });
    const old = new Date(Date.now() - 2 * 3_600_000);
    await utimes(file, old, old);
    await createHousekeepingTask(service.app)({}, { job: {} } as never);
    expect(service.storedFiles()).not.toContain(call.storageKey);
  });
});

describe('deleting every call matching a filter', () => {
  test('shows the count, refuses a stale confirmation, deletes and audits once', async ({ service }) => {
    const a = await setup(service, 'Bulk');
    const other = await createAgent(service.app.db, a.account.id, { name: 'Bea', code: 'B-1' });
    for (let i = 0; i < 3; i++) await insertCall(service.app.db, { accountId: a.account.id, agentId: a.agent.id });
    const kept = await insertCall(service.app.db, { accountId: a.account.id, agentId: other.id });
    const f = { agentIds: [a.agent.id] };

    expect((await a.as.admin.gql(COUNT, { f })).body.data.callsToDeleteCount).toBe(3);
    const stale = await a.as.admin.gql(DELETE_CALLS, { f, n: 2 });
    expect(stale.body.data.deleteCalls).toMatchObject({ __typename: 'ConflictError', code: 'count_changed' });
    expect(await service.app.db.call.count({ where: { accountId: a.account.id } })).toBe(4);

    const done = await a.as.owner.gql(DELETE_CALLS, { f, n: 3 });
    expect(done.body.data.deleteCalls).toEqual({ __typename: 'BulkDeletion', count: 3, queued: false });
    expect((await service.app.db.call.findMany({ where: { accountId: a.account.id } })).map((c) => c.id)).toEqual([
      kept.id,
    ]);
    expect(await service.app.db.callTombstone.count({ where: { accountId: a.account.id } })).toBe(3);
    // Tab counts kept by triggers agree with the rows.
    const counts = await a.as.owner.gql(`{ calls(filter: { view: ANALYZED }) { totalCount totalCountExact } }`);
    expect(counts.body.data.calls).toEqual({ totalCount: 1, totalCountExact: true });

    const audit = await auditOf(a, ['calls.deleted']);
    expect(audit).toEqual([
      expect.objectContaining({ actor: { email: a.users.owner.email }, detail: { filter: f, count: 3 } }),
    ]);
  });

  test('more than one batch goes to the delete-calls job, which deletes batch by batch', async ({ service }) => {
    const a = await setup(service, 'Large');
    await service.app.db.$executeRaw`
      INSERT INTO calls (id, account_id, source, agent_id, started_at, file_name, file_size, file_sha256, content_type,
                         storage_key, reserved_minutes, period, status)
      SELECT gen_random_uuid(), ${a.account.id}::uuid, 'api', ${a.agent.id}::uuid, now() - interval '1 day',
             'x.wav', 10, md5(g::text), 'audio/wav', 'k/large-' || g, 1, '2024-01', 'failed'
        FROM generate_series(1, 1100) g`;
    const n = (await a.as.owner.gql(COUNT, { f: { view: 'FAILED' } })).body.data.callsToDeleteCount;
    expect(n).toBe(1100);
    const r = await a.as.owner.gql(DELETE_CALLS, { f: { view: 'FAILED' }, n });
    expect(r.body.data.deleteCalls).toEqual({ __typename: 'BulkDeletion', count: 1100, queued: true });
    const [job] = await service.app.db.$queryRaw<{ payload: Record<string, unknown> }[]>`
      SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
       WHERE k.identifier = 'delete-calls'`;
    expect(job).toBeDefined();
    const p = job!.payload as {
      accountId: string;
      deletedById: string;
      filter: Record<string, unknown>;
      createdBefore: string;
    };
    expect(
      await runBulkDeletion(service.app, {
        accountId: p.accountId,
        deletedById: p.deletedById,
        filter: filterFromDetail(p.filter),
        createdBefore: new Date(p.createdBefore),
      }),
    ).toBe(1100);
    expect(await service.app.db.call.count({ where: { accountId: a.account.id } })).toBe(0);
    expect(await service.app.db.callTombstone.count({ where: { accountId: a.account.id } })).toBe(1100);
  });
});

describe('retention', () => {
  test('an owner sets retention; the daily job removes old recordings and transcripts, keeps score and criteria', async ({
    service,
  }) => {
    const a = await setup(service, 'Retain');
    const set = await a.as.owner.gql(
      `mutation { updateRetention(recordingDays: 30, transcriptDays: 365) { __typename ... on Account { retentionRecordingDays retentionTranscriptDays } } }`,
    );
    expect(set.body.data.updateRetention).toEqual({
      __typename: 'Account',
      retentionRecordingDays: 30,
      retentionTranscriptDays: 365,
    });
    const bad = await a.as.owner.gql(
      `mutation { updateRetention(recordingDays: 0) { __typename ... on Error { code } } }`,
    );
    expect(bad.body.data.updateRetention).toEqual({ __typename: 'ValidationError', code: 'invalid_retention' });
    const denied = await a.as.analyst.gql(`mutation { updateRetention(recordingDays: 5) { __typename } }`);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const now = new Date();
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
    const ids = { veryOld: '', old: '', fresh: '', inProgress: '' };
    for (const [name, started, status] of [
      ['veryOld', daysAgo(400), 'analyzed'],
      ['old', daysAgo(40), 'analyzed'],
      ['fresh', daysAgo(5), 'analyzed'],
      ['inProgress', daysAgo(400), 'transcribing'],
    ] as const) {
      const c = await insertCall(
        service.app.db,
        { accountId: a.account.id, agentId: a.agent.id },
        { startedAt: started, status, storageKey: `${a.account.id}/2024-01/${name}.wav`, period: '2024-01' },
      );
      await writeFile(path.join(service.config.storageDir, 'in.wav'), 'x'.repeat(1000));
      await service.app.storage.putFile(c.storageKey, path.join(service.config.storageDir, 'in.wav'));
      ids[name] = c.id;
    }
    await service.app.db.usagePeriod.create({
      data: { accountId: a.account.id, period: '2024-01', calls: 4, storageBytes: 4000n },
    });

    const run = await applyRetention(service.app, now);
    expect(run).toMatchObject({ recordings: 2, transcripts: 1, bytesFreed: 2000 });
    const stored = service.storedFiles();
    expect(stored.filter((f) => f.includes(a.account.id)).sort()).toEqual(
      [`${a.account.id}/2024-01/fresh.wav`, `${a.account.id}/2024-01/inProgress.wav`].sort(),
    );

    const Q = `query($id: ID!) { call(id: $id) { score criteria { key points evidence { quote } } summary transcript { text } recordingDeletedAt transcriptDeletedAt } }`;
    const veryOld = (await a.as.viewer.gql(Q, { id: ids.veryOld })).body.data.call;
    expect(veryOld).toMatchObject({ score: 80, summary: null, transcript: null });
    expect(veryOld.criteria).toEqual([{ key: 'greeting', points: 5, evidence: [] }]);
    expect(veryOld.recordingDeletedAt).not.toBeNull();
    expect(veryOld.transcriptDeletedAt).not.toBeNull();
    const old = (await a.as.viewer.gql(Q, { id: ids.old })).body.data.call;
    expect(old.recordingDeletedAt).not.toBeNull();
    expect(old.transcriptDeletedAt).toBeNull();
    expect(old.transcript).not.toBeNull();
    const fresh = (await a.as.viewer.gql(Q, { id: ids.fresh })).body.data.call;
    expect(fresh).toMatchObject({ recordingDeletedAt: null, transcriptDeletedAt: null });

    // The download of a removed recording says so.
    const dl = await fetch(`${service.url}/api/calls/${ids.old}/recording`, {
      headers: { cookie: a.as.viewer.cookie! },
    });
    expect(dl.status).toBe(410);
    expect((await dl.json()).error.code).toBe('recording_deleted');

    const period = await service.app.db.usagePeriod.findUniqueOrThrow({
      where: { accountId_period: { accountId: a.account.id, period: '2024-01' } },
    });
    expect(period).toMatchObject({ storageBytes: 2000n, storageFreedBytes: 2000n });

    // A second run finds nothing more to do.
    expect(await applyRetention(service.app, now)).toMatchObject({ recordings: 0, transcripts: 0 });

    const audit = await auditOf(a, ['retention.changed', 'retention.applied']);
    expect(audit.map((e) => [e.action, e.actor?.email ?? null])).toEqual([
      ['retention.applied', null],
      ['retention.changed', a.users.owner.email],
    ]);
    expect(audit[0]!.detail).toMatchObject({ by: 'retention', recordings: 2, transcripts: 1, bytesFreed: 2000 });
    expect(audit[1]!.detail).toEqual({
      recordingDays: { from: null, to: 30 },
      transcriptDays: { from: null, to: 365 },
    });
  });
});

describe('audit log', () => {
  test('records every audited action with its actor; only owners read it; CSV export is formula-safe', async ({
    service,
  }) => {
    const a = await setup(service, 'Audited');
    const b = await setup(service, 'Stranger');
    const admin = a.as.admin;
    const key = await admin.gql(`mutation { createApiKey(name: "=CRM") { ... on CreatedApiKey { apiKey { id } } } }`);
    const keyId = key.body.data.createApiKey.apiKey.id;
    await admin.gql(`mutation($id: ID!) { revokeApiKey(id: $id) { __typename } }`, { id: keyId });
    await a.as.owner.gql(`mutation($id: ID!) { changeUserRole(userId: $id, role: ANALYST) { __typename } }`, {
      id: a.users.viewer.id,
    });
    const inv = await admin.gql(
      `mutation { inviteUser(email: "new@example.com", role: VIEWER) { ... on InvitationPayload { invitation { id } } } }`,
    );
    await admin.gql(`mutation($id: ID!) { revokeInvitation(id: $id) { __typename } }`, {
      id: inv.body.data.inviteUser.invitation.id,
    });
    await admin.gql(`mutation($id: ID!) { removeUser(userId: $id) { __typename } }`, { id: a.users.viewer.id });
    await admin.gql(`mutation { setWebhookEndpoint(url: "https://93.184.216.34/a") { __typename } }`);
    await admin.gql(`mutation { setWebhookEndpoint(url: "https://93.184.216.34/b") { __typename } }`);
    await admin.gql(`mutation { rotateWebhookSecret { __typename } }`);

    const entries = await auditOf(a);
    const summary = entries.map((e) => [e.action, e.actor?.email ?? `system:${String(e.detail.by)}`]).reverse();
    expect(summary).toEqual([
      ['api_key.created', 'system:cli'],
      ['api_key.created', a.users.admin.email],
      ['api_key.revoked', a.users.admin.email],
      ['user.role_changed', a.users.owner.email],
      ['invitation.created', a.users.admin.email],
      ['invitation.revoked', a.users.admin.email],
      ['user.removed', a.users.admin.email],
      ['webhook.endpoint_created', a.users.admin.email],
      ['webhook.url_changed', a.users.admin.email],
      ['webhook.secret_rotated', a.users.admin.email],
    ]);
    const urlChanges = entries.filter((e) => e.action === 'webhook.url_changed').map((e) => e.detail);
    expect(urlChanges).toEqual([{ from: 'https://93.184.216.34/a', to: 'https://93.184.216.34/b' }]);
    expect(entries.find((e) => e.action === 'webhook.endpoint_created')!.detail).toEqual({
      url: 'https://93.184.216.34/a',
    });
    expect(entries.find((e) => e.action === 'user.role_changed')!.detail).toMatchObject({
      from: 'viewer',
      to: 'analyst',
    });
    // Secrets never reach the log.
    expect(JSON.stringify(entries)).not.toMatch(/whsec_|esk_[A-Za-z0-9_-]{20}/);

    // Keyset pages and the action filter.
    const page1 = await a.as.owner.gql(
      `{ auditLog(first: 4) { edges { node { id } } pageInfo { endCursor hasNextPage } } }`,
    );
    const { endCursor, hasNextPage } = page1.body.data.auditLog.pageInfo;
    expect(hasNextPage).toBe(true);
    const page2 = await a.as.owner.gql(
      `query($c: String) { auditLog(first: 100, after: $c) { edges { node { id } } } }`,
      {
        c: endCursor,
      },
    );
    const allIds = [...page1.body.data.auditLog.edges, ...page2.body.data.auditLog.edges].map(
      (e: { node: { id: string } }) => e.node.id,
    );
    expect(allIds).toHaveLength(entries.length);
    expect(new Set(allIds).size).toBe(entries.length);
    expect((await auditOf(a, ['api_key.revoked'])).map((e) => e.targetId)).toEqual([keyId]);
    const unknown = await a.as.owner.gql(`{ auditLog(actions: ["nope"]) { edges { node { id } } } }`);
    expect(unknown.body.errors?.[0]?.message ?? '').toMatch(/Unknown audit action|Unexpected/);

    // Only owners; another account sees none of it.
    for (const role of ['admin', 'analyst'] as const) {
      const r = await a.as[role].gql(`{ auditLog { edges { node { id } } } }`);
      expect(r.body.errors?.[0]?.extensions?.code, role).toBe('FORBIDDEN');
    }
    const theirs = await auditOf(b);
    expect(theirs.every((e) => e.action === 'api_key.created' && e.detail.by === 'cli')).toBe(true);

    // CSV: owners only, newest first, cells that could run as formulas are quoted.
    await service.app.db.user.update({ where: { id: a.users.admin.id }, data: { name: '=HYPERLINK("x")' } });
    const csvAs = (who: typeof a.as.owner) =>
      fetch(`${service.url}/api/audit-log.csv?action=api_key.created,api_key.revoked`, {
        headers: { cookie: who.cookie! },
      });
    expect((await csvAs(a.as.admin)).status).toBe(403);
    const csv = await csvAs(a.as.owner);
    expect(csv.status).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"")",api_key.revoked,`);
    expect(lines[3]).toContain(',,system,api_key.created,');
  });
});
