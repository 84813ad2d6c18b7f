// POST /api/uploads: the app's manual upload, several files, one result per file.
import { createCampaign } from '../../src/accounts/campaigns.ts';
import type { TestDb } from '../support/db.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { signedIn, wavBytes, type Signed } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let acct: Awaited<ReturnType<typeof seedAccount>>;
let owner: Signed;
let analyst: Signed;
let viewer: Signed;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  acct = await seedAccount(svc, {
    agents: [
      { name: 'Ana García', code: 'AG7' },
      { name: 'Luis Pérez', code: '1001' },
    ],
  });
  await createCampaign(svc.app.db, acct.account.id, { name: 'Ventas' });
  owner = await signedIn(svc.app.db, acct.account.id, 'owner');
  analyst = await signedIn(svc.app.db, acct.account.id, 'analyst');
  viewer = await signedIn(svc.app.db, acct.account.id, 'viewer');
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

async function upload(
  who: Signed | null,
  files: { name: string; data: Buffer<ArrayBuffer>; type?: string }[],
  fields: Record<string, string> = {},
  opts: { csrf?: boolean } = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('file', new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const r = await fetch(`${svc.url}/api/uploads`, {
    method: 'POST',
    body: form,
    headers: who ? who.headers(opts) : {},
  });
  return { status: r.status, body: (await r.json()) as any };
}

const row = async (id: string) =>
  (
    await t.sql('SELECT c.*, a.code AS agent_code FROM calls c JOIN agents a ON a.id = c.agent_id WHERE c.id = $1', [
      id,
    ])
  )[0];

describe('POST /api/uploads', () => {
  test('accepts each file on its own: good WAV, PDF → not_audio, no agent → agent_required', async () => {
    const r = await upload(owner, [
      { name: 'out_ag7_600111222.wav', data: wavBytes(8000) },
      { name: 'contract.pdf', data: PDF },
      { name: 'recording.wav', data: wavBytes(8000) },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      {
        fileName: 'out_ag7_600111222.wav',
        ok: true,
        id: expect.any(String),
        status: 'queued',
        url: expect.stringMatching(/^https:\/\/escucha\.test\/calls\//),
      },
      { fileName: 'contract.pdf', ok: false, error: { code: 'not_audio', message: expect.any(String) } },
      { fileName: 'recording.wav', ok: false, error: { code: 'agent_required', message: expect.any(String) } },
    ]);
    const call = await row(r.body.results[0].id);
    expect(call).toMatchObject({
      source: 'upload',
      agent_code: 'AG7',
      direction: 'outbound',
      customer_phone: '600111222',
      status: 'queued',
    });
    // Rejected files leave nothing behind: one stored recording, no temporary files.
    expect(svc.storedFiles().filter((f) => !f.startsWith('.incoming'))).toHaveLength(1);
    expect(svc.storedFiles().filter((f) => f.startsWith('.incoming'))).toEqual([]);
  });

  test('form fields apply to every file; the agent picker is used only when nothing else names an agent', async () => {
    const luis = acct.agents.find((a) => a.code === '1001')!;
    const campaign = (await t.sql("SELECT id FROM campaigns WHERE name = 'Ventas'"))[0].id;
    const r = await upload(
      analyst,
      [
        { name: 'first.wav', data: wavBytes(4000) },
        { name: 'second_ag7.wav', data: wavBytes(4000) },
      ],
      {
        agent_id: luis.id,
        campaign_id: campaign,
        direction: 'inbound',
        customer_name: 'Marta',
        external_id: 'ignored',
      },
    );
    expect(r.status).toBe(200);
    const [a, b] = r.body.results;
    expect(a.ok && b.ok).toBe(true);
    expect(await row(a.id)).toMatchObject({
      agent_code: '1001',
      campaign_id: campaign,
      direction: 'inbound',
      customer_name: 'Marta',
      external_id: null,
    });
    expect(await row(b.id)).toMatchObject({ agent_code: 'AG7', customer_name: 'Marta' });

    const named = await upload(analyst, [{ name: 'third.wav', data: wavBytes(4000) }], {
      agent_code: 'AG7',
      agent_id: luis.id,
    });
    expect((await row(named.body.results[0].id)).agent_code).toBe('AG7');
  });

  test("a file over the plan's manual upload limit → per-file bad_request, the others still accepted", async () => {
    await t.sql('UPDATE accounts SET manual_upload_max_bytes = 10000 WHERE id = $1', [acct.account.id]);
    try {
      const r = await upload(owner, [
        { name: 'big_ag7.wav', data: wavBytes(10_001) },
        { name: 'small_ag7.wav', data: wavBytes(10_000) },
      ]);
      expect(r.status).toBe(200);
      expect(r.body.results[0]).toEqual({
        fileName: 'big_ag7.wav',
        ok: false,
        error: { code: 'bad_request', message: expect.stringMatching(/plan allows/) },
      });
      expect(r.body.results[1]).toMatchObject({ fileName: 'small_ag7.wav', ok: true, status: 'queued' });
    } finally {
      await t.sql('UPDATE accounts SET manual_upload_max_bytes = 524288000 WHERE id = $1', [acct.account.id]);
    }
  });

  test('a whole request over the limit → 400 bad_request before any file is accepted', async () => {
    await t.sql('UPDATE accounts SET manual_upload_max_bytes = 1000 WHERE id = $1', [acct.account.id]);
    try {
      // Limit is 20 × 1000 bytes + 1 MB of framing.
      const r = await upload(owner, [{ name: 'huge_ag7.wav', data: wavBytes(1_200_000) }]);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('bad_request');
    } finally {
      await t.sql('UPDATE accounts SET manual_upload_max_bytes = 524288000 WHERE id = $1', [acct.account.id]);
    }
  });

  test('more than 20 files or no file at all → 400 for the request', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}_ag7.wav`, data: wavBytes(100) }));
    expect((await upload(owner, many)).body.error.code).toBe('bad_request');
    expect((await upload(owner, [], { agent_code: 'AG7' })).status).toBe(400);
  });

  test('a malformed picker id → 400 for the request', async () => {
    const r = await upload(owner, [{ name: 'x.wav', data: wavBytes(1000) }], { agent_id: 'nope' });
    expect(r.status).toBe(400);
    expect(svc.storedFiles().filter((f) => f.startsWith('.incoming'))).toEqual([]);
  });

  test('without the CSRF header → 403 csrf', async () => {
    const r = await upload(owner, [{ name: 'a_ag7.wav', data: wavBytes(1000) }], {}, { csrf: false });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('csrf');
  });

  test('a viewer → 403 forbidden', async () => {
    const r = await upload(viewer, [{ name: 'a_ag7.wav', data: wavBytes(1000) }]);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden');
  });

  test('no session → 401', async () => {
    const r = await upload(null, [{ name: 'a_ag7.wav', data: wavBytes(1000) }]);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
  });
});
