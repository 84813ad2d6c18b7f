// Issue 29 point 1: the process an operator starts is the one that stops. `npm run start:api` execs Node on
// the TypeScript (no wrapper in between), so npm's SIGTERM reaches the service: it drains and exits 0,
// and nothing is left answering on its port.
import { expect, test } from '../support/harness.ts';

test('SIGTERM to the `npm run start:api` process stops the service it started', async ({ serviceProcess }) => {
  const svc = await serviceProcess({ npmScript: 'start:api' });
  expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  svc.child.kill('SIGTERM');
  await svc.waitForLog((l) => l.msg === 'shutting down');
  expect(await svc.exited).toBe(0);
  const after = await fetch(`${svc.url}/healthz`).then(
    () => 'answered',
    (e) => e.cause?.code,
  );
  expect(after).toBe('ECONNREFUSED');
});
