import { describe, expect } from '../support/harness.ts';
import { hashToken } from '../../src/auth/session.ts';
import { LOGIN_MAX_FAILURES } from '../../src/auth/sign-in.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { Browser, PASSWORD, test } from './support.ts';

const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } ... on Session { csrfToken user { email } } } }`;

describe('sign-in and sessions', () => {
  test('sets an HttpOnly, SameSite=Lax session cookie and stores only a hash of the token', async ({
    db: t,
    gql: h,
    acme,
  }) => {
    const b = new Browser(h.url);
    const r = await b.gql(SIGN_IN, { e: acme.users.viewer.email, p: PASSWORD });
    expect(r.body.data.signIn.user.email).toBe(acme.users.viewer.email);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('escucha_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i); // PUBLIC_URL is https in the harness
    expect(cookie).toMatch(/Max-Age=1209\d{3}/); // 14 days
    const token = b.cookie!.split('=')[1]!;
    expect(await t.sql('SELECT 1 FROM sessions WHERE token_hash = $1', [hashToken(token)])).toHaveLength(1);
    expect(await t.sql('SELECT 1 FROM sessions WHERE token_hash = $1 OR csrf_token = $1', [token])).toHaveLength(0);
  });

  test('refuses a wrong password and an unknown email with the same answer', async ({ gql: h, acme }) => {
    const b = new Browser(h.url);
    const wrong = await b.gql(SIGN_IN, { e: acme.users.admin.email, p: 'not the password' });
    const unknown = await b.gql(SIGN_IN, { e: 'ghost@example.com', p: 'not the password' });
    expect(wrong.body.data.signIn).toEqual({
      __typename: 'InvalidCredentialsError',
      code: 'invalid_credentials',
      message: 'Wrong email or password.',
    });
    expect(unknown.body.data.signIn).toEqual(wrong.body.data.signIn);
    expect(b.cookie).toBeNull();
  });

  test('rate-limits failed sign-ins per email and IP, even for the right password afterwards', async ({
    gql: h,
    acme,
  }) => {
    const b = new Browser(h.url);
    const email = acme.users.analyst.email;
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const r = await b.gql(SIGN_IN, { e: email, p: `bad ${i}` });
      expect(r.body.data.signIn.code).toBe('invalid_credentials');
    }
    const blocked = await b.gql(SIGN_IN, { e: email, p: PASSWORD });
    expect(blocked.body.data.signIn).toMatchObject({ __typename: 'RateLimitedError', code: 'rate_limited' });
    expect(blocked.body.data.signIn.retryAfterSeconds).toBeGreaterThan(0);
    // Another email from the same IP is unaffected.
    const other = await b.gql(SIGN_IN, { e: acme.users.owner.email, p: PASSWORD });
    expect(other.body.data.signIn.__typename).toBe('Session');
  });

  test('treats an expired session as signed out', async ({ db: t, gql: h, acme }) => {
    const b = new Browser(h.url);
    await b.signIn(acme.users.viewer.email, PASSWORD);
    expect((await b.gql(`{ me { email } }`)).body.data.me.email).toBe(acme.users.viewer.email);
    await t.sql(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      hashToken(b.cookie!.split('=')[1]!),
    ]);
    const r = await b.gql(`{ me { email } }`);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await b.gql(`{ session { csrfToken } }`)).body.data.session).toBeNull();
  });

  test('slides the expiry of a session in use', async ({ db: t, gql: h, acme }) => {
    const b = new Browser(h.url);
    await b.signIn(acme.users.viewer.email, PASSWORD);
    const hash = hashToken(b.cookie!.split('=')[1]!);
    await t.sql(
      `UPDATE sessions SET last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 day' WHERE token_hash = $1`,
      [hash],
    );
    const r = await b.gql(`{ me { email } }`);
    expect(r.headers.getSetCookie().some((c) => c.startsWith('escucha_session='))).toBe(true);
    const [row] = await t.sql(
      `SELECT expires_at > now() + interval '13 days' AS slid FROM sessions WHERE token_hash = $1`,
      [hash],
    );
    expect(row.slid).toBe(true);
  });

  test('signs out: the session row is gone and the cookie cleared', async ({ db: t, gql: h, acme }) => {
    const b = new Browser(h.url);
    await b.signIn(acme.users.viewer.email, PASSWORD);
    const hash = hashToken(b.cookie!.split('=')[1]!);
    const r = await b.gql(`mutation { signOut }`);
    expect(r.body.data.signOut).toBe(true);
    expect(b.cookie).toBeNull();
    expect(await t.sql('SELECT 1 FROM sessions WHERE token_hash = $1', [hash])).toHaveLength(0);
  });

  test('changes the password only with the current one, and ends the other sessions', async ({ gql: h, acme }) => {
    const email = 'traveller@example.com';
    await h.app.db.user.create({
      data: {
        accountId: acme.account.id,
        email,
        name: 'Traveller',
        role: 'analyst',
        passwordHash: await hashPassword(PASSWORD),
      },
    });
    const laptop = new Browser(h.url);
    const phone = new Browser(h.url);
    await laptop.signIn(email, PASSWORD);
    await phone.signIn(email, PASSWORD);
    const CHANGE = `mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { __typename ... on Error { code } } }`;
    expect((await laptop.gql(CHANGE, { c: 'wrong', n: 'a brand new password' })).body.data.changePassword.code).toBe(
      'invalid_credentials',
    );
    expect((await laptop.gql(CHANGE, { c: PASSWORD, n: 'short' })).body.data.changePassword.code).toBe('weak_password');
    expect(
      (await laptop.gql(CHANGE, { c: PASSWORD, n: 'a brand new password' })).body.data.changePassword.__typename,
    ).toBe('MutationChangePasswordSuccess');
    expect((await laptop.gql(`{ me { email } }`)).body.data.me.email).toBe(email);
    expect((await phone.gql(`{ me { email } }`)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const again = new Browser(h.url);
    await again.signIn(email, 'a brand new password');
  });
});

