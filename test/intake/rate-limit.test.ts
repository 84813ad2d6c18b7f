// PRODUCT: too many requests for the account → 429 rate_limited with Retry-After.
import type http from 'node:http';
import { expect, testWithService } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { multipart, rawRequest } from '../support/raw-http.ts';

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

test('every request counts, refused or not, and past the limit even a malformed one is answered 429', async ({
  service,
  seed,
}) => {
  const a = await seed();
  const notMultipart = () =>
    fetch(`${service.url}/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'text/plain' },
      body: 'not a form',
    });
  const send = () =>
    postCall(service.url, { key: a.key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(), name: 'a.wav' } });
  expect((await notMultipart()).status).toBe(400);
  // An unknown agent is refused after the body was read: counted all the same.
  const unknown = await postCall(service.url, {
    key: a.key,
    fields: { agent_code: 'NOBODY' },
    file: { blob: wavBlob(), name: 'a.wav' },
  });
  expect(unknown.status).toBe(422);
  expect((await send()).status).toBe(201);
  const limited = await notMultipart();
  expect(limited.status).toBe(429);
  expect(((await limited.json()) as any).error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await send()).status).toBe(429);
});

test('an account past its limit is answered 429 before it sends its recording', async ({ service, seed }) => {
  const a = await seed();
  const send = () =>
    postCall(service.url, { key: a.key, fields: { agent_code: 'AG-07' }, file: { blob: wavBlob(), name: 'a.wav' } });
  for (let i = 0; i < 3; i++) expect((await send()).status).toBe(201);
  expect((await send()).status).toBe(429);
  // Headers and the start of a 5 MB body, never finished: the answer comes anyway.
  const B = 'limitBoundary';
  const start = multipart(B, [{ name: 'agent_code', data: 'AG-07' }], { close: false });
  let sent: http.ClientRequest | undefined;
  const r = await rawRequest(
    `${service.url}/v1/calls`,
    {
      authorization: `Bearer ${a.key}`,
      'content-type': `multipart/form-data; boundary=${B}`,
      'content-length': 5 * 1_048_576,
    },
    (req) => {
      sent = req;
      req.write(start);
    },
  );
  sent?.destroy();
  expect(r.status).toBe(429);
  expect(r.body.error.code).toBe('rate_limited');
  expect(Number(r.body.error.message.match(/retry in (\d+) s/)?.[1])).toBeGreaterThan(0);
});
