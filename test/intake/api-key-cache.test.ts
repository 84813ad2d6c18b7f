// API keys are cached in each api process and a revocation reaches every process at once
// (LISTEN/NOTIFY), so a revoked key stops working everywhere without waiting for a timeout.
import { revokeApiKey } from '../../src/accounts/api-keys.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';

const send = (svc: TestService, key: string) =>
  postCall(svc.url, { key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(4096), name: 'call.wav' } });

/** Polls until the service refuses the key; the deadline only bounds a failure. */
async function refusedWithin(svc: TestService, key: string, ms: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const r = await send(svc, key);
    if (r.status === 401) return Date.now() - started;
    expect(r.status).toBe(201);
    if (Date.now() - started > ms) throw new Error(`the revoked key still worked after ${ms} ms`);
  }
}

/** A second api process beside `service`, for the whole file: each test counts both processes' listeners. */
let two: TestService;
test.beforeAll(async ({ serviceWith }) => {
  two = await serviceWith();
});

describe('API key cache', () => {
  test('serves keys from memory, and a key revoked through one process is refused by the other at once', async ({
    db: t,
    service: one,
    seed,
  }) => {
    const { key, account } = await seed();
    // Both processes have the key in memory now.
    expect((await send(one, key)).status).toBe(201);
    expect((await send(two, key)).status).toBe(201);

    // Served from memory: a change that bypasses the change feed (the trigger is off) is not seen.
    await t.sql('ALTER TABLE api_keys DISABLE TRIGGER api_keys_notify_changed');
    await t.sql('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [account.id]);
    expect((await send(two, key)).status).toBe(201);
    await t.sql('UPDATE api_keys SET revoked_at = NULL WHERE account_id = $1', [account.id]);
    await t.sql('ALTER TABLE api_keys ENABLE TRIGGER api_keys_notify_changed');

    // The real revocation (what `apikey:revoke` and the app do) goes through the feed.
    await revokeApiKey(two.app.db, account.id, key.slice(0, 12));
    expect(await refusedWithin(one, key, 2000)).toBeLessThan(2000);
    // The process that revoked it hears the change through the same feed (its own LISTEN), not sooner:
    // under load its notification may come a few milliseconds after the other's.
    expect(await refusedWithin(two, key, 2000)).toBeLessThan(2000);
  });

  test('forgets every key when the change feed drops, so changes made meanwhile are seen', async ({
    db: t,
    service: one,
    seed,
  }) => {
    const { key, account } = await seed();
    expect((await send(one, key)).status).toBe(201);
    const listeners = () =>
      t.sql<{ pid: number }>(
        // Each process's one LISTEN connection, shared by all its change feeds.
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'escucha-%-listen'`,
      );
    const before = (await listeners()).map((r) => r.pid);
    expect(before).toHaveLength(2);
    await t.sql('ALTER TABLE api_keys DISABLE TRIGGER api_keys_notify_changed');
    try {
      // The feed goes down and a key is revoked while nobody hears about it.
      await t.sql('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
      await t.sql('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [account.id]);
      // Both processes listen again (new connections)…
      for (let i = 0; ; i++) {
        const now = (await listeners()).map((r) => r.pid);
        if (now.length === 2 && !now.some((pid) => before.includes(pid))) break;
        if (i > 200) throw new Error('the change feed did not come back');
        await new Promise((r) => setTimeout(r, 25));
      }
      // …and the key is read afresh: refused.
      expect((await send(one, key)).status).toBe(401);
      expect((await send(two, key)).status).toBe(401);
    } finally {
      await t.sql('ALTER TABLE api_keys ENABLE TRIGGER api_keys_notify_changed');
    }
  });
});
