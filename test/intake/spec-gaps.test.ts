// Rules of the intake document (docs/api/intake-document.txt) that no other test
// asserted, found by the spec audit of lane-audit. Each test names the section it checks.
import net from 'node:net';
import type { JobHelpers } from 'graphile-worker';
import { createAgent } from '../../src/accounts/agents.ts';
import { createCampaign, setCampaignArchived } from '../../src/accounts/campaigns.ts';
import { LANGUAGES } from '../../src/domain/languages.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { transition } from '../../src/lifecycle/transition.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { createAnalyzeTask } from '../../workers/analyze.ts';
import { signedIn, wavBytes } from '../http/support.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';

const helpers = {
  logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
  job: { attempts: 1, max_attempts: 3 },
} as unknown as JobHelpers;

const post = (service: TestService, key: string, fields: Record<string, string>, name = 'recording.wav') =>
  postCall(service.url, { key, fields, file: { blob: wavBlob(), name } });

/** A template whose one criterion passes on the words of SEGMENTS. */
const definition = (phrase: string) => ({
  version: 1,
  criteria: [{ key: 'greeting', label: 'Greets', kind: 'phrase', phrases: [phrase], speaker: 'agent', weight: 1 }],
  topics: [{ key: 'billing', label: 'Billing', phrases: ['invoice'] }],
});
const SEGMENTS = [
  { start: 0, end: 3, speaker: 'agent', text: 'Hello, thank you for calling.', channel: 0 },
  { start: 3.5, end: 7, speaker: 'customer', text: 'I have a question about my invoice.', channel: 1 },
];

/** What the worker's transcription does to a queued call, so that analysis can run without audio models. */
async function transcribed(service: TestService, callId: string) {
  await service.app.db.$transaction(async (tx) => {
    await transition(tx, callId, 'queued', 'transcribing', { detail: 'test: transcribing' });
    await transition(tx, callId, 'transcribing', 'analyzing', {
      detail: 'test: transcribed',
      data: { segments: SEGMENTS, durationSeconds: 7, channels: 2, detectedLanguage: 'en' },
    });
  });
  await createAnalyzeTask(service.app, null)({ callId }, helpers);
}

describe('§1 general conventions: responses are JSON in UTF-8, for success and error', () => {
  test('201, 200 exists and every error status carry application/json; charset=utf-8 and the documented body', async ({
    service,
    seed,
  }) => {
    const s = await seed({ minutes: 1 });
    const created = await post(service, s.key, { agent_code: 'AG-07', external_id: 'json-1' });
    const exists = await post(service, s.key, { agent_code: 'AG-07', external_id: 'json-1' });
    expect(created).toMatchObject({ status: 201, body: { status: 'queued' } });
    expect(exists).toMatchObject({ status: 200, body: { id: created.body.id, status: 'exists' } });
    for (const r of [created, exists]) {
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(typeof r.body.id).toBe('string');
    }

    const errors = [
      await postCall(service.url, { key: null, fields: {}, file: { blob: wavBlob(), name: 'a.wav' } }),
      await postCall(service.url, { key: s.key, fields: { agent_code: 'AG-07' } }),
      await postCall(service.url, {
        key: s.key,
        fields: { agent_code: 'AG-07' },
        file: { blob: new Blob(['just notes'], { type: 'text/plain' }), name: 'notes.txt' },
      }),
      await post(service, s.key, {}),
      await post(service, s.key, { agent_code: 'nobody' }),
      // The plan's one minute is reserved by the first call: the next reservation exceeds it.
      await post(service, s.key, { agent_code: 'AG-07' }),
    ];
    expect(errors.map((r) => [r.status, r.body.error?.code])).toEqual([
      [401, 'unauthorized'],
      [400, 'bad_request'],
      [415, 'not_audio'],
      [422, 'agent_required'],
      [422, 'unknown_agent'],
      [402, 'no_minutes'],
    ]);
    for (const r of errors) {
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // §2 error body: exactly {error: {code, message}}, the message human-readable text.
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error.message).toMatch(/[A-Za-z]{3,} [A-Za-z]{2,}/);
    }
  });
});

