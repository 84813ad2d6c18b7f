// The integrator kit (@escucha/webhooks): signing, sample event, the JSON Schema served at
// /v1/webhooks/schema.json, and the property that every payload the sender builds validates against it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from '../support/harness.ts';
import {
  sampleCallAnalyzed,
  sampleCallReviewed,
  sampleCoachingAssigned,
  signEvent,
  WebhookEvent,
} from '@escucha/webhooks';
import {
  callAnalyzedEvent,
  callFailedEvent,
  type CallForWebhook,
  webhookDisabledEvent,
} from '../../src/webhooks/payload.ts';
import { codeBlocks, docSection } from '../support/docs.ts';

const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;

let validate: (value: unknown) => boolean;
let served: { status: number; contentType: string | null; schema: any };

test.beforeAll(async ({ service }) => {
  const res = await fetch(`${service.url}/v1/webhooks/schema.json`);
  served = { status: res.status, contentType: res.headers.get('content-type'), schema: await res.json() };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  validate = ajv.compile(served.schema);
});

describe('signEvent', () => {
  test('signs an event so the official standardwebhooks verifier accepts it, and only with that secret', () => {
    const event = sampleCallAnalyzed();
    const { id, body, headers } = signEvent(event, SECRET);
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(headers['webhook-id']).toBe(id);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(event);
    expect(() => new Webhook(OTHER).verify(body, headers)).toThrow();
  });

  test('puts one v1 signature per secret in the header, each accepted on its own', () => {
    const { body, headers } = signEvent(sampleCallAnalyzed(), [SECRET, OTHER], { id: 'msg_fixed' });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of headers['webhook-signature'].split(' ')) expect(s).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(body, headers)).toMatchObject({ type: 'call.analyzed' });
    expect(new Webhook(OTHER).verify(body, headers)).toMatchObject({ type: 'call.analyzed' });
  });
});

describe('the published JSON Schema', () => {
  test('is served at /v1/webhooks/schema.json without signing in', () => {
    expect(served.status).toBe(200);
    expect(served.contentType).toMatch(/^application\/json/);
    expect(served.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const types = served.schema.oneOf.map((s: any) => s.properties.type.const).sort();
    expect(types).toEqual([
      'call.analyzed',
      'call.failed',
      'call.reviewed',
      'coaching.assigned',
      'coaching.completed',
      'webhook.disabled',
      'webhook.test',
    ]);
  });

  test('accepts the sample event and refuses a broken one', () => {
    expect(validate(sampleCallAnalyzed())).toBe(true);
    expect(validate(sampleCallReviewed())).toBe(true);
    expect(validate(sampleCoachingAssigned())).toBe(true);
    const broken = sampleCallAnalyzed() as any;
    broken.data.score = 'eighty';
    expect(validate(broken)).toBe(false);
    delete broken.data.score;
    expect(validate(broken)).toBe(false);
    // Receivers must ignore unknown fields, so the schema allows added ones.
    expect(validate({ ...sampleCallAnalyzed(), extra: 1 })).toBe(true);
  });
});

// Arbitrary database rows as the sender loads them (select: callForWebhook), of the shapes the
// columns' schemas (src/call-columns.ts) allow.
const text = fc.string({ maxLength: 40 });
const ref = fc.record({ id: fc.uuid({ version: 4 }), name: text });
const evidence = fc.record({
  quote: text,
  start: fc.double({ noNaN: true, noDefaultInfinity: true }),
  end: fc.double({ noNaN: true, noDefaultInfinity: true }),
  speaker: fc.constantFrom('agent', 'customer', 'speaker'),
});
const criterion = fc.record({
  key: text,
  label: text,
  kind: fc.constantFrom('phrase', 'forbidden', 'metric', 'llm'),
  result: fc.constantFrom('passed', 'failed', 'na'),
  points: fc.double({ noNaN: true, noDefaultInfinity: true }),
  max_points: fc.double({ noNaN: true, noDefaultInfinity: true }),
  critical: fc.boolean(),
  evidence: fc.array(evidence, { maxLength: 3 }),
  reason: text,
});
const callRow: fc.Arbitrary<CallForWebhook> = fc.record({
  id: fc.uuid({ version: 4 }),
  externalId: fc.option(text),
  status: fc.constantFrom('analyzed', 'failed'),
  startedAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
  durationSeconds: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
  direction: fc.option(fc.constantFrom('inbound', 'outbound')),
  language: fc.option(fc.constantFrom('en', 'es', 'pt-BR')),
  detectedLanguage: fc.option(fc.constantFrom('en', 'es')),
  customerPhone: fc.option(text),
  customerName: fc.option(text),
  score: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
  coverage: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  needsReview: fc.boolean(),
  languageMismatch: fc.boolean(),
  criteria: fc.option(fc.array(criterion, { maxLength: 4 })),
  topic: fc.option(text),
  summary: fc.option(text),
  metrics: fc.option(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }))),
  agent: fc.record({ id: fc.uuid({ version: 4 }), name: text, code: fc.option(text) }),
  campaign: fc.option(ref),
  template: fc.option(ref),
  failureReason: fc.option(fc.constantFrom('no_speech', 'unreadable_audio', 'too_long')),
  failureDetail: fc.option(text),
}) as fc.Arbitrary<CallForWebhook>;
const publicUrl = fc.constantFrom(
  'https://escucha.example',
  'http://127.0.0.1:3000',
  'https://qa.acme.example/escucha',
);

describe('every payload the sender builds', () => {
  test('validates against the published schema (call.analyzed, call.failed, webhook.disabled)', () => {
    fc.assert(
      fc.property(
        callRow,
        publicUrl,
        fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }),
        (call, url, at) => {
          for (const event of [callAnalyzedEvent(call, url, at), callFailedEvent(call, url, at)]) {
            // As stored (jsonb) and sent: through JSON.
            const sent = JSON.parse(JSON.stringify(event));
            if (!validate(sent)) throw new Error(JSON.stringify({ sent, errors: (validate as any).errors }));
            expect(WebhookEvent.safeParse(sent).success).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.record({
          id: fc.uuid({ version: 4 }),
          url: fc.webUrl(),
          disabledReason: fc.option(text),
          disabledAt: fc.option(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('9000-01-01') })),
          failingSince: fc.option(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('9000-01-01') })),
        }),
        (endpoint) => {
          expect(validate(JSON.parse(JSON.stringify(webhookDisabledEvent(endpoint))))).toBe(true);
        },
      ),
    );
  });
});

describe('The docs, "Testing your receiver"', () => {
  test('show exactly the msw example that readme-example.test.ts runs', () => {
    const example = readFileSync(path.join(import.meta.dirname, 'readme-example.test.ts'), 'utf8');
    expect(codeBlocks(docSection('Testing your receiver'), 'ts')).toContain(example);
  });
});
