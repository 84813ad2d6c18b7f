// The calls list's query paths (issue 30.3): a common word's page is found by walking a sort index
// and checking the word on the calls met, a rare word's from the GIN index's matches, a walk that
// meets too few matches (a word common elsewhere, rare in this account) falls back to the GIN
// index, and a score band reads the date index. Whatever the path, every page holds the calls the
// plain SQL order gives (same rows, same order, nulls last descending and first ascending), forwards
// and backwards, with the same counts.
import fc from 'fast-check';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { COUNT_CAP } from '../../src/calls/calls-query.ts';
import { callFilterParts } from '../../src/calls/calls-filter.ts';
import { searchWalkBudget } from '../../src/calls/search-walk.ts';
import { describe, expect, test } from '../support/harness.ts';
import type { TestDb } from '../support/db.ts';
import type { Seeded, SeedOptions, TestService } from '../support/service.ts';
import { Browser, PASSWORD } from './support.ts';

const LIST = `query($first: Int, $last: Int, $after: String, $before: String, $filter: CallFilter, $sort: CallSortField, $order: SortOrder) {
  calls(first: $first, last: $last, after: $after, before: $before, filter: $filter, sort: $sort, order: $order) {
    totalCount totalCountExact
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

type Page = {
  totalCount: number;
  totalCountExact: boolean;
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
};

const SORTS = [
  ['STARTED_AT', 'started_at'],
  ['SCORE', 'score'],
  ['DURATION', 'duration_seconds'],
] as const;
const ANALYZED = `status IN ('analyzed', 'transcribed')`;

/**
 * One account of 6,000 calls: "router" in one call of five, "gracias" in one of two, "hipoteca"
 * in one of 400; ties in start time and score, quarter points; unscored, unmeasured, failed (some
 * scored) and queued calls.
 * Another of 2,600 English calls says "router" three times. A few hundred other words, so the
 * statistics list more than 100 (below that the planner guesses every prefix's frequency). Then
 * ANALYZE, as autovacuum would.
 */
let seeded: ReturnType<typeof seedCalls> | null = null;
/** Seeded once for the file (the database and the service are the file's). */
const calls = (db: TestDb, service: TestService, seed: Seed) => (seeded ??= seedCalls(db, service, seed));

async function seedCalls(db: TestDb, service: TestService, seed: Seed) {
  const main = await signedIn(service, seed, 'Paths');
  const other = await signedIn(service, seed, 'English');
  await db.sql(
    `INSERT INTO calls (id, account_id, agent_id, source, status, started_at, file_name, file_size, file_sha256, content_type,
                        storage_key, reserved_minutes, period, score, duration_seconds, search_text)
     SELECT gen_random_uuid(), $1, $2, 'api', st::"CallStatus", timestamptz '2024-03-01' + (g / 3) * interval '1 minute',
            'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03',
            CASE WHEN st = 'analyzed' THEN CASE WHEN g % 11 = 0 THEN 0 ELSE least(100, (g * 37) % 101 + (g % 4) * 0.25) END
                 WHEN st = 'failed' AND g % 40 = 1 THEN g % 101 END,
            CASE WHEN g % 9 <> 0 THEN (g * 13) % 600 END,
            CASE WHEN st IN ('analyzed', 'transcribed') THEN concat_ws(' ', 'hola', 'w' || g % 97, 'v' || g % 89, CASE WHEN g % 5 = 0 THEN 'el router no va' END,
                 CASE WHEN g % 400 = 3 THEN 'una hipoteca' END, CASE WHEN g % 2 = 0 THEN 'muchas gracias' END, 'adios') END
       FROM generate_series(1, 6000) g,
            LATERAL (SELECT CASE WHEN g % 20 = 1 THEN 'failed' WHEN g % 50 = 2 THEN 'queued'
                                 WHEN g % 7 = 0 THEN 'transcribed' ELSE 'analyzed' END AS st) s`,
    [main.accountId, main.agentId],
  );
  await db.sql(
    `INSERT INTO calls (id, account_id, agent_id, source, status, started_at, file_name, file_size, file_sha256, content_type,
                        storage_key, reserved_minutes, period, score, duration_seconds, search_text)
     SELECT gen_random_uuid(), $1, $2, 'api', 'analyzed', timestamptz '2024-03-01' + g * interval '1 minute',
            'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03', g % 100, 60,
            concat_ws(' ', 'hello thank you', 'w' || g % 97, CASE WHEN g IN (100, 1500, 2500) THEN 'my router is down' END)
       FROM generate_series(1, 2600) g`,
    [other.accountId, other.agentId],
  );
  await db.sql('ANALYZE calls');
  return { main, other };
}

type Seed = (opts?: SeedOptions) => Promise<Seeded>;

async function signedIn(service: TestService, seed: Seed, name: string) {
  const { account, owner, agents } = await seed({ name, apiKey: false, minutes: null });
  await service.app.db.user.update({
    where: { email: owner.email },
    data: { passwordHash: await hashPassword(PASSWORD) },
  });
  const browser = new Browser(`${service.url}/graphql`);
  await browser.signIn(owner.email, PASSWORD);
  return { accountId: account.id, agentId: agents[0]!.id, browser };
}

async function list(b: Browser, vars: Record<string, unknown>): Promise<Page> {
  const r = await b.gql(LIST, vars);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.calls as Page;
}

/** The ids in list order straight from SQL: nulls last descending, first ascending, ties by id. */
async function truth(db: TestDb, accountId: string, where: string, column: string, order: 'ASC' | 'DESC') {
  const nulls = order === 'DESC' ? 'NULLS LAST' : 'NULLS FIRST';
  const rows = await db.sql<{ id: string }>(
    `SELECT id FROM calls WHERE account_id = $1 AND ${where} ORDER BY ${column} ${order} ${nulls}, id ${order}`,
    [accountId],
  );
  return rows.map((r) => r.id);
}

/**
 * The first `pages` pages forwards must be the first rows of `want`; from the last of them, one
 * page backwards must be the rows just before it.
 */
async function expectPages(b: Browser, vars: Record<string, unknown>, want: string[], pages = 3) {
  const seen: string[] = [];
  let after: string | null = null;
  let last: Page | null = null;
  for (let i = 0; i < pages; i++) {
    last = await list(b, { ...vars, first: 25, after });
    seen.push(...last.edges.map((e) => e.node.id));
    expect(last.pageInfo.hasNextPage).toBe(want.length > seen.length);
    if (!last.pageInfo.hasNextPage) break;
    after = last.pageInfo.endCursor;
  }
  expect(seen).toEqual(want.slice(0, seen.length));
  expect(seen.length).toBe(Math.min(want.length, pages * 25));
  if (last && seen.length > 25) {
    const back = await list(b, { ...vars, last: 10, before: last.pageInfo.startCursor });
    const from = seen.length - last.edges.length;
    expect(back.edges.map((e) => e.node.id)).toEqual(want.slice(from - 10, from));
  }
}

describe('search pages by the path the statistics choose', () => {
  test('common words walk a sort index, rare ones use the GIN index, and every page is the SQL order', async ({
    db,
    service,
    seed,
  }) => {
    const { main } = await calls(db, service, seed);
    const budget = (search: string) =>
      searchWalkBudget(service.app.db, callFilterParts(main.accountId, { search }).search!, 25);
    // One call in five, and one in two: known common from the statistics. One in 400: not.
    expect(await budget('router')).toBeGreaterThan(0);
    expect(await budget('gracias')).toBeGreaterThan(0);
    expect(await budget('hipoteca')).toBeNull();

    const searches: [search: string, where: string][] = [
      ['router', `search_vector @@ to_tsquery('simple', 'router:*')`],
      ['gracias', `search_vector @@ to_tsquery('simple', 'gracias:*')`],
      ['hipoteca', `search_vector @@ to_tsquery('simple', 'hipoteca:*')`],
      ['"el router" -gracias', `search_vector @@ websearch_to_tsquery('simple', '"el router" -gracias')`],
    ];
    for (const [search, where] of searches) {
      for (const [sort, column] of SORTS) {
        for (const order of ['DESC', 'ASC'] as const) {
          const want = await truth(db, main.accountId, `${ANALYZED} AND ${where}`, column, order);
          expect(want.length).toBeGreaterThan(0);
          await expectPages(main.browser, { filter: { view: 'ANALYZED', search }, sort, order }, want);
        }
      }
      const first = await list(main.browser, { filter: { view: 'ANALYZED', search }, first: 25 });
      const matches = (await truth(db, main.accountId, `${ANALYZED} AND ${where}`, 'id', 'ASC')).length;
      expect([first.totalCount, first.totalCountExact]).toEqual([Math.min(matches, 1000), matches <= 1000]);
    }
  });

  test('a search looks in transcripts: every view counts and lists what SQL gives, and a call without a transcript matches nothing, not even "-router"', async ({
    db,
    service,
    seed,
  }) => {
    const { main } = await calls(db, service, seed);
    const views: [view: string | null, statuses: string][] = [
      ['ANALYZED', ANALYZED],
      ['FAILED', `status = 'failed'`],
      ['IN_PROGRESS', `status IN ('queued', 'transcribing', 'analyzing')`],
      [null, 'TRUE'],
    ];
    const searches: [search: string, where: string][] = [
      ['router', `to_tsquery('simple', 'router:*')`],
      ['-router', `websearch_to_tsquery('simple', '-router')`],
      ['hola -gracias', `websearch_to_tsquery('simple', 'hola -gracias')`],
    ];
    for (const [view, statuses] of views) {
      const all = await list(main.browser, { filter: { view }, first: 1 });
      expect(all.totalCount).toBeGreaterThan(0);
      for (const [search, query] of searches) {
        const want = await truth(
          db,
          main.accountId,
          `${statuses} AND coalesce(search_text, '') <> '' AND to_tsvector('simple', search_text) @@ ${query}`,
          'started_at',
          'DESC',
        );
        if (view === 'FAILED' || view === 'IN_PROGRESS') expect(want).toEqual([]);
        const page = await list(main.browser, { filter: { view, search }, first: 25 });
        expect([view, search, page.totalCount, page.totalCountExact]).toEqual([
          view,
          search,
          Math.min(want.length, 1000),
          want.length <= 1000,
        ]);
        expect(page.edges.map((e) => e.node.id)).toEqual(want.slice(0, 25));
      }
    }
  });

  test('a word the statistics call common but this account rarely says: the walk gives up and the GIN index answers', async ({
    db,
    service,
    seed,
  }) => {
    const { other } = await calls(db, service, seed);
    // "router" is common across the table, so the walk is tried; 2,600 calls hold three matches.
    for (const order of ['DESC', 'ASC'] as const) {
      const want = await truth(
        db,
        other.accountId,
        `${ANALYZED} AND search_vector @@ to_tsquery('simple', 'router:*')`,
        'started_at',
        order,
      );
      expect(want).toHaveLength(3);
      const page = await list(other.browser, { filter: { view: 'ANALYZED', search: 'router' }, first: 25, order });
      expect(page.edges.map((e) => e.node.id)).toEqual(want);
      expect(page.pageInfo.hasNextPage).toBe(false);
    }
  });
});

describe('score bands', () => {
  const BANDS: [min: number | null, max: number | null][] = [
    [0, 20],
    [0, 0],
    [50.5, 60],
    [50.3, 50.6],
    [20.5, 20.75],
    [90, null],
    [null, 10.25],
  ];
  const bandWhere = (min: number | null, max: number | null) =>
    [min != null && `score >= ${min}`, max != null && `score <= ${max}`].filter(Boolean).join(' AND ');

  test('every sort of a band, and the band count in every view, are what SQL gives', async ({ db, service, seed }) => {
    const { main } = await calls(db, service, seed);
    for (const [min, max] of BANDS) {
      const where = `${ANALYZED} AND ${bandWhere(min, max)}`;
      for (const [sort, column] of SORTS) {
        for (const order of ['DESC', 'ASC'] as const) {
          const want = await truth(db, main.accountId, where, column, order);
          await expectPages(
            main.browser,
            { filter: { view: 'ANALYZED', scoreMin: min, scoreMax: max }, sort, order },
            want,
            2,
          );
        }
      }
      const views: [view: string | null, statuses: string][] = [
        ['ANALYZED', ANALYZED],
        ['FAILED', `status = 'failed'`],
        ['IN_PROGRESS', `status IN ('queued', 'transcribing', 'analyzing')`],
        [null, 'TRUE'],
      ];
      for (const [view, statuses] of views) {
        const page = await list(main.browser, { filter: { view, scoreMin: min, scoreMax: max }, first: 1 });
        const n = (await truth(db, main.accountId, `${statuses} AND ${bandWhere(min, max)}`, 'id', 'ASC')).length;
        expect([view, min, max, page.totalCount, page.totalCountExact]).toEqual([view, min, max, n, true]);
      }
    }
  });

  test('a band over more calls than the cap counts "10,000+", a narrower one exactly', async ({
    service,
    seed,
    db,
  }) => {
    const big = await signedIn(service, seed, 'Big');
    await db.sql(
      `INSERT INTO calls (id, account_id, agent_id, source, status, started_at, file_name, file_size, file_sha256,
                          content_type, storage_key, reserved_minutes, period, score)
       SELECT gen_random_uuid(), $1, $2, 'api', 'analyzed', timestamptz '2024-03-01' + g * interval '1 minute', 'f.wav', 1,
              'x', 'audio/wav', 'k', 1, '2024-03', g % 100 + (g % 2) * 0.5 FROM generate_series(1, $3::int) g`,
      [big.accountId, big.agentId, COUNT_CAP + 500],
    );
    const bands: [number | null, number | null][] = [
      [0, 99],
      [null, 50],
      [10, null],
      [0, 9.5],
      [10.5, 20],
      [42, 42.5],
    ];
    for (const [min, max] of bands) {
      const n = (await truth(db, big.accountId, bandWhere(min, max), 'id', 'ASC')).length;
      const page = await list(big.browser, { filter: { view: 'ANALYZED', scoreMin: min, scoreMax: max }, first: 1 });
      expect([min, max, page.totalCount, page.totalCountExact]).toEqual([
        min,
        max,
        Math.min(n, COUNT_CAP),
        n <= COUNT_CAP,
      ]);
    }
  });

  test('the counters behind them equal a direct count after any inserts, score and status changes, and deletes', async ({
    service,
    seed,
    db,
  }) => {
    const s = await signedIn(service, seed, 'Counters');
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        n: fc.integer({ min: 1, max: 3 }),
        status: fc.constantFrom('queued', 'analyzed', 'transcribed', 'failed'),
        score: fc.option(fc.constantFrom(0, 19.5, 20, 77.25, 100), { nil: null }),
      }),
      fc.record({
        kind: fc.constant('score' as const),
        pick: fc.nat(),
        score: fc.option(fc.constantFrom(0, 0.5, 20, 20.25, 99.75), { nil: null }),
      }),
      fc.record({
        kind: fc.constant('status' as const),
        pick: fc.nat(),
        status: fc.constantFrom('analyzed', 'failed'),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    const pickOne = `(SELECT id FROM calls WHERE account_id = $1 ORDER BY id OFFSET $2 % greatest(1, (SELECT count(*) FROM calls WHERE account_id = $1)) LIMIT 1)`;
    const kept = () =>
      db.sql(
        `SELECT status::text, bucket, calls FROM call_score_counts WHERE account_id = $1 AND calls <> 0 ORDER BY 1, 2`,
        [s.accountId],
      );
    const direct = () =>
      db.sql(
        `SELECT status::text, floor(score) AS bucket, count(*)::int AS calls FROM calls
          WHERE account_id = $1 AND score IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
        [s.accountId],
      );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'insert') {
            await db.sql(
              `INSERT INTO calls (id, account_id, agent_id, source, status, started_at, file_name, file_size, file_sha256,
                                  content_type, storage_key, reserved_minutes, period, score)
               SELECT gen_random_uuid(), $1, $2, 'api', $3::"CallStatus", now(), 'f.wav', 1, 'x', 'audio/wav', 'k', 1,
                      '2024-01', $4 FROM generate_series(1, $5::int)`,
              [s.accountId, s.agentId, o.status, o.score, o.n],
            );
          } else if (o.kind === 'score') {
            await db.sql(`UPDATE calls SET score = $3 WHERE id = ${pickOne}`, [s.accountId, o.pick, o.score]);
          } else if (o.kind === 'status') {
            await db.sql(`UPDATE calls SET status = $3::"CallStatus" WHERE id = ${pickOne}`, [
              s.accountId,
              o.pick,
              o.status,
            ]);
          } else {
            await db.sql(`DELETE FROM calls WHERE id = ${pickOne}`, [s.accountId, o.pick]);
          }
        }
        expect(await kept()).toEqual(await direct());
      }),
      { numRuns: 20 },
    );
    // Deleting the account leaves no counter behind.
    await service.app.db.account.delete({ where: { id: s.accountId } });
    expect(await kept()).toEqual([]);
  });
});
