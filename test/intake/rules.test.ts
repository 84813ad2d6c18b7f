// One test per rule of the intake document (§2, §4, §5, §7) and docs/api/product-decisions.md's intake decisions.
import { createAgent } from '../../src/accounts/agents.ts';
import { createCampaign, setCampaignArchived } from '../../src/accounts/campaigns.ts';
import { createApiKey, revokeApiKey } from '../../src/accounts/api-keys.ts';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let acct: Awaited<ReturnType<typeof seedAccount>>;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  acct = await seedAccount(svc, {
    agents: [
      { name: 'Ana García', code: 'AG-07' },
      { name: 'Luis Pérez', code: '1001' },
    ],
  });
  await createCampaign(svc.app.db, acct.account.id, { name: 'Atención Clientes', language: 'es' });
  await createCampaign(svc.app.db, acct.account.id, { name: 'Ventas' });
});

const post = (fields: Record<string, string>, file: { name?: string; blob?: Blob } = {}) =>
  postCall(svc.url, {
    key: acct.key,
    fields,
    file: { blob: file.blob ?? wavBlob(), name: file.name ?? 'recording.wav' },
  });

const callRow = async (id: string) => (await t.sql('SELECT * FROM calls WHERE id = $1', [id]))[0];

describe('§4 POST /calls success responses', () => {
  test('201 Created with {id, status: "queued"} and the app URL for a new call', async () => {
    const r = await post({ agent_code: 'AG-07' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'queued', url: `https://escucha.test/calls/${r.body.id}` });
    expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await callRow(r.body.id);
    expect(row.status).toBe('queued');
  });

  test('queues the call for transcription in the same transaction (a transcribe job exists)', async () => {
    const r = await post({ agent_code: 'AG-07' });
    const jobs = await t.sql("SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'transcribe'");
    expect(jobs.map((j) => j.key)).toContain(`transcribe:${r.body.id}`);
  });

  test('PRODUCT: every response carries X-Request-Id, errors included', async () => {
    const ok = await post({ agent_code: 'AG-07' });
    const bad = await postCall(svc.url, { key: null, fields: {}, file: { blob: wavBlob(), name: 'a.wav' } });
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    expect(bad.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('§5 Authentication (PRODUCT: 401 unauthorized)', () => {
  test('missing key → 401 unauthorized with WWW-Authenticate: Bearer', async () => {
    const r = await postCall(svc.url, {
      key: null,
      file: { blob: wavBlob(), name: 'a.wav' },
      fields: { agent_code: 'AG-07' },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test('malformed or unknown key → 401 unauthorized', async () => {
    for (const key of ['not-a-key', `esk_${'a'.repeat(48)}`]) {
      const r = await postCall(svc.url, {
        key,
        file: { blob: wavBlob(), name: 'a.wav' },
        fields: { agent_code: 'AG-07' },
      });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
    }
  });

  test('revoked key → 401 unauthorized, and nothing is stored', async () => {
    const { key, apiKey } = await createApiKey(svc.app.db, acct.account.id);
    expect(
      (await postCall(svc.url, { key, file: { blob: wavBlob(), name: 'a.wav' }, fields: { agent_code: 'AG-07' } }))
        .status,
    ).toBe(201);
    await revokeApiKey(svc.app.db, acct.account.id, apiKey.prefix, svc.app.apiKeys);
    const before = (await t.sql('SELECT count(*)::int AS n FROM calls'))[0].n;
    const r = await postCall(svc.url, {
      key,
      file: { blob: wavBlob(), name: 'a.wav' },
      fields: { agent_code: 'AG-07' },
    });
    expect(r.status).toBe(401);
    expect((await t.sql('SELECT count(*)::int AS n FROM calls'))[0].n).toBe(before);
  });
});

describe('§4 Agent rules', () => {
  test('rule 1: no agent by any of the three means → 422 agent_required', async () => {
    const r = await post({}, { name: 'recording.wav' });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('agent_required');
  });

  test('rule 2: a named agent nobody in the team has → 422 unknown_agent', async () => {
    expect((await post({ agent_code: 'ZZ-99' })).body.error.code).toBe('unknown_agent');
    expect((await post({ agent_name: 'Nobody Here' })).body.error.code).toBe('unknown_agent');
  });

  test('rule 3: a rejected recording is not stored and consumes no minutes', async () => {
    const usage = await t.sql('SELECT * FROM usage_totals WHERE account_id = $1', [acct.account.id]);
    const files = svc.storedFiles().length;
    await post({ agent_code: 'ZZ-99' });
    await post({});
    expect(await t.sql('SELECT * FROM usage_totals WHERE account_id = $1', [acct.account.id])).toEqual(usage);
    expect(svc.storedFiles().length).toBe(files);
  });

  test('§2 agent_code matches ignoring case, hyphens, underscores and spaces', async () => {
    for (const code of ['ag07', 'Ag_07', ' AG 07 ', 'a-g-0-7']) {
      const r = await post({ agent_code: code });
      expect(r.status).toBe(201);
      expect((await callRow(r.body.id)).agent_id).toBe(acct.agents[0]!.id);
    }
  });

  test('§2 agent_name is used when no code is given or nobody has the code (case-, accent- and space-insensitive)', async () => {
    const byName = await post({ agent_name: 'ana  garcia' });
    expect((await callRow(byName.body.id)).agent_id).toBe(acct.agents[0]!.id);
    const codeUnknownNameKnown = await post({ agent_code: 'nobody', agent_name: 'LUIS PEREZ' });
    expect((await callRow(codeUnknownNameKnown.body.id)).agent_id).toBe(acct.agents[1]!.id);
  });

  test('§2 the agent code contained in the file name identifies the agent', async () => {
    const r = await post({}, { name: 'in-34911222333-AG_07-20231012-142233.wav' });
    expect(r.status).toBe(201);
    expect((await callRow(r.body.id)).agent_id).toBe(acct.agents[0]!.id);
  });

  test('PRODUCT: a sent but unmatched code is unknown_agent, not a file-name fallback', async () => {
    const r = await post({ agent_code: 'ZZ-99' }, { name: 'in-34911222333-AG_07-20231012-142233.wav' });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('unknown_agent');
  });

  test('PRODUCT: two agents matching one name → 422 ambiguous_agent', async () => {
    const other = await seedAccount(svc, {
      agents: [
        { name: 'Marta Ruiz', code: 'M1' },
        { name: 'Marta Ruíz', code: 'M2' },
      ],
    });
    const r = await postCall(svc.url, {
      key: other.key,
      fields: { agent_name: 'marta ruiz' },
      file: { blob: wavBlob(), name: 'x.wav' },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('ambiguous_agent');
  });

  test('a deactivated agent is not in the team: unknown_agent', async () => {
    const agent = await createAgent(svc.app.db, acct.account.id, { name: 'Gone Agent', code: 'GONE-1' });
    await svc.app.db.agent.update({ where: { id: agent!.id }, data: { active: false } });
    expect((await post({ agent_code: 'GONE-1' })).body.error.code).toBe('unknown_agent');
  });
});

describe('§2 fields and §4 rules for ignored values', () => {
  test('campaign matches ignoring case and accents', async () => {
    const r = await post({ agent_code: 'AG-07', campaign: 'atencion clientes' });
    const row = await callRow(r.body.id);
    const [c] = await t.sql('SELECT id FROM campaigns WHERE name = $1', ['Atención Clientes']);
    expect(row.campaign_id).toBe(c.id);
  });

  test('campaign that does not exist → call created without campaign (201, no error)', async () => {
    const r = await post({ agent_code: 'AG-07', campaign: 'No Such Campaign' });
    expect(r.status).toBe(201);
    expect((await callRow(r.body.id)).campaign_id).toBeNull();
  });

  test('campaign that is archived → call created without campaign', async () => {
    const archived = await createCampaign(svc.app.db, acct.account.id, { name: 'Old Campaign' });
    await setCampaignArchived(svc.app.db, acct.account.id, archived!.id, true);
    const r = await post({ agent_code: 'AG-07', campaign: 'Old Campaign' });
    expect(r.status).toBe(201);
    expect((await callRow(r.body.id)).campaign_id).toBeNull();
  });

  test('started_at accepts ISO 8601 with offset, Unix seconds and Unix milliseconds', async () => {
    const expected = '2024-05-06T10:00:00.000Z';
    for (const v of ['2024-05-06T12:00:00+02:00', '2024-05-06T10:00:00Z', '1714989600', '1714989600000']) {
      const r = await post({ agent_code: 'AG-07', started_at: v });
      expect((await callRow(r.body.id)).started_at.toISOString()).toBe(expected);
    }
  });

  test('started_at that cannot be understood → the file name date is used', async () => {
    const r = await post(
      { agent_code: 'AG-07', started_at: 'yesterday-ish' },
      { name: 'out-600111222-1001-20240115-103000.wav' },
    );
    expect((await callRow(r.body.id)).started_at.toISOString()).toBe('2024-01-15T09:30:00.000Z');
  });

  test('started_at that cannot be understood and no date in the name → dated at upload time', async () => {
    const before = Date.now();
    const r = await post({ agent_code: 'AG-07', started_at: '2024-05-06 10:00' });
    expect(r.status).toBe(201);
    expect((await callRow(r.body.id)).started_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  test('started_at before year 2000 or more than one day ahead → upload time, the file name is not consulted', async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
    for (const v of ['1999-12-31T23:59:59Z', future]) {
      const before = Date.now();
      const r = await post({ agent_code: 'AG-07', started_at: v }, { name: 'out-600111222-1001-20240115-103000.wav' });
      const at = (await callRow(r.body.id)).started_at.getTime();
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  test('direction with another value is ignored; inbound/outbound are kept', async () => {
    expect((await callRow((await post({ agent_code: 'AG-07', direction: 'sideways' })).body.id)).direction).toBeNull();
    expect((await callRow((await post({ agent_code: 'AG-07', direction: 'Outbound' })).body.id)).direction).toBe(
      'outbound',
    );
  });

  test('all text fields are cut to 300 characters, never splitting a character', async () => {
    const long = '😀'.repeat(400);
    const r = await post({ agent_code: 'AG-07', customer_name: long, customer_phone: '6'.repeat(500) });
    const row = await callRow(r.body.id);
    expect(Array.from(row.customer_name as string)).toHaveLength(300);
    expect(row.customer_name).toBe('😀'.repeat(300));
    expect(row.customer_phone).toHaveLength(300);
  });

  test('external_id keeps up to 200 characters', async () => {
    const r = await post({ agent_code: 'AG-07', external_id: 'x'.repeat(250) });
    expect((await callRow(r.body.id)).external_id).toBe('x'.repeat(200));
    const again = await post({ agent_code: 'AG-07', external_id: `${'x'.repeat(200)}different tail` });
    expect(again).toMatchObject({ status: 200, body: { id: r.body.id, status: 'exists' } });
  });

  test('a field that is sent always wins over the file name', async () => {
    const r = await post(
      { agent_code: '1001', direction: 'inbound', customer_phone: '+34 999', started_at: '2024-02-01T00:00:00Z' },
      { name: '2024-03-05_09-15-00_+34600111222_outbound_ag-07.wav' },
    );
    const row = await callRow(r.body.id);
    expect(row).toMatchObject({ agent_id: acct.agents[1]!.id, direction: 'inbound', customer_phone: '+34 999' });
    expect(row.started_at.toISOString()).toBe('2024-02-01T00:00:00.000Z');
  });

  test('fields missing among agent, date, phone and direction are read from the file name', async () => {
    const r = await post({}, { name: '2024-03-05_09-15-00_+34600111222_outbound_ag-07.wav' });
    const row = await callRow(r.body.id);
    expect(row).toMatchObject({ agent_id: acct.agents[0]!.id, direction: 'outbound', customer_phone: '+34600111222' });
    expect(row.started_at.toISOString()).toBe('2024-03-05T08:15:00.000Z');
  });

  test('language: a sent code from the list is used; an unknown one is ignored', async () => {
    expect((await callRow((await post({ agent_code: 'AG-07', language: 'pt' })).body.id)).language).toBe('pt');
    expect((await callRow((await post({ agent_code: 'AG-07', language: 'xx' })).body.id)).language).toBeNull();
  });

  test("language: when absent the campaign's language is used; with none, detection (null)", async () => {
    expect((await callRow((await post({ agent_code: 'AG-07', campaign: 'Atención Clientes' })).body.id)).language).toBe(
      'es',
    );
    expect((await callRow((await post({ agent_code: 'AG-07', campaign: 'Ventas' })).body.id)).language).toBeNull();
  });
});

describe('§3 and §8 charging: minutes, period count, storage', () => {
  test('reserves one minute per started MB of file size (at least one), counts the call and its size', async () => {
    const fresh = await seedAccount(svc, { minutes: 100 });
    const size = 2 * 1_048_576 + 10;
    const r = await postCall(svc.url, {
      key: fresh.key,
      fields: { agent_code: 'AG-07' },
      file: { blob: wavBlob(size), name: 'big.wav' },
    });
    expect(r.status).toBe(201);
    const [u] = await t.sql('SELECT * FROM usage_totals WHERE account_id = $1', [fresh.account.id]);
    expect(u).toMatchObject({ calls: 1, minutes_reserved: 3, minutes_used: 0, storage_bytes: String(size) });
    expect((await callRow(r.body.id)).reserved_minutes).toBe(3);
    const small = await postCall(svc.url, {
      key: fresh.key,
      fields: { agent_code: 'AG-07' },
      file: { blob: wavBlob(100), name: 's.wav' },
    });
    expect((await callRow(small.body.id)).reserved_minutes).toBe(1);
  });

  test('no_minutes: reservation beyond the available minutes → 402, even if the real duration would fit', async () => {
    const fresh = await seedAccount(svc, { minutes: 2 });
    const r = await postCall(svc.url, {
      key: fresh.key,
      fields: { agent_code: 'AG-07' },
      file: { blob: wavBlob(3 * 1_048_576), name: 'silence.wav' },
    });
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe('no_minutes');
    expect(await t.sql('SELECT * FROM calls WHERE account_id = $1', [fresh.account.id])).toEqual([]);
    const usage = await t.sql('SELECT calls, minutes_reserved FROM usage_totals WHERE account_id = $1', [
      fresh.account.id,
    ]);
    expect(usage.every((u) => u.calls === 0 && u.minutes_reserved === 0)).toBe(true);
  });

  test('the recording file is kept in storage for an accepted call', async () => {
    const r = await post({ agent_code: 'AG-07' });
    const row = await callRow(r.body.id);
    expect(svc.storedFiles()).toContain(row.storage_key);
    expect(row.file_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('PRODUCT: unexpected failures', () => {
  test('500 internal_error carries the request id, never a stack, and leaves no call behind', async () => {
    const original = svc.app.storage.putFile;
    svc.app.storage.putFile = async () => {
      throw new Error('disk on fire');
    };
    try {
      const before = (await t.sql('SELECT count(*)::int AS n FROM calls'))[0].n;
      const r = await post({ agent_code: 'AG-07' });
      expect(r.status).toBe(500);
      expect(r.body.error.code).toBe('internal_error');
      expect(r.body.error.message).toContain(r.headers.get('x-request-id'));
      expect(JSON.stringify(r.body)).not.toMatch(/disk on fire|at .*\.ts/);
      expect((await t.sql('SELECT count(*)::int AS n FROM calls'))[0].n).toBe(before);
    } finally {
      svc.app.storage.putFile = original;
    }
  });
});
