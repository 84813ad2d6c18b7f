import { describe, expect } from '../support/harness.ts';
import {
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  removeWebhookEndpoint,
  revealWebhookSecret,
  rotateWebhookSecret,
  setWebhookEndpoint,
} from '../../src/webhooks/endpoints.ts';
import type { TestDb } from '../support/db.ts';
import { makeApp, test } from './helpers.ts';

let t: TestDb;
test.beforeAll(({ db }) => {
  t = db;
});

const newAccount = async () => (await t.db.account.create({ data: { name: 'Acme' } })).id;

describe('webhook endpoints', () => {
  test('creates an endpoint with a whsec_ secret stored encrypted, and reveals it again', async ({ hooks: app }) => {
    const accountId = await newAccount();
    const { endpoint, secret } = await setWebhookEndpoint(app, accountId, 'http://127.0.0.1:9/hooks');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({ accountId, url: 'http://127.0.0.1:9/hooks', enabled: true });
    expect(endpoint).not.toHaveProperty('secretEncrypted');

    const [row] = await t.sql('SELECT secret_encrypted FROM webhook_endpoints WHERE account_id = $1', [accountId]);
    expect(row.secret_encrypted).toMatch(/^v1\./);
    expect(row.secret_encrypted).not.toContain(secret!.slice('whsec_'.length));
    expect(await revealWebhookSecret(app, accountId)).toBe(secret);
  });

  test('changing the URL keeps the secret and enables the endpoint again', async ({ hooks: app }) => {
    const accountId = await newAccount();
    const { secret } = await setWebhookEndpoint(app, accountId, 'http://127.0.0.1:9/a');
    await disableWebhookEndpoint(app, accountId, 'paused');
    expect(await getWebhookEndpoint(app, accountId)).toMatchObject({ enabled: false, disabledReason: 'paused' });

    const updated = await setWebhookEndpoint(app, accountId, 'http://127.0.0.1:9/b');
    expect(updated.secret).toBeNull();
    expect(updated.endpoint).toMatchObject({ url: 'http://127.0.0.1:9/b', enabled: true, disabledReason: null });
    expect(await revealWebhookSecret(app, accountId)).toBe(secret);
  });

  test('rotates the secret, enables, and removes', async ({ hooks: app }) => {
    const accountId = await newAccount();
    const { secret } = await setWebhookEndpoint(app, accountId, 'http://127.0.0.1:9/a');
    const rotated = await rotateWebhookSecret(app, accountId);
    expect(rotated.secret).not.toBe(secret);
    expect(await revealWebhookSecret(app, accountId)).toBe(rotated.secret);

    await disableWebhookEndpoint(app, accountId);
    expect(await enableWebhookEndpoint(app, accountId)).toMatchObject({ enabled: true, disabledReason: null });
    await removeWebhookEndpoint(app, accountId);
    expect(await getWebhookEndpoint(app, accountId)).toBeNull();
    await expect(rotateWebhookSecret(app, accountId)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('refuses a private address at save time unless allowed, and stores nothing', async () => {
    const app = makeApp(t, { allowPrivate: false });
    const accountId = await newAccount();
    await expect(setWebhookEndpoint(app, accountId, 'https://192.168.1.1/hooks')).rejects.toMatchObject({
      code: 'private_address',
    });
    await expect(setWebhookEndpoint(app, accountId, 'https://localhost/hooks')).rejects.toMatchObject({
      code: 'private_address',
    });
    await expect(setWebhookEndpoint(app, accountId, 'ftp://x.example/')).rejects.toMatchObject({
      code: 'invalid_webhook_url',
    });
    expect(await getWebhookEndpoint(app, accountId)).toBeNull();

    const { endpoint } = await setWebhookEndpoint(app, accountId, 'https://93.184.216.34/hooks');
    expect(endpoint.url).toBe('https://93.184.216.34/hooks');
  });
});
