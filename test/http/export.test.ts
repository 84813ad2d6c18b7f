// GET /api/calls/export.csv: the analyzed view as CSV, same filters as the app, formula-safe, streamed.
import { createAccount } from '../../src/accounts/accounts.ts';
import { CSV_COLUMNS, exportCallRows } from '../../src/export/calls-csv.ts';
import type { TestService } from '../support/service.ts';
import { insertCall } from '../graphql/fixtures.ts';
import { parseCsv, signedIn, type Signed } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

// The product's column list, imported: the test checks the export writes it, not a second copy of it.
const HEADER: readonly string[] = CSV_COLUMNS;

let svc: TestService;
let accountId: string;
let viewer: Signed;
let other: Signed;
const ids: Record<string, string> = {};
let ana: { id: string };
let luis: { id: string };
let campaign: { id: string };

test.beforeAll(async ({ service }) => {
  svc = service;
  const db = svc.app.db;
  const { account } = await createAccount(db, { name: 'Export Co', timeZone: 'Europe/Madrid' });
  accountId = account.id;
  ana = await db.agent.create({
    data: { accountId, name: 'Ana García', nameNormalized: 'anagarcia', code: 'AG-07', codeNormalized: 'ag07' },
  });
  luis = await db.agent.create({
    data: { accountId, name: 'Luis', nameNormalized: 'luis', code: '1001', codeNormalized: '1001' },
  });
  campaign = await db.campaign.create({ data: { accountId, name: 'Ventas', nameNormalized: 'ventas' } });
  const at = (day: number) => new Date(Date.UTC(2024, 2, day, 9, 0, 0));
  const put = async (key: string, agentId: string, over: Parameters<typeof insertCall>[2]) => {
    ids[key] = (await insertCall(db, { accountId, agentId, campaignId: campaign.id }, over)).id;
  };
  await put('plain', ana.id, {
    startedAt: at(1),
    externalId: 'ext-1',
    direction: 'inbound',
    customerPhone: '600111222',
    customerName: 'Peña, "Juan"',
    score: 90,
    coverage: 0.75,
    needsReview: true,
    customerSentiment: -0.123,
    customerSentimentTrend: 0.456,
    sentiment: {
      segments: [],
      agent: { label: 'positive', score: 0.3 },
      customer: { label: 'negative', score: -0.123 },
      overall: { label: 'neutral', score: 0.02 },
      customer_trend: 0.456,
    },
    summary: 'Line one\nline two',
    criteria: [
      {
        key: 'greeting',
        label: 'Greeting',
        kind: 'phrase',
        result: 'passed',
        points: 5,
        max_points: 5,
        critical: false,
        evidence: [],
      },
      {
        key: 'apology',
        label: 'Apology',
        kind: 'phrase',
        result: 'failed',
        points: 0,
        max_points: 3,
        critical: false,
        evidence: [],
      },
    ],
  });
  await put('evil', luis.id, {
    startedAt: at(2),
    externalId: '-1',
    direction: 'outbound',
    customerPhone: '+34600111222',
    customerName: "=cmd|' /C calc'!A0",
    topic: '@SUM(1)',
    summary: '\tTabbed',
    score: 40,
    language: 'es',
    campaignId: null,
    criteria: [
      {
        key: 'x',
        label: '=HYPERLINK("http://x")',
        kind: 'llm',
        result: 'na',
        points: 0,
        max_points: 0,
        critical: false,
        evidence: [],
      },
    ],
  });
  await put('cr', ana.id, { startedAt: at(3), customerName: '\rcarriage', score: 70 });
  await put('transcribed', ana.id, {
    startedAt: at(4),
    status: 'transcribed',
    score: null,
    topic: null,
    summary: null,
    criteria: undefined,
    searchText: 'solo transcrito',
    segments: [],
  });
  await put('queued', ana.id, { startedAt: at(5), status: 'queued' });
  await put('failed', ana.id, { startedAt: at(6), status: 'failed', failureReason: 'no_speech' });

  // Another tenant's analyzed call must never appear.
  const { account: b } = await createAccount(db, { name: 'Other Co' });
  const bAgent = await db.agent.create({
    data: { accountId: b.id, name: 'Bea', nameNormalized: 'bea', code: 'B1', codeNormalized: 'b1' },
  });
  ids.foreign = (
    await insertCall(db, { accountId: b.id, agentId: bAgent.id }, { startedAt: at(1), customerName: 'FOREIGN' })
  ).id;

  viewer = await signedIn(db, accountId, 'viewer');
  other = await signedIn(db, b.id, 'owner');
});

