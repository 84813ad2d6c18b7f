// Issue 16.5: in production the schema is hidden from visitors who are not signed in.
import { expect } from '../support/harness.ts';
import { Browser, seedAccount, startGraphql, type Harness, testWithGraphql } from '../graphql/support.ts';

const INTROSPECT = '{ __schema { queryType { name } } }';
const test = testWithGraphql({ NODE_ENV: 'production' });
let prod: Harness;
let open: Harness;
test.beforeAll(async ({ db, gql }) => {
  prod = gql;
  open = await startGraphql(db, { env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'on' } });
});
test.afterAll(async () => {
  await open?.close();
});

test('a visitor who is not signed in cannot introspect in production, even through a fragment', async () => {
  const visitor = new Browser(prod.url);
  for (const query of [INTROSPECT, '{ ...F } fragment F on Query { __type(name: "Call") { name } }']) {
    const r = await visitor.gql(query);
    expect(r.body.data?.__schema ?? r.body.data?.__type).toBeUndefined();
    expect(r.body.errors?.[0]?.extensions?.code).toBe('unauthenticated');
  }
  // __typename is not introspection: the app's own queries keep working.
  expect((await visitor.gql('{ __typename }')).body.data).toEqual({ __typename: 'Query' });
});

test('a signed-in user can introspect in production', async () => {
  const { as } = await seedAccount(prod, 'Intro');
  const r = await as.viewer.gql(INTROSPECT);
  expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
});

test('GRAPHQL_INTROSPECTION=on opens it to visitors', async () => {
  const r = await new Browser(open.url).gql(INTROSPECT);
  expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
});
