// Two processes of one installation starting at the same moment with the same APP_SECRET must both
// start: the one that records the key-check value second reads it back, rather than reporting a
// mismatch (seen as a worker refusing to start beside three others in the multi-process test).
import pg from 'pg';
import { appSecretMatches, keyCheckValue } from '../../src/crypto/key-check.ts';
import type { TestDb } from '../support/db.ts';
import { expect, test } from '../support/harness.ts';

let t: TestDb;
test.beforeAll(async ({ db }) => {
  t = db;
});

test('a process starting while another records the same secret matches once that commits', async () => {
  await t.sql('DELETE FROM app_key_check');
  const first = new pg.Client({ connectionString: t.url });
  await first.connect();
  try {
    // The first process has recorded its value but not committed yet.
    await first.query('BEGIN');
    await first.query('INSERT INTO app_key_check (value) VALUES ($1)', [keyCheckValue('same-secret')]);
    const second = appSecretMatches(t.db, 'same-secret');
    // The second waits on the first's insert: it has not answered until the first commits.
    await expect
      .poll(async () => (await t.sql(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`))[0].n)
      .toBeGreaterThan(0);
    await first.query('COMMIT');
    expect(await second).toBe(true);
    // And another secret is still refused.
    expect(await appSecretMatches(t.db, 'another-secret')).toBe(false);
  } finally {
    await first.end();
  }
});
