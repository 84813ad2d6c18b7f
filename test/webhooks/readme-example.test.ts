// receiver.test.ts: an integrator's test of their Escucha webhook receiver (docs/api/webhooks.md, "Testing your receiver").
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CallAnalyzedEvent, sampleCallAnalyzed, signEvent } from 'escucha/webhooks';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const RECEIVER_URL = 'https://crm.example/webhooks/escucha';
const scores = new Map<string, number | null>();
const seen = new Set<string>();

// The receiver under test: any (Request) => Response handler (Hono, Next.js, Remix, a Worker…).
async function receiveEscucha(request: Request): Promise<Response> {
  const body = await request.text();
  let event: CallAnalyzedEvent;
  try {
    event = new Webhook(SECRET).verify(body, Object.fromEntries(request.headers)) as CallAnalyzedEvent;
  } catch {
    return new Response('invalid signature', { status: 401 });
  }
  const id = request.headers.get('webhook-id')!;
  if (seen.has(id)) return new Response(null, { status: 204 }); // a retry: already handled
  seen.add(id);
  if (event.type === 'call.analyzed') scores.set(event.data.id, event.data.score);
  return new Response(null, { status: 204 });
}

// msw routes requests for the receiver's URL to the handler: no server, no port.
const server = setupServer(http.post(RECEIVER_URL, ({ request }) => receiveEscucha(request)));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

it('stores the score of a call.analyzed event signed like Escucha signs it', async () => {
  const event = sampleCallAnalyzed({ data: { score: 92 } });
  const { body, headers } = signEvent(event, SECRET);
  const response = await fetch(RECEIVER_URL, { method: 'POST', body, headers });
  expect(response.status).toBe(204);
  expect(scores.get(event.data.id)).toBe(92);
});

it('handles a redelivery (same webhook-id) once', async () => {
  const signed = signEvent(sampleCallAnalyzed({ data: { score: 40 } }), SECRET);
  await fetch(RECEIVER_URL, { method: 'POST', body: signed.body, headers: signed.headers });
  const again = signEvent(sampleCallAnalyzed({ data: { score: 41 } }), SECRET, { id: signed.id });
  expect((await fetch(RECEIVER_URL, { method: 'POST', body: again.body, headers: again.headers })).status).toBe(204);
  expect(scores.get(sampleCallAnalyzed().data.id)).toBe(40);
});

it('rejects a body signed with another secret', async () => {
  const { body, headers } = signEvent(sampleCallAnalyzed(), 'whsec_dGhpcyBpcyBub3QgdGhlIHNlY3JldCEhISE=');
  expect((await fetch(RECEIVER_URL, { method: 'POST', body, headers })).status).toBe(401);
});
