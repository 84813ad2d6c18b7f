// prisma/sql/definitions.sql is the readable current definition of every SQL function and trigger: it
// must be what the migrations produce, so a migration that changes a rule comes with the regenerated file.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sqlDefinitions } from '../../src/db/sql-definitions.ts';
import type { TestDb } from '../support/db.ts';
import { expect, test } from '../support/harness.ts';

let t: TestDb;
test.beforeAll(async ({ db }) => {
  t = db;
});

test('prisma/sql/definitions.sql is what the migrations define (npm run db:definitions regenerates it)', async () => {
  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  try {
    const current = await sqlDefinitions(client);
    expect(current).toContain('CREATE OR REPLACE FUNCTION public.');
    expect(readFileSync(new URL('../../prisma/sql/definitions.sql', import.meta.url), 'utf8')).toBe(current);
  } finally {
    await client.end();
  }
});
