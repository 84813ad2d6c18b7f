// Each api process keeps live sessions in memory (issue 12: no session read per request). A session
// that ends, or a user who is removed or demoted, must stop working at once on every process: the
// database announces each change (LISTEN/NOTIFY), a mutation through a process also drops its
// account's sessions there before it answers, and nothing is served from memory while the
// change feed is down.
import type { TestDb } from '../support/db.ts';
import type { TestService } from '../support/service.ts';
import { Browser, type Harness, PASSWORD, seedAccount } from '../graphql/support.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let one: TestService;
let two: TestService;
let acme: Awaited<ReturnType<typeof seedAccount>>;

const asHarness = (svc: TestService) => ({ app: svc.app, url: `${svc.url}/graphql` }) as unknown as Harness;

test.beforeAll(async ({ db, service, serviceWith }) => {
  t = db;
  [one, two] = [service, await serviceWith()];
  acme = await seedAccount(asHarness(one), 'Acme');
});

const ME = '{ me { name role } }';

/** A browser signed in on `svc` as one of Acme's users. */
async function signedIn(svc: TestService, email: string): Promise<Browser> {
  const b = new Browser(`${svc.url}/graphql`);
  await b.signIn(email, PASSWORD);
  return b;
}

async function me(b: Browser): Promise<{ name: string; role: string } | null> {
  const r = await b.gql(ME);
  return r.body.data?.me ?? null;
}

/** Asks until `done` holds; the deadline only bounds a failure (a notification takes milliseconds). */
async function eventually<T>(ask: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await ask();
    if (done(v)) return v;
    if (Date.now() - started > 5000) throw new Error(`still ${JSON.stringify(v)}`);
  }
}

async function withTriggersOff<T>(run: () => Promise<T>): Promise<T> {
  await t.sql('ALTER TABLE sessions DISABLE TRIGGER sessions_notify_changed');
  await t.sql('ALTER TABLE users DISABLE TRIGGER users_notify_session_changed');
  try {
    return await run();
  } finally {
    await t.sql('ALTER TABLE sessions ENABLE TRIGGER sessions_notify_changed');
    await t.sql('ALTER TABLE users ENABLE TRIGGER users_notify_session_changed');
  }
}

describe('session cache', () => {
  test('answers from memory, and a change to a session made anywhere reaches every process', async () => {
    const onOne = await signedIn(one, acme.users.viewer.email);
    const onTwo = await signedIn(two, acme.users.viewer.email);
    expect(await me(onOne)).not.toBeNull();
    expect(await me(onTwo)).not.toBeNull();
    const expire = () =>
      t.sql(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [acme.users.viewer.id]);

    // From memory: a change nobody announces is not seen…
    await withTriggersOff(expire);
    expect(await me(onTwo)).not.toBeNull();

    // …an announced one is, on both processes.
    await expire();
    for (const b of [onOne, onTwo])
      await eventually(
        () => me(b),
        (v) => v === null,
      );
  });

  test('refuses a session ended elsewhere (signed out, password changed) on every process', async () => {
    const onOne = await signedIn(one, acme.users.analyst.email);
    const onTwo = await signedIn(two, acme.users.analyst.email);
    expect(await me(onOne)).not.toBeNull();
    expect(await me(onTwo)).not.toBeNull();
    await t.sql('DELETE FROM sessions WHERE user_id = $1', [acme.users.analyst.id]);
    for (const b of [onOne, onTwo])
      await eventually(
        () => me(b),
        (v) => v === null,
      );
    const r = await onTwo.gql(ME);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  test('refuses a removed user at once on the process that removed them, and on the others as soon as they hear', async () => {
    const victim = await signedIn(one, acme.users.admin.email);
    const elsewhere = await signedIn(two, acme.users.admin.email);
    expect(await me(victim)).not.toBeNull();
    expect(await me(elsewhere)).not.toBeNull();
    // The owner removes the admin through process one; with the announcements off, only the
    // process's own forgetting can refuse the admin's next request there.
    await withTriggersOff(async () => {
      const r = await acme.as.owner.gql(
        'mutation($id: ID!) { removeUser(userId: $id) { __typename ... on Error { code message } } }',
        { id: acme.users.admin.id },
      );
      expect(r.body.errors).toBeUndefined();
      expect(await me(victim)).toBeNull();
    });
    // Process two hears of it through the database (a change after the triggers are back on).
    await t.sql('UPDATE users SET name = name WHERE id = $1', [acme.users.admin.id]);
    await eventually(
      () => me(elsewhere),
      (v) => v === null,
    );
  });

  test('applies a role change to the next request', async () => {
    const owner = await signedIn(two, acme.users.owner.email);
    const KEYS = '{ apiKeys { id } }';
    expect((await owner.gql(KEYS)).body.errors).toBeUndefined();
    await t.sql(`UPDATE users SET role = 'viewer' WHERE id = $1`, [acme.users.owner.id]);
    const refused = await eventually(
      () => owner.gql(KEYS),
      (r) => !!r.body.errors?.length,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await t.sql(`UPDATE users SET role = 'owner' WHERE id = $1`, [acme.users.owner.id]);
    await eventually(
      () => owner.gql(KEYS),
      (r) => !r.body.errors?.length,
    );
  });

  test('serves nothing from memory while the change feed is down', async () => {
    const b = await signedIn(one, acme.users.viewer.email);
    expect(await me(b)).not.toBeNull();
    const listeners = async () =>
      (
        await t.sql<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'escucha-%-listen'`,
        )
      ).map((r) => r.pid);
    const before = await listeners();
    expect(before).toHaveLength(2);
    await withTriggersOff(async () => {
      await t.sql('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
      // Signed out while nobody hears about it…
      await t.sql('DELETE FROM sessions WHERE user_id = $1', [acme.users.viewer.id]);
      // …and once both processes listen again (new connections), the session is read afresh.
      for (let i = 0; ; i++) {
        const now = await listeners();
        if (now.length === 2 && !now.some((pid) => before.includes(pid))) break;
        if (i > 200) throw new Error('the change feed did not come back');
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(await me(b)).toBeNull();
    });
  });
});
