// Two api processes on one database enforce one limit: the intake's requests per account and
// minute, and the sign-in tries per email and IP, are counted in PostgreSQL (rate_limits).
import { LOGIN_MAX_FAILURES } from '../../src/auth/sign-in.ts';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { expect, testWithService } from '../support/harness.ts';

const test = testWithService({ env: { INTAKE_RATE_PER_MINUTE: '4' } });

let t: TestDb;
let one: TestService;
let two: TestService;
test.beforeAll(async ({ db, service, serviceWith }) => {
  t = db;
  [one, two] = [service, await serviceWith()];
});

test('429 on either api once the account used its requests per minute across both', async () => {
  const a = await seedAccount(one);
  const send = (svc: TestService) =>
    postCall(svc.url, { key: a.key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(), name: 'a.wav' } });
  // Two on each: the limit of four is used up, though neither process saw more than two.
  for (const svc of [one, two, one, two]) expect((await send(svc)).status).toBe(201);
  for (const svc of [one, two]) {
    const limited = await send(svc);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  expect(await t.sql('SELECT count(*)::int AS n FROM calls WHERE account_id = $1', [a.account.id])).toEqual([{ n: 4 }]);
});

const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename ... on Error { code } } }`;
async function signIn(svc: TestService, email: string, password: string) {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-escucha-csrf': 'x' },
    body: JSON.stringify({ query: SIGN_IN, variables: { e: email, p: password } }),
  });
  return (await res.json()).data.signIn as { __typename: string; code?: string };
}

test('locks an email out on both apis after the failed sign-ins spread over them, even for the right password', async () => {
  const { owner } = await seedAccount(one);
  for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
    expect(await signIn(i % 2 ? two : one, owner.email, `wrong ${i}`)).toMatchObject({ code: 'invalid_credentials' });
  }
  for (const svc of [one, two]) {
    expect(await signIn(svc, owner.email, owner.password)).toMatchObject({
      __typename: 'RateLimitedError',
      code: 'rate_limited',
    });
  }
});
