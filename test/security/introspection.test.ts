// Issue 16.5: in production the schema is hidden from visitors who are not signed in.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Browser, seedAccount, startGraphql, type Harness } from '../graphql/support.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

const INTROSPECT = '{ __schema { queryType { name } } }';
let t: TestDb;
let prod: Harness;
let open: Harness;
beforeAll(async () => {
  t = await createTestDb();
  prod = await startGraphql(t, { env: { NODE_ENV: 'production' } });
  open = await startGraphql(t, { env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'on' } });
});
afterAll(async () => {
  await prod?.close();
  await open?.close();
  await t?.drop();
});

it('a visitor who is not signed in cannot introspect in production, even through a fragment', async () => {
  const visitor = new Browser(prod.url);
  for (const query of [INTROSPECT, '{ ...F } fragment F on Query { __type(name: "Call") { name } }']) {
    const r = await visitor.gql(query);
    expect(r.body.data?.__schema ?? r.body.data?.__type).toBeUndefined();
    expect(r.body.errors?.[0]?.extensions?.code).toBe('unauthenticated');
  }
  // __typename is not introspection: the app's own queries keep working.
  expect((await visitor.gql('{ __typename }')).body.data).toEqual({ __typename: 'Query' });
});

it('a signed-in user can introspect in production', async () => {
  const { as } = await seedAccount(prod, 'Intro');
  const r = await as.viewer.gql(INTROSPECT);
  expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
});

it('GRAPHQL_INTROSPECTION=on opens it to visitors', async () => {
  const r = await new Browser(open.url).gql(INTROSPECT);
  expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
});
