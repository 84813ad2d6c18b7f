// Score colour bands per account (issue 11): admins set where scores turn green, amber and red;
// everyone in the account reads them; a call says when its 0 comes from a critical fail.
import { describe, expect } from '../support/harness.ts';
import { insertCall } from './fixtures.ts';
import { Browser, PASSWORD, type SeededAccount, test } from './support.ts';

async function as(acme: SeededAccount, role: 'admin' | 'viewer') {
  const b = new Browser(acme.as.viewer.url);
  await b.signIn(acme.users[role].email, PASSWORD);
  return b;
}

const SET = `mutation($g: Int, $f: Int) { updateAccountSettings(scoreGood: $g, scoreFair: $f) {
  __typename ... on Account { scoreBands { good fair } } ... on Error { code } } }`;

describe('score colour bands', () => {
  test('are 80/60 until an admin changes them, then every member reads the new ones', async ({ acme }) => {
    const viewer = await as(acme, 'viewer');
    const before = await viewer.gql(`{ account { scoreBands { good fair } } }`);
    expect(before.body.data.account.scoreBands).toEqual({ good: 80, fair: 60 });
    const admin = await as(acme, 'admin');
    const set = await admin.gql(SET, { g: 90, f: 70 });
    expect(set.body.data.updateAccountSettings).toEqual({ __typename: 'Account', scoreBands: { good: 90, fair: 70 } });
    const after = await viewer.gql(`{ account { scoreBands { good fair } } }`);
    expect(after.body.data.account.scoreBands).toEqual({ good: 90, fair: 70 });
    // Other settings leave them alone.
    await admin.gql(`mutation { updateAccountSettings(timeZone: "Europe/Madrid") { __typename } }`);
    expect((await viewer.gql(`{ account { scoreBands { good fair } } }`)).body.data.account.scoreBands).toEqual({
      good: 90,
      fair: 70,
    });
  });

  test('are refused when amber is not below green or out of 0–100, and a viewer cannot change them', async ({
    acme,
  }) => {
    const admin = await as(acme, 'admin');
    for (const [g, f] of [
      [60, 60],
      [101, 50],
      [50, -1],
    ])
      expect((await admin.gql(SET, { g, f })).body.data.updateAccountSettings.code).toBe('invalid_score_bands');
    const viewer = await as(acme, 'viewer');
    const r = await viewer.gql(SET, { g: 50, f: 10 });
    expect(r.body.data?.updateAccountSettings?.code ?? r.body.errors?.[0]?.extensions?.code).toMatch(/forbidden/i);
  });

  test('a call tells a critical fail from a low score', async ({ gql: h, acme }) => {
    const agent = await h.app.db.agent.create({
      data: { accountId: acme.account.id, name: 'Ana', nameNormalized: 'ana', code: 'A1', codeNormalized: 'a1' },
    });
    const crit = {
      key: 'k',
      label: 'No insults',
      kind: 'forbidden',
      points: 0,
      max_points: 5,
      critical: true,
      evidence: [],
    };
    const failed = await insertCall(
      h.app.db,
      { accountId: acme.account.id, agentId: agent.id },
      { score: 0, criteria: [{ ...crit, result: 'failed' }] },
    );
    const low = await insertCall(
      h.app.db,
      { accountId: acme.account.id, agentId: agent.id },
      { score: 10, criteria: [{ ...crit, result: 'passed', points: 5 }] },
    );
    const viewer = await as(acme, 'viewer');
    const q = `query($id: ID!) { call(id: $id) { score criticalFailed } }`;
    expect((await viewer.gql(q, { id: failed.id })).body.data.call).toEqual({ score: 0, criticalFailed: true });
    expect((await viewer.gql(q, { id: low.id })).body.data.call).toEqual({ score: 10, criticalFailed: false });
  });
});