describe('CSRF and CORS', () => {
  test('rejects any request without the x-escucha-csrf header', async ({ acme }) => {
    const r = await acme.as.viewer.gql(`{ me { email } }`, {}, { csrf: null });
    expect(r.status).toBe(403);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('CSRF');
  });

  test('rejects a mutation whose header does not match the session csrf token, and changes nothing', async ({
    db: t,
    acme,
  }) => {
    const r = await acme.as.owner.gql(
      `mutation { createAgent(input: { name: "CSRF victim" }) { __typename } }`,
      {},
      { csrf: 'guessed' },
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('CSRF');
    expect(await t.sql(`SELECT 1 FROM agents WHERE name = 'CSRF victim'`)).toHaveLength(0);
    // Reads are harmless and work with any header value.
    expect((await acme.as.owner.gql(`{ me { role } }`, {}, { csrf: 'anything' })).body.data.me.role).toBe('OWNER');
  });

  test('grants no cross-origin access (no CORS headers on preflight or response)', async ({ gql: h, acme }) => {
    const pre = await fetch(h.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-escucha-csrf,content-type',
      },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const r = await acme.as.viewer.gql(`{ me { email } }`, {}, { headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('invitations and users', () => {
  test('invites with a one-time link that creates the user and signs them in', async ({ gql: h, acme }) => {
    const r = await acme.as.admin.gql(
      `mutation { inviteUser(email: "New.Person@Example.com", role: ANALYST) { __typename ... on InvitationPayload { link invitation { email role } } ... on Error { code } } }`,
    );
    const { link, invitation } = r.body.data.inviteUser;
    expect(invitation).toEqual({ email: 'new.person@example.com', role: 'ANALYST' });
    expect(link).toMatch(/^https:\/\/escucha\.example\/invite\/[A-Za-z0-9_-]{40,}$/);
    const token = link.split('/').pop();
    const b = new Browser(h.url);
    const ACCEPT = `mutation($t: String!) { acceptInvitation(token: $t, name: "New Person", password: "a long password") { __typename ... on Session { user { email role name } } ... on Error { code } } }`;
    const accepted = await b.gql(ACCEPT, { t: token });
    expect(accepted.body.data.acceptInvitation).toEqual({
      __typename: 'Session',
      user: { email: 'new.person@example.com', role: 'ANALYST', name: 'New Person' },
    });
    expect((await b.gql(`{ account { name } }`)).body.data.account.name).toBe('Acme');
    const reuse = await new Browser(h.url).gql(ACCEPT, { t: token });
    expect(reuse.body.data.acceptInvitation.code).toBe('invalid_invitation');
  });

  test('only owners grant the owner role, and the last owner cannot be demoted or removed', async ({ acme }) => {
    const byAdmin = await acme.as.admin.gql(
      `mutation($id: ID!) { changeUserRole(userId: $id, role: OWNER) { __typename ... on Error { code } } }`,
      { id: acme.users.viewer.id },
    );
    expect(byAdmin.body.data.changeUserRole).toEqual({ __typename: 'ForbiddenError', code: 'forbidden' });
    const demote = await acme.as.owner.gql(
      `mutation($id: ID!) { changeUserRole(userId: $id, role: ADMIN) { __typename ... on Error { code } } }`,
      { id: acme.users.owner.id },
    );
    expect(demote.body.data.changeUserRole).toEqual({ __typename: 'ConflictError', code: 'last_owner' });
    const remove = await acme.as.owner.gql(
      `mutation($id: ID!) { removeUser(userId: $id) { __typename ... on Error { code } } }`,
      { id: acme.users.owner.id },
    );
    expect(remove.body.data.removeUser).toEqual({ __typename: 'ConflictError', code: 'last_owner' });
  });

  test('removing a user ends their sessions at once', async ({ gql: h, acme }) => {
    const r = await acme.as.admin.gql(
      `mutation($id: ID!) { removeUser(userId: $id) { __typename ... on User { removedAt } } }`,
      { id: acme.users.viewer.id },
    );
    expect(r.body.data.removeUser.removedAt).toBeTruthy();
    expect((await acme.as.viewer.gql(`{ me { email } }`)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const again = await new Browser(h.url).gql(SIGN_IN, { e: acme.users.viewer.email, p: PASSWORD });
    expect(again.body.data.signIn.code).toBe('invalid_credentials');
  });
});
