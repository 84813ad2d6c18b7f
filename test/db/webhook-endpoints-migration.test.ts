// 20261123160000_webhook_endpoints on a database that has data: the account's single endpoint
// becomes the first of its list, with its secret, state and deliveries, receiving what it did.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { withDatabase } from '../../src/db/embedded.ts';
import { listWebhookEndpoints, revealWebhookSecret } from '../../src/webhooks/endpoints.ts';
import { loadConfig } from '../../src/config.ts';
import { sealSecret } from '../../src/crypto/secret-box.ts';
import { createLogger } from '../../src/log.ts';
import { localStorage } from '../../src/storage/local.ts';

const APP_SECRET = 'm'.repeat(40);

const MIGRATION = '20261123160000_webhook_endpoints';
const dir = path.resolve(import.meta.dirname, '../../prisma/migrations');
const name = `escucha_t_mig_${randomBytes(4).toString('hex')}`;
let admin: pg.Client;
let url: string;
let client: pg.Client;
let db: Db;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  url = withDatabase(inject('adminDatabaseUrl'), name);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The database as it was before this migration, recorded the way migrate() records it.
  await client.query(`CREATE TABLE _prisma_migrations (
      id varchar(36) PRIMARY KEY NOT NULL, checksum varchar(64) NOT NULL, finished_at timestamptz,
      migration_name varchar(255) NOT NULL, logs text, rolled_back_at timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(), applied_steps_count integer NOT NULL DEFAULT 0)`);
  for (const m of readdirSync(dir)
    .filter((d) => d < MIGRATION)
    .sort()) {
    const sql = readFileSync(path.join(dir, m, 'migration.sql'), 'utf8');
    await client.query(sql);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES (gen_random_uuid(), $1, $2, now(), 1)`,
      [createHash('sha256').update(sql).digest('hex'), m],
    );
  }
});
afterAll(async () => {
  await db?.$disconnect();
  await client?.end();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe(`migration ${MIGRATION}`, () => {
  it("turns the account's single endpoint into the first of its list, unchanged", async () => {
    const [{ id: accountId }] = (
      await client.query(`INSERT INTO accounts (id, name) VALUES (gen_random_uuid(), 'Acme') RETURNING id`)
    ).rows;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const [{ id: endpointId }] = (
      await client.query(
        `INSERT INTO webhook_endpoints (id, account_id, url, secret_encrypted, enabled, disabled_reason)
         VALUES (gen_random_uuid(), $1, 'https://old.example/hooks', $2, true, NULL) RETURNING id`,
        [accountId, sealSecret(APP_SECRET, secret, accountId)],
      )
    ).rows;
    await client.query(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, payload, status)
       VALUES (gen_random_uuid(), $1, $2, 'msg_1', 'call.analyzed', '{}', 'failed')`,
      [accountId, endpointId],
    );

    await migrate(url);
    db = createDb(url, { max: 2 });
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: url, APP_SECRET });
    const app = { config, db, log: createLogger('silent'), storage: localStorage(config.storageDir) };
    expect(await listWebhookEndpoints(app, accountId)).toEqual([
      expect.objectContaining({
        id: endpointId,
        url: 'https://old.example/hooks',
        enabled: true,
        eventTypes: ['call.analyzed'],
        campaignId: null,
        previousSecretExpiresAt: null,
        failingSince: null,
      }),
    ]);
    expect(await revealWebhookSecret(app, accountId)).toBe(secret);
    expect(await db.webhookDelivery.count({ where: { endpointId } })).toBe(1);
  });
});
