// 20261123160000_webhook_endpoints on a database that has data: the account's single endpoint
// becomes the first of its list, with its secret, state and deliveries, receiving what it did.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { databaseBefore, type DatabaseBefore } from '../support/migrations.ts';
import { listWebhookEndpoints, revealWebhookSecret } from '../../src/webhooks/endpoints.ts';
import { loadConfig } from '../../src/config.ts';
import { sealSecret } from '../../src/crypto/secret-box.ts';
import { createLogger } from '../../src/log.ts';
import { localStorage } from '../../src/storage/local.ts';

const APP_SECRET = 'm'.repeat(40);

const MIGRATION = '20261123160000_webhook_endpoints';
let url: string;
let client: pg.Client;
let db: Db;

let before: DatabaseBefore;

beforeAll(async () => {
  before = await databaseBefore(MIGRATION, inject('adminDatabaseUrl'));
  ({ url, client } = before);
});
afterAll(async () => {
  await db?.$disconnect();
  await before?.drop();
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
