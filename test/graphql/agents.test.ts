import { describe, expect } from '../support/harness.ts';
import { seedAccount, type SeededAccount, test } from './support.ts';

let acme: SeededAccount;

// Two seats, not the shared Acme's ten: the seat limit is what this file tests.
test.beforeAll(async ({ gql }) => {
  acme = await seedAccount(gql, 'Acme', { seats: 2 });
});

const CREATE = `mutation($input: AgentInput!) { createAgent(input: $input) { __typename ... on Agent { id name telephonyCode active } ... on Error { code message } ... on LimitError { limit } ... on ValidationError { issues { path message } } } }`;

describe('agents', () => {
  test('creates, lists and updates agents; codes are unique ignoring case and separators', async () => {
    const a = await acme.as.admin.gql(CREATE, { input: { name: 'Ana Pérez', telephonyCode: 'AG-01' } });
    expect(a.body.data.createAgent).toMatchObject({
      __typename: 'Agent',
      name: 'Ana Pérez',
      telephonyCode: 'AG-01',
      active: true,
    });
    const dup = await acme.as.admin.gql(CREATE, { input: { name: 'Other', telephonyCode: 'ag_01' } });
    expect(dup.body.data.createAgent).toMatchObject({ __typename: 'ConflictError', code: 'code_taken' });

    const list = await acme.as.viewer.gql(`{ agents { name telephonyCode } seats { used total available } }`);
    expect(list.body.data).toEqual({
      agents: [{ name: 'Ana Pérez', telephonyCode: 'AG-01' }],
      seats: { used: 1, total: 2, available: 1 },
    });

    const upd = await acme.as.admin.gql(
      `mutation($id: ID!) { updateAgent(id: $id, input: { telephonyCode: null }) { __typename ... on Agent { telephonyCode } } }`,
      { id: a.body.data.createAgent.id },
    );
    expect(upd.body.data.updateAgent).toEqual({ __typename: 'Agent', telephonyCode: null });
  });

  test('enforces the seat limit on create and reactivate', async () => {
    const b = await acme.as.owner.gql(CREATE, { input: { name: 'Bea' } });
    expect(b.body.data.createAgent.__typename).toBe('Agent');
    const c = await acme.as.owner.gql(CREATE, { input: { name: 'Carla' } });
    expect(c.body.data.createAgent).toMatchObject({ __typename: 'LimitError', code: 'seat_limit', limit: 2 });

    const id = b.body.data.createAgent.id;
    const off = await acme.as.owner.gql(
      `mutation($id: ID!) { deactivateAgent(id: $id) { __typename ... on Agent { active } } }`,
      { id },
    );
    expect(off.body.data.deactivateAgent).toEqual({ __typename: 'Agent', active: false });
    const c2 = await acme.as.owner.gql(CREATE, { input: { name: 'Carla' } });
    expect(c2.body.data.createAgent.__typename).toBe('Agent');
    const on = await acme.as.owner.gql(
      `mutation($id: ID!) { reactivateAgent(id: $id) { __typename ... on Error { code } } }`,
      { id },
    );
    expect(on.body.data.reactivateAgent).toEqual({ __typename: 'LimitError', code: 'seat_limit' });
  });

  test('reports validation errors with issues', async () => {
    const r = await acme.as.admin.gql(CREATE, { input: { name: '   ' } });
    expect(r.body.data.createAgent).toMatchObject({
      __typename: 'ValidationError',
      code: 'invalid_input',
      issues: [{ path: 'name', message: 'An agent needs a name.' }],
    });
  });

  test('does not let viewers or analysts manage agents', async ({ db: t }) => {
    for (const role of ['viewer', 'analyst'] as const) {
      const r = await acme.as[role].gql(CREATE, { input: { name: 'Nope' } });
      expect(r.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect(await t.sql(`SELECT 1 FROM agents WHERE name = 'Nope'`)).toHaveLength(0);
  });
});