async function download(query = '', who: Signed | null = viewer) {
  const r = await fetch(`${svc.url}/api/calls/export.csv${query}`, {
    headers: who ? who.headers({ csrf: false }) : {},
  });
  const raw = Buffer.from(await r.arrayBuffer());
  const text = raw.toString('utf8');
  const rows = r.ok ? parseCsv(text.replace(/^\uFEFF/, '')) : [];
  const records = rows.slice(1).map((cells) => Object.fromEntries(HEADER.map((h, i) => [h, cells[i]])));
  return { r, raw, text, rows, records, byId: (id: string) => records.find((x) => x.id === id) };
}

describe('GET /api/calls/export.csv', () => {
  test('UTF-8 CSV with BOM, header row and one row per analyzed or transcribed call, newest first', async () => {
    const { r, raw, rows, records } = await download();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toMatch(
      /^attachment; filename="escucha-calls-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rows[0]).toEqual(HEADER);
    expect(records.map((x) => x.id)).toEqual([ids.transcribed, ids.cr, ids.evil, ids.plain]);
  });

  test('writes every column: ISO date, agent and code, campaign, criteria as one cell, app url', async () => {
    const { byId } = await download();
    expect(byId(ids.plain!)).toEqual({
      id: ids.plain,
      external_id: 'ext-1',
      started_at: '2024-03-01T09:00:00.000Z',
      agent: 'Ana García',
      agent_code: 'AG-07',
      campaign: 'Ventas',
      direction: 'inbound',
      customer_phone: '600111222',
      customer_name: 'Peña, "Juan"',
      language: 'en',
      duration_seconds: expect.stringMatching(/^\d+$/),
      status: 'analyzed',
      score: '90',
      topic: 'billing',
      summary: 'Line one\nline two',
      criteria: 'Greeting: passed; Apology: failed',
      url: `https://escucha.test/calls/${ids.plain}`,
      coverage: '75',
      needs_review: 'yes',
      language_mismatch: 'no',
      customer_sentiment: '-0.12',
      customer_sentiment_trend: '0.46',
      agent_sentiment: '0.3',
      critical_failed: 'no',
      reviewed_at: '',
      automatic_score: '',
    });
  });

  test("says a critical fail and a person's review as the app does: the flag, when, the automatic score, per criterion", async () => {
    const reviewedAt = new Date('2024-03-04T10:00:00.000Z');
    await svc.app.db.call.update({
      where: { id: ids.cr! },
      data: {
        // The score stays 70 (later tests filter on it); the automatic one was 55.
        autoScore: 55,
        reviewedAt,
        criteria: [
          {
            key: 'g',
            label: 'Greeting',
            kind: 'phrase',
            result: 'passed',
            auto_result: 'failed',
            points: 5,
            max_points: 5,
            critical: false,
            evidence: [],
          },
          {
            key: 'p',
            label: 'No insults',
            kind: 'forbidden',
            result: 'failed',
            points: 0,
            max_points: 5,
            critical: true,
            evidence: [],
          },
        ],
      },
    });
    const row = (await download()).byId(ids.cr!)!;
    expect(row.critical_failed).toBe('yes');
    expect(row.reviewed_at).toBe('2024-03-04T10:00:00.000Z');
    expect(row.automatic_score).toBe('55');
    expect(row.criteria).toBe('Greeting: passed (reviewed; automatic failed); No insults: failed (critical)');
  });

  test('transcribed calls are listed and marked as not analyzed, with empty score', async () => {
    const row = (await download()).byId(ids.transcribed!)!;
    expect(row.status).toBe('transcribed (not analyzed)');
    expect(row.score).toBe('');
    expect(row.criteria).toBe('');
  });

  test('neutralises formula injection in every text cell (=, +, -, @, tab, CR) with a leading quote, phone numbers excepted', async () => {
    const { byId } = await download();
    const evil = byId(ids.evil!)!;
    expect(evil.customer_name).toBe("'=cmd|' /C calc'!A0");
    // A phone number stays a phone number (src/export/csv-safe.ts says why that is safe).
    expect(evil.customer_phone).toBe('+34600111222');
    expect(evil.external_id).toBe("'-1");
    expect(evil.topic).toBe("'@SUM(1)");
    expect(evil.summary).toBe("'\tTabbed");
    expect(evil.criteria).toBe('\'=HYPERLINK("http://x"): na');
    expect(evil.campaign).toBe('');
    expect(byId(ids.cr!)!.customer_name).toBe("'\rcarriage");
    // Numbers the export writes itself stay numbers.
    expect(evil.score).toBe('40');
  });

  test('applies the app filters: agent, campaign, direction, dates, score, topic, language, search', async () => {
    const only = async (q: string) => (await download(q)).records.map((x) => x.id).sort();
    const sorted = (...keys: string[]) => keys.map((k) => ids[k]!).sort();
    expect(await only(`?agentIds=${luis.id}`)).toEqual(sorted('evil'));
    expect(await only(`?agentIds=${luis.id},${ana.id}&direction=inbound`)).toEqual(sorted('plain'));
    expect(await only(`?agentIds=${ana.id}&agentIds=${luis.id}&direction=OUTBOUND`)).toEqual(sorted('evil'));
    expect(await only(`?campaignIds=${campaign.id}`)).toEqual(sorted('plain', 'cr', 'transcribed'));
    expect(await only('?startedFrom=2024-03-02T00:00:00Z&startedTo=2024-03-04')).toEqual(sorted('evil', 'cr'));
    expect(await only('?scoreMin=50&scoreMax=80')).toEqual(sorted('cr'));
    expect(await only('?topic=billing&scoreMin=80')).toEqual(sorted('plain'));
    expect(await only('?language=ES')).toEqual(sorted('evil'));
    expect(await only('?search=transcrito')).toEqual(sorted('transcribed'));
    expect(await only('?search="question about" -nothing')).toEqual(sorted('plain', 'evil', 'cr'));
    // As in GraphQL: a foreign or malformed id matches nothing, it is not an error.
    expect(await only('?agentIds=not-a-uuid')).toEqual([]);
  });

  test('malformed filter values → 400 JSON', async () => {
    for (const q of ['?startedFrom=yesterday', '?scoreMin=abc', '?direction=sideways', `?search=${'x'.repeat(501)}`]) {
      const { r, text } = await download(q);
      expect(r.status, q).toBe(400);
      expect(JSON.parse(text).error.code).toMatch(/^(bad_request|invalid_search)$/);
    }
  });

  test("tenant isolation: never another account's calls, even by filtering on its agent", async () => {
    const mine = await download();
    expect(mine.text).not.toContain('FOREIGN');
    expect(mine.byId(ids.foreign!)).toBeUndefined();
    const theirs = await download('', other);
    expect(theirs.records.map((x) => x.id)).toEqual([ids.foreign]);
  });

  test('no session → 401 JSON', async () => {
    const r = await fetch(`${svc.url}/api/calls/export.csv`);
    expect(r.status).toBe(401);
    expect((await r.json()).error.code).toBe('unauthorized');
  });

  test('keyset pagination visits every row exactly once, even when many share started_at', async () => {
    const db = svc.app.db;
    const { account } = await createAccount(db, { name: 'Ties Co' });
    const agent = await db.agent.create({
      data: { accountId: account.id, name: 'T', nameNormalized: 't', code: 'T1', codeNormalized: 't1' },
    });
    const same = new Date(Date.UTC(2024, 5, 1));
    const made: string[] = [];
    for (let i = 0; i < 11; i++)
      made.push(
        (
          await insertCall(
            db,
            { accountId: account.id, agentId: agent.id },
            { startedAt: i < 8 ? same : new Date(same.getTime() + i) },
          )
        ).id,
      );
    const seen: string[] = [];
    for await (const row of exportCallRows(db, account.id, { view: 'analyzed' }, { publicUrl: 'x', batchSize: 3 }))
      seen.push(row[0] as string);
    expect(seen.length).toBe(11);
    expect(new Set(seen)).toEqual(new Set(made));
  });
});
