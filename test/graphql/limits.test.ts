// Issue 4 part 7: query depth, cost and page-size limits keep one request from loading the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { seedAccount, startGraphql, type Harness } from './support.ts';

let t: TestDb;
let h: Harness;
let acme: Awaited<ReturnType<typeof seedAccount>>;

beforeAll(async () => {
  t = await createTestDb();
  h = await startGraphql(t);
  acme = await seedAccount(h, 'Acme');
});
afterAll(async () => {
  await h?.close();
  await t?.drop();
});

describe('query limits', () => {
  it('refuses a query nested deeper than the limit, before running it', async () => {
    // Introspection is the schema's only unbounded nesting, and a classic way to make a server work hard.
    const ofTypes = (n: number): string => (n === 0 ? 'name' : `ofType { ${ofTypes(n - 1)} }`);
    const deep = `{ __schema { types { fields { type { ${ofTypes(14)} } } } } }`;
    const r = await acme.as.viewer.gql(deep);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/nested \d+ levels deep; the limit is 15/),
      extensions: { code: 'QUERY_TOO_DEEP' },
    });
  });

  it('still answers the standard introspection query (GraphiQL, code generators)', async () => {
    const { getIntrospectionQuery } = await import('../../schema/graphql-js.ts');
    const r = await acme.as.viewer.gql(getIntrospectionQuery());
    expect(r.body.errors ?? []).toEqual([]);
    expect(r.body.data.__schema.types.length).toBeGreaterThan(20);
  });

  it('refuses a query whose estimated cost is too high (many aliased pages of calls)', async () => {
    const pages = Array.from(
      { length: 60 },
      (_, i) => `p${i}: calls(first: 100) { edges { node { id agent { name } campaign { name } } } }`,
    ).join(' ');
    const r = await acme.as.viewer.gql(`{ ${pages} }`);
    expect(r.body.data ?? null).toBeNull();
    expect(JSON.stringify(r.body.errors)).toMatch(/complexity|breadth|cost/i);
  });

  it('caps a page of calls at 100 whatever `first` asks', async () => {
    const r = await acme.as.viewer.gql(`{ calls(first: 1000) { edges { node { id } } pageInfo { hasNextPage } } }`);
    expect(r.body.errors ?? []).toEqual([]);
    expect(r.body.data.calls.edges.length).toBeLessThanOrEqual(100);
  });
});