describe("§1 errors raised by Node's HTTP parser carry the JSON error body too", () => {
  /** Sends raw bytes and reads the whole answer: these requests are too broken for an HTTP client. */
  const raw = (url: string, bytes: string) =>
    new Promise<{ status: number; type: string | undefined; body: unknown }>((resolve, reject) => {
      const { hostname, port } = new URL(url);
      const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n');
        resolve({
          status: Number(head.split(' ')[1]),
          type: /^content-type: (.*)$/im.exec(head)?.[1],
          body: body ? JSON.parse(body) : null,
        });
      });
    });

  test('headers over 16 KB → 431 headers_too_large; a broken request line → 400 bad_request', async ({
    service,
    seed,
  }) => {
    const s = await seed();
    const big = await fetch(`${service.url}/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'x-trace': 'x'.repeat(20_000) },
      body: new FormData(),
    });
    expect(big.status).toBe(431);
    expect(big.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await big.json()).toEqual({ error: { code: 'headers_too_large', message: expect.stringMatching(/16 KB/) } });

    const broken = await raw(service.url, 'POST /v1/calls HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    expect(broken).toEqual({
      status: 400,
      type: 'application/json; charset=utf-8',
      body: { error: { code: 'bad_request', message: expect.any(String) } },
    });
  });
});

describe('§1/§4 nothing but POST {base_url}/calls is exposed; any other status is an error with the error body', () => {
  test('there is no request to read, poll or list calls: GET /v1/calls and /v1/calls/{id} answer JSON errors, never call data', async ({
    service,
    seed,
  }) => {
    const s = await seed();
    const created = await post(service, s.key, { agent_code: 'AG-07', customer_name: 'Secret Customer' });
    expect(created.status).toBe(201);
    const auth = { authorization: `Bearer ${s.key}` };
    const attempts = [
      ['GET', '/v1/calls'],
      ['GET', `/v1/calls/${created.body.id}`],
      ['GET', `/v1/calls/${created.body.id}/status`],
      ['PUT', '/v1/calls'],
      ['DELETE', `/v1/calls/${created.body.id}`],
      ['GET', '/v1/templates'],
    ] as const;
    for (const [method, path] of attempts) {
      const res = await fetch(`${service.url}${path}`, { method, headers: auth });
      const text = await res.text();
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-type'), `${method} ${path}`).toBe('application/json; charset=utf-8');
      const body = JSON.parse(text);
      expect(body, `${method} ${path}`).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
      expect(text).not.toContain('Secret Customer');
    }
  });
});

describe('§2 fields', () => {
  test('§8 every language code of the list is accepted and kept as the call language', async ({
    db,
    service,
    seed,
  }) => {
    const listed =
      'ca es en pt gl eu fr de it nl ar zh ru ja ko pl ro tr uk sv no da fi cs el hu he hi id th vi bg hr sk sr fa ur ms ta'.split(
        ' ',
      );
    expect(new Set(listed)).toEqual(LANGUAGES);
    const s = await seed();
    for (const language of listed) {
      const r = await post(service, s.key, { agent_code: 'AG-07', language });
      expect(r.status, language).toBe(201);
      const [row] = await db.sql('SELECT language FROM calls WHERE id = $1', [r.body.id]);
      expect(row.language).toBe(language);
    }
  });

  test('agent_name is used only when no code is given or nobody has it: a matching agent_code wins over agent_name', async ({
    db,
    service,
    seed,
  }) => {
    const s = await seed({
      agents: [
        { name: 'Ana García', code: 'AG-07' },
        { name: 'Luis Pérez', code: '1001' },
      ],
    });
    const r = await post(service, s.key, { agent_code: '1001', agent_name: 'Ana García' });
    expect(r.status).toBe(201);
    const [row] = await db.sql('SELECT agent_id FROM calls WHERE id = $1', [r.body.id]);
    expect(row.agent_id).toBe(s.agents[1]!.id);
  });

  test('§4 ignored values: form parts the document does not list are ignored, the call is created (201)', async ({
    db,
    service,
    seed,
  }) => {
    const s = await seed();
    const r = await post(service, s.key, {
      agent_code: 'AG-07',
      priority: 'high',
      callback_url: 'https://crm.example/cb',
      status: 'analyzed',
      id: '00000000-0000-0000-0000-000000000000',
    });
    expect(r).toMatchObject({ status: 201, body: { status: 'queued' } });
    expect(r.body.id).not.toBe('00000000-0000-0000-0000-000000000000');
    const [row] = await db.sql('SELECT status FROM calls WHERE id = $1', [r.body.id]);
    expect(row.status).toBe('queued');
  });
});

describe('§4 idempotent retry', () => {
  test('a first attempt that was refused created nothing, so resending its external_id creates the call (201, not exists)', async ({
    service,
    seed,
  }) => {
    const s = await seed();
    const refused = await post(service, s.key, { agent_code: 'NEW-1', external_id: 'crm-77' });
    expect(refused.body.error.code).toBe('unknown_agent');
    // The client adds the agent in the app's team section, then retries.
    await createAgent(service.app.db, s.account.id, { name: 'New Agent', code: 'NEW-1' });
    const retried = await post(service, s.key, { agent_code: 'NEW-1', external_id: 'crm-77' });
    expect(retried).toMatchObject({ status: 201, body: { status: 'queued' } });
    const again = await post(service, s.key, { agent_code: 'NEW-1', external_id: 'crm-77' });
    expect(again).toMatchObject({ status: 200, body: { id: retried.body.id, status: 'exists' } });
  });
});

describe('§4 rules for ignored values, §3 and §6: scoring and the result event', () => {
  test('an archived or unknown campaign: created without campaign and scored with the default template; its event carries the intake id and link; a resend answered exists sends no event', async ({
    db,
    service,
    seed,
  }) => {
    const s = await seed();
    const appDb = service.app.db;
    const fallback = await createTemplate(appDb, s.account.id, {
      name: 'Default QA',
      definition: definition('thank you'),
    });
    const other = await createTemplate(appDb, s.account.id, { name: 'Old campaign QA', definition: definition('bye') });
    await setDefaultTemplate(appDb, s.account.id, fallback.id);
    const old = await createCampaign(appDb, s.account.id, { name: 'Old Campaign', templateId: other.id });
    await setCampaignArchived(appDb, s.account.id, old!.id, true);
    await setWebhookEndpoint(service.app, s.account.id, 'http://127.0.0.1:9/hooks');

    const archived = await post(service, s.key, { agent_code: 'AG-07', campaign: 'Old Campaign', external_id: 'e-1' });
    const unknown = await post(service, s.key, { agent_code: 'AG-07', campaign: 'No Such Campaign' });
    for (const r of [archived, unknown]) {
      expect(r.status).toBe(201);
      await transcribed(service, r.body.id);
      const [row] = await db.sql('SELECT status, campaign_id, template_id, score FROM calls WHERE id = $1', [
        r.body.id,
      ]);
      expect(row).toMatchObject({ status: 'analyzed', campaign_id: null, template_id: fallback.id, score: 100 });
      // §6: one call.analyzed event, with the id intake returned and a link to the call in the app.
      const deliveries = await db.sql('SELECT event_type, payload FROM webhook_deliveries WHERE call_id = $1', [
        r.body.id,
      ]);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].payload.data).toMatchObject({
        id: r.body.id,
        url: `https://escucha.test/calls/${r.body.id}`,
        score: 100,
        topic: expect.any(String),
        summary: expect.any(String),
        criteria: [expect.objectContaining({ key: 'greeting', result: 'passed' })],
      });
    }

    // §3/§6: resending the analyzed call's external_id answers exists and neither re-queues nor notifies.
    const jobs = async () => (await db.sql('SELECT count(*)::int AS n FROM graphile_worker._private_jobs'))[0].n;
    const before = { jobs: await jobs(), deliveries: await db.sql('SELECT id FROM webhook_deliveries') };
    const resent = await post(service, s.key, { agent_code: 'AG-07', campaign: 'Old Campaign', external_id: 'e-1' });
    expect(resent).toMatchObject({ status: 200, body: { id: archived.body.id, status: 'exists' } });
    expect(await jobs()).toBe(before.jobs);
    expect(await db.sql('SELECT id FROM webhook_deliveries')).toEqual(before.deliveries);
    const [row] = await db.sql('SELECT status FROM calls WHERE id = $1', [archived.body.id]);
    expect(row.status).toBe('analyzed');
  });

  test('§6 emitted by: a call uploaded manually in the app sends the same result event once analyzed', async ({
    db,
    service,
    seed,
  }) => {
    const s = await seed();
    const template = await createTemplate(service.app.db, s.account.id, {
      name: 'QA',
      definition: definition('thank you'),
    });
    await setDefaultTemplate(service.app.db, s.account.id, template.id);
    await setWebhookEndpoint(service.app, s.account.id, 'http://127.0.0.1:9/hooks');
    const owner = await signedIn(service.app.db, s.account.id, 'owner');
    const form = new FormData();
    form.append('file', new Blob([wavBytes(8000)], { type: 'audio/wav' }), 'out_ag-07_600111222.wav');
    const res = await fetch(`${service.url}/api/uploads`, { method: 'POST', body: form, headers: owner.headers() });
    const body = (await res.json()) as { results: { ok: boolean; id: string }[] };
    expect(body.results).toEqual([expect.objectContaining({ ok: true, id: expect.any(String) })]);
    const id = body.results[0]!.id;
    await transcribed(service, id);
    const deliveries = await db.sql('SELECT event_type, payload FROM webhook_deliveries WHERE call_id = $1', [id]);
    expect(deliveries).toEqual([
      {
        event_type: 'call.analyzed',
        payload: expect.objectContaining({ data: expect.objectContaining({ id, score: 100 }) }),
      },
    ]);
  });
});
