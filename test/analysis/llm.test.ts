import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCall, createLlmClient, formatTranscript, LlmError } from '../../src/analysis/index.ts';
import { supportCall, template } from './helpers.ts';

const BASE_URL = 'https://llm.test/v1';
const config = { baseUrl: BASE_URL, apiKey: 'sk-test', model: 'gpt-test', timeoutMs: 5_000 };
const logger = pino({ level: 'silent' });

interface Captured {
  headers: Headers;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
  };
}

const server = setupServer();
let requests: Captured[] = [];

/** Stand-in for POST /chat/completions answering with the given message content in turn. */
function replyWith(...contents: (string | { status: number })[]) {
  let call = 0;
  server.use(
    http.post(`${BASE_URL}/chat/completions`, async ({ request }) => {
      requests.push({ headers: request.headers, body: (await request.json()) as Captured['body'] });
      const content = contents[Math.min(call++, contents.length - 1)]!;
      if (typeof content !== 'string')
        return HttpResponse.json({ error: { message: 'busy' } }, { status: content.status });
      return HttpResponse.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'gpt-test',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      });
    }),
  );
}

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests = [];
});
afterAll(() => server.close());

const resolvedTemplate = template({
  criteria: [
    {
      key: 'resolved',
      label: 'Resolved',
      weight: 5,
      kind: 'llm',
      question: "Did the agent resolve the customer's issue?",
    },
    { key: 'greeting', label: 'Greeting', weight: 5, kind: 'phrase', phrases: ['thank you for calling acme'] },
  ],
  topics: [
    { key: 'billing', label: 'Billing', phrases: ['invoice'] },
    { key: 'sales', label: 'Sales', phrases: ['new plan'] },
  ],
});

describe('formatTranscript', () => {
  it('writes "[mm:ss] Speaker: text" lines in time order', () => {
    expect(
      formatTranscript([
        { start: 65.4, end: 70, speaker: 'customer', text: ' Hi. ', channel: 1 },
        { start: 3, end: 5, speaker: 'agent', text: 'Hello', channel: 0 },
        { start: 3700, end: 3705, speaker: 'speaker', text: 'Still here', channel: 0 },
      ]),
    ).toBe('[00:03] Agent: Hello\n[01:05] Customer: Hi.\n[61:40] Speaker: Still here');
  });
});

describe('createLlmClient', () => {
  it('sends one OpenAI-style request for all criteria and maps the answers', async () => {
    replyWith(
      JSON.stringify({
        answers: [
          { key: 'resolved', answer: 'yes', quote: 'I have requested the refund', reason: 'The refund was requested.' },
        ],
      }),
    );
    const client = createLlmClient(config, { logger });
    const answers = await client.answerCriteria(supportCall.segments, [{ key: 'resolved', question: 'Resolved?' }]);
    expect(answers).toEqual([
      { key: 'resolved', answer: 'yes', quote: 'I have requested the refund', reason: 'The refund was requested.' },
    ]);

    expect(requests).toHaveLength(1);
    const [{ headers, body }] = requests as [Captured];
    expect(headers.get('authorization')).toBe('Bearer sk-test');
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.model).toBe('gpt-test');
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'qa_answers', strict: true },
    });
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['answers'],
    });
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1]!.content).toContain('- resolved: Resolved?');
    expect(body.messages[1]!.content).toContain(
      '[00:00] Agent: Good morning, thank you for calling Acme, my name is Laura.',
    );
  });

  it('chooses a topic among the template topics and summarizes in the call language', async () => {
    replyWith(JSON.stringify({ topic: 'billing', summary: ' El cliente pidió un reembolso. ' }));
    const client = createLlmClient(config, { logger });
    const reply = await client.chooseTopicAndSummarize(
      supportCall.segments,
      [{ key: 'billing', label: 'Billing' }],
      'es',
    );
    expect(reply).toEqual({ topic: 'billing', summary: 'El cliente pidió un reembolso.' });
    const { body } = requests[0]!;
    expect(body.response_format.json_schema.name).toBe('call_summary');
    expect(body.messages[0]!.content).toContain('"es"');
    expect(body.response_format.json_schema.schema).toMatchObject({
      properties: { topic: { enum: ['billing', null] } },
    });
  });

  it('retries on 429 and 5xx', async () => {
    replyWith({ status: 503 }, { status: 429 }, JSON.stringify({ topic: null, summary: 'ok' }));
    const client = createLlmClient({ ...config, retries: 2 }, { logger });
    await expect(client.chooseTopicAndSummarize(supportCall.segments, [], 'en')).resolves.toEqual({
      topic: null,
      summary: 'ok',
    });
    expect(requests).toHaveLength(3);
  });

  it('throws LlmError for malformed replies', async () => {
    const client = createLlmClient(config, { logger });
    replyWith('not json at all');
    await expect(
      client.answerCriteria(supportCall.segments, [{ key: 'resolved', question: 'q' }]),
    ).rejects.toBeInstanceOf(LlmError);
    replyWith(JSON.stringify({ answers: [{ key: 'resolved', answer: 'maybe' }] }));
    await expect(client.answerCriteria(supportCall.segments, [{ key: 'resolved', question: 'q' }])).rejects.toThrow(
      'reply does not match the expected format',
    );
  });
});

describe('analyzeCall with a chat model', () => {
  it('scores llm criteria and uses the model topic and summary', async () => {
    server.use(
      http.post(`${BASE_URL}/chat/completions`, async ({ request }) => {
        const body = (await request.json()) as Captured['body'];
        const content =
          body.response_format.json_schema.name === 'qa_answers'
            ? { answers: [{ key: 'resolved', answer: 'no', quote: null, reason: 'No solution was offered.' }] }
            : { topic: 'sales', summary: 'The customer asked about a refund.' };
        return HttpResponse.json({ choices: [{ message: { role: 'assistant', content: JSON.stringify(content) } }] });
      }),
    );
    const r = await analyzeCall(supportCall, resolvedTemplate, { llm: createLlmClient(config, { logger }) });
    expect(r.criteria[0]).toMatchObject({ key: 'resolved', result: 'failed', points: 0, max_points: 5, evidence: [] });
    expect(r).toMatchObject({
      score: 50,
      topic: 'sales',
      topic_label: 'Sales',
      summary: 'The customer asked about a refund.',
    });
  });

  it('marks llm criteria na on a malformed reply and falls back locally', async () => {
    replyWith('{"answers": "oops"}');
    const r = await analyzeCall(supportCall, resolvedTemplate, { llm: createLlmClient(config, { logger }) });
    expect(r.criteria[0]).toMatchObject({
      result: 'na',
      max_points: 0,
      reason: 'language model unavailable: reply does not match the expected format',
    });
    expect(r.score).toBe(100);
    expect(r.topic).toBe('billing');
    expect(r.summary).toContain('Customer:');
  });
});
