// PRODUCT: too many requests for the account → 429 rate_limited with Retry-After.
import { expect, testWithService } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';

const test = testWithService({ env: { INTAKE_RATE_PER_MINUTE: '3' } });

test('429 rate_limited with Retry-After once the account exceeds its requests per minute; other accounts unaffected', async ({
  service,
  seed,
}) => {
  const a = await seed();
  const b = await seed();
  const send = (key: string) =>
    postCall(service.url, { key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(), name: 'a.wav' } });
  for (let i = 0; i < 3; i++) expect((await send(a.key)).status).toBe(201);
  const limited = await send(a.key);
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await send(b.key)).status).toBe(201);
});
