// Issue 4 part 7: query depth, cost and page-size limits keep one request from loading the database.
import { describe, expect } from '../support/harness.ts';
import { test } from './support.ts';

describe('query limits', () => {
  test('refuses a query nested deeper than the limit, before running it', async ({ acme }) => {
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

  test('still answers the standard introspection query (GraphiQL, code generators)', async ({ acme }) => {
    const { getIntrospectionQuery } = await import('../../schema/graphql-js.ts');
    const r = await acme.as.viewer.gql(getIntrospectionQuery());
    expect(r.body.errors ?? []).toEqual([]);
    expect(r.body.data.__schema.types.length).toBeGreaterThan(20);
  });

  test('refuses a query whose estimated cost is too high (many aliased pages of calls)', async ({ acme }) => {
    const pages = Array.from(
      { length: 60 },
      (_, i) => `p${i}: calls(first: 100) { edges { node { id agent { name } campaign { name } } } }`,
    ).join(' ');
    const r = await acme.as.viewer.gql(`{ ${pages} }`);
    expect(r.body.data ?? null).toBeNull();
    expect(JSON.stringify(r.body.errors)).toMatch(/complexity|breadth|cost/i);
  });

  test('caps a page of calls at 100 whatever `first` asks', async ({ acme }) => {
    const r = await acme.as.viewer.gql(`{ calls(first: 1000) { edges { node { id } } pageInfo { hasNextPage } } }`);
    expect(r.body.errors ?? []).toEqual([]);
    expect(r.body.data.calls.edges.length).toBeLessThanOrEqual(100);
  });
});
