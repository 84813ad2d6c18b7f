// PRODUCT: too many requests for the account → 429 rate_limited with Retry-After.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, startTestService, type TestService } from '../support/service.ts';

let t: TestDb;
let svc: TestService;
beforeAll(async () => {
  t = await createTestDb();
  svc = await startTestService(t, { env: { INTAKE_RATE_PER_MINUTE: '3' } });
});
afterAll(async () => {
  await svc.stop();
  await t.drop();
});

it('429 rate_limited with Retry-After once the account exceeds its requests per minute; other accounts unaffected', async () => {
  const a = await seedAccount(svc);
  const b = await seedAccount(svc);
  const send = (key: string) =>
    postCall(svc.url, { key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(), name: 'a.wav' } });
  for (let i = 0; i < 3; i++) expect((await send(a.key)).status).toBe(201);
  const limited = await send(a.key);
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await send(b.key)).status).toBe(201);
});
