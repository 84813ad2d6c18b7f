// Calls at scale (issue 12): keyset pagination for every sort, counters and filter options kept by
// triggers, capped counts, prefix search with snippets.
import fc from 'fast-check';
import { beforeAll } from 'vitest';
import { describe, expect } from '../support/harness.ts';
import { COUNT_CAP } from '../../src/calls/calls-query.ts';
import type { TestDb } from '../support/db.ts';
import { insertCall, seedData } from './fixtures.ts';
import { seedAccount, type Harness, test } from './support.ts';

let t: TestDb;
let h: Harness;
let acme: Awaited<ReturnType<typeof seedAccount>>;
let data: Awaited<ReturnType<typeof seedData>>;

test.beforeAll(async ({ db: testDb, gql, acme: seeded }) => {
  t = testDb;
  h = gql;
  acme = seeded;
  data = await seedData(h.app.db, acme.account.id, 'Acme', acme.users.owner.id);
});

const LIST = `query($first: Int, $last: Int, $after: String, $before: String, $filter: CallFilter, $sort: CallSortField, $order: SortOrder) {
  calls(first: $first, last: $last, after: $after, before: $before, filter: $filter, sort: $sort, order: $order) {
    totalCount totalCountExact
    edges { cursor node { id score durationSeconds startedAt } snippet { text start speaker highlights { start end } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

async function list(vars: Record<string, unknown>) {
  const r = await acme.as.viewer.gql(LIST, vars);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.calls as {
    totalCount: number;
    totalCountExact: boolean;
    edges: { cursor: string; node: { id: string }; snippet: any }[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
  };
}

describe('keyset pagination', () => {
  // A second account whose calls have ties (same start, same score, same duration) and nulls
  // (unscored and unmeasured calls), so every sort has something to get wrong.
  let ids: string[];
  let rows: { id: string; started_at: Date; score: number | null; duration_seconds: number | null }[];
  let filter: { campaignIds: string[] };

  beforeAll(async () => {
    const campaign = await h.app.db.campaign.create({
      data: { accountId: acme.account.id, name: 'Keyset', nameNormalized: 'keyset' },
    });
    filter = { campaignIds: [campaign.id] };
    const base = Date.UTC(2024, 5, 1);
    for (let i = 0; i < 23; i++) {
      const scored = i % 4 !== 0;
      await insertCall(
        h.app.db,
        { accountId: acme.account.id, agentId: data.agent.id, campaignId: campaign.id },
        {
          status: scored ? 'analyzed' : i % 8 === 0 ? 'transcribed' : 'queued',
          startedAt: new Date(base + (i % 5) * 60_000),
          score: scored ? [50, 75, 75, 100][i % 4]! : null,
          durationSeconds: i % 3 === 0 ? null : 30 * (i % 4),
        },
      );
    }
    rows = await t.sql(`SELECT id, started_at, score, duration_seconds FROM calls WHERE campaign_id = $1`, [
      campaign.id,
    ]);
    ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(23);
  });

  /** The expected order: nulls last descending and first ascending, ties by id in the same direction. */
  function expected(sort: 'started_at' | 'score' | 'duration_seconds', order: 'asc' | 'desc'): string[] {
    const key = (r: (typeof rows)[number]) => {
      const v = r[sort];
      return v == null ? Number.NEGATIVE_INFINITY : v instanceof Date ? v.getTime() : v;
    };
    const sorted = [...rows].sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return (order === 'asc' ? sorted : sorted.reverse()).map((r) => r.id);
  }

  const SORTS = [
    ['STARTED_AT', 'started_at'],
    ['SCORE', 'score'],
    ['DURATION', 'duration_seconds'],
  ] as const;
  for (const [sort, column] of SORTS) {
    for (const order of ['ASC', 'DESC'] as const) {
      test(`walks every call exactly once by ${sort} ${order}, forwards and backwards`, async () => {
        const want = expected(column, order === 'ASC' ? 'asc' : 'desc');
        const forward: string[] = [];
        let after: string | null = null;
        for (let pages = 0; pages < 10; pages++) {
          const page = await list({ filter, sort, order, first: 4, after });
          forward.push(...page.edges.map((e) => e.node.id));
          expect(page.pageInfo.hasPreviousPage).toBe(after != null);
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        expect(forward).toEqual(want);

        const backward: string[] = [];
        let before: string | null = null;
        for (let pages = 0; pages < 10; pages++) {
          const page = await list({ filter, sort, order, last: 4, before });
          backward.unshift(...page.edges.map((e) => e.node.id));
          if (!page.pageInfo.hasPreviousPage) break;
          before = page.pageInfo.startCursor;
        }
        // Walking back from the last page gives the same calls in the same order.
        expect(backward).toEqual(want);
      });
    }
  }

  test('goes back from the middle of a list to the exact rows before the cursor', async () => {
    const want = expected('score', 'desc');
    const first = await list({ filter, sort: 'SCORE', order: 'DESC', first: 13 });
    const cursor = first.edges[12]!.cursor;
    const back = await list({ filter, sort: 'SCORE', order: 'DESC', last: 5, before: cursor });
    expect(back.edges.map((e) => e.node.id)).toEqual(want.slice(7, 12));
    expect(back.pageInfo.hasPreviousPage).toBe(true);
  });

  test('refuses a cursor of another sort', async () => {
    const page = await list({ filter, sort: 'SCORE', order: 'DESC', first: 2 });
    const r = await acme.as.viewer.gql(LIST, { filter, sort: 'DURATION', first: 2, after: page.pageInfo.endCursor });
    expect(r.body.errors?.[0]?.message).toMatch(/cursor/);
  });
});

describe('counters kept by triggers', () => {
  const STATUSES = ['queued', 'transcribing', 'analyzing', 'analyzed', 'transcribed', 'failed'] as const;

  async function directCounts(accountId: string) {
    const counts = await t.sql(
      `SELECT status::text AS k, count(*)::int AS n FROM calls WHERE account_id = $1 GROUP BY 1 ORDER BY 1`,
      [accountId],
    );
    const facets = await t.sql(
      `SELECT f.kind || ':' || f.value || ':' || c.status AS k, count(*)::int AS n
         FROM calls c CROSS JOIN LATERAL (VALUES ('topic', c.topic), ('language', coalesce(c.language, c.detected_language)),
              ('agent', c.agent_id::text), ('campaign', c.campaign_id::text), ('direction', c.direction::text)) f (kind, value)
        WHERE c.account_id = $1 AND f.value IS NOT NULL GROUP BY 1 ORDER BY 1`,
      [accountId],
    );
    return { counts, facets };
  }
  async function keptCounts(accountId: string) {
    const counts = await t.sql(
      `SELECT status::text AS k, calls AS n FROM call_counts WHERE account_id = $1 AND calls <> 0 ORDER BY 1`,
      [accountId],
    );
    const facets = await t.sql(
      `SELECT kind || ':' || value || ':' || status AS k, calls AS n FROM call_facets
        WHERE account_id = $1 AND calls <> 0 ORDER BY 1`,
      [accountId],
    );
    return { counts, facets };
  }

  test('equal a direct count after any sequence of inserts, status and field changes, and deletes', async () => {
    const bolt = await seedAccount(h, 'Bolt');
    const accountId = bolt.account.id;
    const agents = await Promise.all(
      ['Ana', 'Luis'].map((name) =>
        h.app.db.agent.create({ data: { accountId, name, nameNormalized: name.toLowerCase() } }),
      ),
    );
    const campaign = await h.app.db.campaign.create({ data: { accountId, name: 'C', nameNormalized: 'c' } });
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        n: fc.integer({ min: 1, max: 3 }),
        status: fc.constantFrom(...STATUSES),
        agent: fc.integer({ min: 0, max: 1 }),
        campaign: fc.boolean(),
        topic: fc.constantFrom(null, 'Billing', 'Refund'),
        language: fc.constantFrom(null, 'en', 'es'),
      }),
      fc.record({ kind: fc.constant('status' as const), status: fc.constantFrom(...STATUSES), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('fields' as const),
        pick: fc.nat(),
        topic: fc.constantFrom(null, 'Billing', 'Sales'),
        detected: fc.constantFrom(null, 'en', 'fr'),
        agent: fc.integer({ min: 0, max: 1 }),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    const pickOne = `(SELECT id FROM calls WHERE account_id = $1 ORDER BY id OFFSET $2 % greatest(1, (SELECT count(*) FROM calls WHERE account_id = $1)) LIMIT 1)`;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'insert') {
            // Several rows in one statement: the statement-level trigger must tally them all.
            await t.sql(
              `INSERT INTO calls (id, account_id, source, status, agent_id, campaign_id, started_at, direction, language, topic,
                                  file_name, file_size, file_sha256, content_type, storage_key, reserved_minutes, period)
               SELECT gen_random_uuid(), $1, 'api', $2::"CallStatus", $3, $4, now(), 'inbound', $5, $6, 'f.wav', 1, 'x',
                      'audio/wav', 'k', 1, '2024-01' FROM generate_series(1, $7::int)`,
              [accountId, o.status, agents[o.agent]!.id, o.campaign ? campaign.id : null, o.language, o.topic, o.n],
            );
          } else if (o.kind === 'status') {
            await t.sql(`UPDATE calls SET status = $3::"CallStatus" WHERE id = ${pickOne}`, [
              accountId,
              o.pick,
              o.status,
            ]);
          } else if (o.kind === 'fields') {
            await t.sql(`UPDATE calls SET topic = $3, detected_language = $4, agent_id = $5 WHERE id = ${pickOne}`, [
              accountId,
              o.pick,
              o.topic,
              o.detected,
              agents[o.agent]!.id,
            ]);
          } else {
            await t.sql(`DELETE FROM calls WHERE id = ${pickOne}`, [accountId, o.pick]);
          }
        }
        expect(await keptCounts(accountId)).toEqual(await directCounts(accountId));
      }),
      { numRuns: 25 },
    );
    // And the API's counts agree with a direct count for a view, and a view narrowed by one agent.
    const [analyzed] = await t.sql(
      `SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND status IN ('analyzed', 'transcribed')`,
      [accountId],
    );
    const [ofAna] = await t.sql(
      `SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND status = 'failed' AND agent_id = $2`,
      [accountId, agents[0]!.id],
    );
    const q = `query($f: CallFilter) { calls(filter: $f) { totalCount totalCountExact } }`;
    const a = await bolt.as.viewer.gql(q, { f: { view: 'ANALYZED' } });
    expect(a.body.data.calls).toEqual({ totalCount: analyzed.n, totalCountExact: true });
    const b = await bolt.as.viewer.gql(q, { f: { view: 'FAILED', agentIds: [agents[0]!.id] } });
    expect(b.body.data.calls).toEqual({ totalCount: ofAna.n, totalCountExact: true });
    // Deleting the account leaves no counter behind.
    await h.app.db.account.delete({ where: { id: accountId } });
    expect(await keptCounts(accountId)).toEqual({ counts: [], facets: [] });
  });

  test('caps counts that would scan: "10,000+" for a date range over more calls', async () => {
    const zed = await seedAccount(h, 'Zed');
    const agent = await h.app.db.agent.create({
      data: { accountId: zed.account.id, name: 'Z', nameNormalized: 'z' },
    });
    await t.sql(
      `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, file_name, file_size, file_sha256,
                          content_type, storage_key, reserved_minutes, period, score)
       SELECT gen_random_uuid(), $1, 'api', 'analyzed', $2, timestamptz '2024-03-01' + g * interval '1 minute', 'f.wav', 1,
              'x', 'audio/wav', 'k', 1, '2024-03', g % 100 FROM generate_series(1, $3::int) g`,
      [zed.account.id, agent.id, COUNT_CAP + 5],
    );
    const q = `query($f: CallFilter) { calls(filter: $f) { totalCount totalCountExact } }`;
    const capped = await zed.as.viewer.gql(q, { f: { view: 'ANALYZED', startedFrom: '2024-01-01T00:00:00Z' } });
    expect(capped.body.data.calls).toEqual({ totalCount: COUNT_CAP, totalCountExact: false });
    const under = await zed.as.viewer.gql(q, { f: { view: 'ANALYZED', scoreMin: 0, scoreMax: 0 } });
    expect(under.body.data.calls).toEqual({ totalCount: 100, totalCountExact: true });
    const exact = await zed.as.viewer.gql(q, { f: { view: 'ANALYZED' } });
    expect(exact.body.data.calls).toEqual({ totalCount: COUNT_CAP + 5, totalCountExact: true });
  });
});

describe('filter options', () => {
  const OPTIONS = `{ callFilterOptions { topics languages agents { name } campaigns { name } } callTopics }`;

  test('follow new topics, languages, agents and campaigns, and drop what no call uses any more', async () => {
    const before = (await acme.as.viewer.gql(OPTIONS)).body.data;
    expect(before.callFilterOptions.topics).not.toContain('Roaming');
    const agent = await h.app.db.agent.create({
      data: { accountId: acme.account.id, name: 'Zoe New', nameNormalized: 'zoenew' },
    });
    const campaign = await h.app.db.campaign.create({
      data: { accountId: acme.account.id, name: 'Winter', nameNormalized: 'winter' },
    });
    const call = await insertCall(
      h.app.db,
      { accountId: acme.account.id, agentId: agent.id, campaignId: campaign.id },
      { topic: 'Roaming', language: null, detectedLanguage: 'pt' },
    );
    const after = (await acme.as.viewer.gql(OPTIONS)).body.data;
    expect(after.callFilterOptions.topics).toContain('Roaming');
    expect(after.callTopics).toContain('Roaming');
    expect(after.callFilterOptions.languages).toContain('pt');
    expect(after.callFilterOptions.agents.map((a: any) => a.name)).toContain('Zoe New');
    expect(after.callFilterOptions.campaigns.map((c: any) => c.name)).toContain('Winter');

    await h.app.db.call.update({ where: { id: call.id }, data: { topic: 'Sales' } });
    const changed = (await acme.as.viewer.gql(OPTIONS)).body.data;
    expect(changed.callFilterOptions.topics).toContain('Sales');
    expect(changed.callFilterOptions.topics).not.toContain('Roaming');

    await h.app.db.call.delete({ where: { id: call.id } });
    const gone = (await acme.as.viewer.gql(OPTIONS)).body.data.callFilterOptions;
    expect(gone.topics).not.toContain('Sales');
    expect(gone.languages).not.toContain('pt');
    expect(gone.agents.map((a: any) => a.name)).not.toContain('Zoe New');
  });
});

describe('search', () => {
  let refund: string;
  let plain: string;
  let filter: { campaignIds: string[] };

  beforeAll(async () => {
    const campaign = await h.app.db.campaign.create({
      data: { accountId: acme.account.id, name: 'Search', nameNormalized: 'search' },
    });
    filter = { campaignIds: [campaign.id] };
    const a = { accountId: acme.account.id, agentId: data.agent.id, campaignId: campaign.id };
    refund = (
      await insertCall(h.app.db, a, {
        segments: [
          { start: 0, end: 2, speaker: 'agent', text: 'Buenos días, le atiende Ana', channel: 0 },
          { start: 2.5, end: 6, speaker: 'customer', text: 'Quiero el reembolso: a Refund, please', channel: 1 },
        ],
        searchText: 'buenos dias, le atiende ana quiero el reembolso: a refund, please',
      })
    ).id;
    plain = (
      await insertCall(h.app.db, a, {
        segments: [{ start: 0, end: 2, speaker: 'agent', text: 'Buenos días, Peña Telecom', channel: 0 }],
        searchText: 'buenos dias, pena telecom',
      })
    ).id;
  });

  test('matches the last word as a prefix while it is typed, and earlier words whole', async () => {
    const ids = async (search: string) =>
      (await list({ filter: { ...filter, search }, first: 10 })).edges.map((e) => e.node.id);
    expect(await ids('refun')).toEqual([refund]);
    expect(await ids('reemb')).toEqual([refund]);
    expect(await ids('buenos')).toEqual(expect.arrayContaining([refund, plain]));
    expect(await ids('buen')).toHaveLength(2);
    // Only the last word is a prefix: "buen" before another word must be a whole word.
    expect(await ids('buen refund')).toEqual([]);
    expect(await ids('"le atiende" refu')).toEqual([refund]);
    expect(await ids('pena or refu')).toEqual(expect.arrayContaining([refund, plain]));
    expect(await ids('buenos -refund')).toEqual([plain]);
    // Two letters are too short to expand: whole words only.
    expect(await ids('re')).toEqual([]);
  });

  test('gives each result the transcript line that matches, as said, with the words marked', async () => {
    const page = await list({ filter: { ...filter, search: 'refun' }, first: 10 });
    expect(page.edges[0]!.snippet).toEqual({
      text: 'Quiero el reembolso: a Refund, please',
      start: 2.5,
      speaker: 'customer',
      highlights: [{ start: 23, end: 29 }],
    });
    const accents = await list({ filter: { ...filter, search: 'pena' }, first: 10 });
    expect(accents.edges[0]!.snippet.text).toBe('Buenos días, Peña Telecom');
    expect(accents.edges[0]!.snippet.highlights).toEqual([{ start: 13, end: 17 }]);
    const none = await list({ filter, first: 1 });
    expect(none.edges[0]!.snippet).toBeNull();
  });
});
