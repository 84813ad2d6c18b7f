import { describe, expect, it } from 'vitest';
import { analyzeCall, type LlmClient } from '../../src/analysis/index.ts';
import { mono, stereo, supportCall, template } from './helpers.ts';

const base = { label: 'Criterion', weight: 1 } as const;

async function result(input: Parameters<typeof analyzeCall>[0], criteria: Parameters<typeof template>[0]['criteria']) {
  return analyzeCall(input, template({ criteria }));
}

describe('phrase criteria', () => {
  const call = stereo(
    [
      [2, 6, 'agent', 'Buenos días, bienbenido a Acme.'],
      [40, 44, 'customer', 'Quiero darme de baja.'],
      [50, 55, 'agent', 'Lo entiendo. Lo entiendo perfectamente.'],
      [110, 118, 'agent', '¿Necesita algo más?'],
    ],
    120,
    'es',
  );

  it('passes when said within the window and fails when said outside it', async () => {
    const r = await result(call, [
      {
        ...base,
        key: 'greeting',
        kind: 'phrase',
        phrases: ['BIENVENIDO a Acme'],
        window: { from: 'start', seconds: 30 },
      },
      { ...base, key: 'closing', kind: 'phrase', phrases: ['necesita algo mas'], window: { from: 'end', seconds: 30 } },
      { ...base, key: 'late', kind: 'phrase', phrases: ['necesita algo mas'], window: { from: 'start', seconds: 30 } },
    ]);
    expect(r.criteria.map((c) => c.result)).toEqual(['passed', 'passed', 'failed']);
    expect(r.criteria[0]!.evidence).toEqual([
      { quote: 'bienbenido a Acme.', start: expect.any(Number), end: expect.any(Number), speaker: 'agent' },
    ]);
    expect(r.criteria[0]!.evidence[0]!.start).toBeGreaterThan(2);
    expect(r.criteria[2]!.reason).toMatch(/outside the window/);
  });

  it('requires minCount occurrences in total', async () => {
    const r = await result(call, [
      { ...base, key: 'twice', kind: 'phrase', phrases: ['lo entiendo'], minCount: 2 },
      { ...base, key: 'thrice', kind: 'phrase', phrases: ['lo entiendo'], minCount: 3 },
    ]);
    expect(r.criteria.map((c) => c.result)).toEqual(['passed', 'failed']);
    expect(r.criteria[1]!.evidence).toHaveLength(2);
    expect(r.criteria[1]!.reason).toBe('said 2 time(s), at least 3 needed');
  });

  it('only looks at the chosen speaker on stereo', async () => {
    const r = await result(call, [
      { ...base, key: 'agent', kind: 'phrase', speaker: 'agent', phrases: ['darme de baja'] },
      { ...base, key: 'customer', kind: 'phrase', speaker: 'customer', phrases: ['darme de baja'] },
    ]);
    expect(r.criteria.map((c) => c.result)).toEqual(['failed', 'passed']);
  });

  it('falls back to all speech on mono, saying so', async () => {
    const r = await result(mono([[0, 4, 'Gracias por llamar a Acme']], 10, 'es'), [
      { ...base, key: 'greeting', kind: 'phrase', speaker: 'agent', phrases: ['gracias por llamar a acme'] },
    ]);
    expect(r.criteria[0]).toMatchObject({ result: 'passed', evidence: [{ speaker: 'speaker' }] });
    expect(r.criteria[0]!.reason).toMatch(/speakers unknown/);
  });
});

describe('forbidden criteria', () => {
  it('fails with evidence of where the phrase was said', async () => {
    const call = stereo([
      [0, 3, 'agent', 'Hello, how can I help?'],
      [10, 14, 'agent', "Honestly that's not my problem."],
    ]);
    const r = await result(call, [
      { ...base, key: 'rude', kind: 'forbidden', phrases: ['not my problem', 'shut up'] },
      { ...base, key: 'swear', kind: 'forbidden', phrases: ['damn'] },
    ]);
    expect(r.criteria[0]).toMatchObject({
      result: 'failed',
      points: 0,
      max_points: 1,
      evidence: [{ quote: 'not my problem.', speaker: 'agent' }],
    });
    expect(r.criteria[0]!.evidence[0]!.start).toBeGreaterThanOrEqual(10);
    expect(r.criteria[1]).toMatchObject({ result: 'passed', points: 1, evidence: [] });
  });
});

describe('metric criteria', () => {
  const call = stereo(
    [
      [0, 10, 'agent', 'one two three four five six seven eight nine ten'],
      [9, 20, 'customer', 'talking over the agent for a while now'],
      [40, 50, 'agent', 'one two three four five six seven eight nine ten'],
    ],
    60,
  );
  const metric = (key: string, rest: Record<string, unknown>) =>
    ({ ...base, key, kind: 'metric', ...rest }) as Parameters<typeof template>[0]['criteria'][number];

  it('compares each metric against its threshold', async () => {
    const r = await result(call, [
      metric('talk', { metric: 'talk_ratio', op: 'between', min: 0.5, max: 0.7 }), // 20/31 ≈ 0.645
      metric('customer_share', { metric: 'talk_ratio', speaker: 'customer', op: 'gte', value: 0.5 }), // ≈ 0.355
      metric('silence', { metric: 'longest_silence', op: 'lte', value: 15 }), // 20 s gap
      metric('silence_ratio', { metric: 'silence_ratio', op: 'lt', value: 0.5 }), // 30/60
      metric('interruptions', { metric: 'interruptions', op: 'lte', value: 0 }), // customer at 9 s
      metric('agent_interruptions', { metric: 'interruptions', speaker: 'agent', op: 'lte', value: 0 }),
      metric('pace', { metric: 'words_per_minute', op: 'between', min: 50, max: 180 }), // 60
      metric('duration', { metric: 'duration', op: 'gt', value: 30 }),
    ]);
    expect(Object.fromEntries(r.criteria.map((c) => [c.key, c.result]))).toEqual({
      talk: 'passed',
      customer_share: 'failed',
      silence: 'failed',
      silence_ratio: 'failed',
      interruptions: 'failed',
      agent_interruptions: 'passed',
      pace: 'passed',
      duration: 'passed',
    });
    expect(r.criteria[0]!.reason).toBe('talk ratio 64.5%, must be between 50% and 70%');
    expect(r.criteria[2]!.reason).toBe('longest silence 20 s, must be at most 15 s');
  });

  it('is na on mono for talk ratio and interruptions, measured for the rest', async () => {
    const r = await result(mono([[0, 30, 'one two three four five six seven eight nine ten']], 60), [
      metric('talk', { metric: 'talk_ratio', op: 'lt', value: 0.7 }),
      metric('interruptions', { metric: 'interruptions', op: 'lte', value: 2 }),
      metric('pace', { metric: 'words_per_minute', speaker: 'agent', op: 'lt', value: 100 }),
      metric('silence', { metric: 'silence_ratio', op: 'lte', value: 0.5 }),
    ]);
    expect(r.criteria.map((c) => [c.result, c.max_points])).toEqual([
      ['na', 0],
      ['na', 0],
      ['passed', 1],
      ['passed', 1],
    ]);
    expect(r.criteria[0]!.reason).toBe('talk ratio cannot be measured on a mono recording (speakers unknown)');
  });
});

describe('llm criteria without a model', () => {
  it('are na with a reason', async () => {
    const r = await result(supportCall, [{ ...base, key: 'resolved', kind: 'llm', question: 'Was it resolved?' }]);
    expect(r.criteria[0]).toMatchObject({
      result: 'na',
      points: 0,
      max_points: 0,
      reason: 'no language model configured',
    });
    expect(r.score).toBeNull();
  });

  it('use the answers of a configured client', async () => {
    const llm: LlmClient = {
      answerCriteria: async (_transcript, questions) => [
        { key: questions[0]!.key, answer: 'yes', quote: 'I have requested the refund', reason: 'Refund requested.' },
        { key: questions[1]!.key, answer: 'unknown', reason: 'Not discussed.' },
      ],
      chooseTopicAndSummarize: async () => ({ topic: 'billing', summary: 'Duplicate charge refunded.' }),
    };
    const r = await analyzeCall(
      supportCall,
      template({
        criteria: [
          { ...base, key: 'resolved', kind: 'llm', question: 'Was the issue resolved?' },
          { ...base, key: 'upsell', kind: 'llm', question: 'Did the agent offer a new plan?' },
        ],
        topics: [
          { key: 'sales', label: 'Sales', phrases: ['new plan'] },
          { key: 'billing', label: 'Billing', phrases: ['invoice'] },
        ],
      }),
      { llm },
    );
    expect(r.criteria[0]).toMatchObject({
      result: 'passed',
      reason: 'Refund requested.',
      evidence: [{ quote: 'I have requested the refund', start: 24.5, speaker: 'agent' }],
    });
    expect(r.criteria[1]).toMatchObject({ result: 'na', reason: 'the language model could not tell: Not discussed.' });
    expect(r).toMatchObject({
      score: 100,
      topic: 'billing',
      topic_label: 'Billing',
      summary: 'Duplicate charge refunded.',
    });
  });

  it('fall back to na and local topic/summary when the client throws', async () => {
    const llm: LlmClient = {
      answerCriteria: async () => {
        throw new Error('boom');
      },
      chooseTopicAndSummarize: async () => {
        throw new Error('boom');
      },
    };
    const r = await analyzeCall(
      supportCall,
      template({
        criteria: [{ ...base, key: 'resolved', kind: 'llm', question: 'Resolved?' }],
        topics: [{ key: 'billing', label: 'Billing', phrases: ['invoice', 'refund'] }],
      }),
      { llm },
    );
    expect(r.criteria[0]).toMatchObject({ result: 'na', reason: 'language model unavailable: boom' });
    expect(r.topic).toBe('billing');
    expect(r.summary).not.toBe('');
  });
});

describe('score', () => {
  const said = { kind: 'phrase' as const, phrases: ['thank you for calling'] };
  const notSaid = { kind: 'phrase' as const, phrases: ['supercalifragilistic'] };

  it('weights points: 3 + 2(failed) + 5 → 80', async () => {
    const r = await result(supportCall, [
      { ...said, key: 'a', label: 'A', weight: 3 },
      { ...notSaid, key: 'b', label: 'B', weight: 2 },
      { ...said, key: 'c', label: 'C', weight: 5 },
    ]);
    expect(r.criteria.map((c) => [c.points, c.max_points])).toEqual([
      [3, 3],
      [0, 2],
      [5, 5],
    ]);
    expect(r.score).toBe(80);
  });

  it('excludes na criteria and rounds to one decimal', async () => {
    const r = await result(supportCall, [
      { ...said, key: 'a', label: 'A', weight: 1 },
      { ...notSaid, key: 'b', label: 'B', weight: 2 },
      { key: 'c', label: 'C', weight: 10, kind: 'llm', question: 'Resolved?' },
    ]);
    expect(r.criteria[2]!.result).toBe('na');
    expect(r.score).toBe(33.3);
  });

  it('is 0 when a critical criterion fails', async () => {
    const r = await result(supportCall, [
      { ...said, key: 'a', label: 'A', weight: 10 },
      { ...notSaid, key: 'b', label: 'B', weight: 1, critical: true },
    ]);
    expect(r.score).toBe(0);
  });

  it('is null when every criterion is na', async () => {
    const r = await result(mono([[0, 5, 'hello']]), [
      { key: 'talk', label: 'Talk', weight: 2, kind: 'metric', metric: 'talk_ratio', op: 'lt', value: 0.6 },
    ]);
    expect(r.score).toBeNull();
  });
});

describe('topic', () => {
  const topics = [
    { key: 'sales', label: 'Sales', phrases: ['new plan', 'upgrade'] },
    { key: 'billing', label: 'Billing', phrases: ['invoice', 'refund', 'charged'] },
    { key: 'orders', label: 'Orders', phrases: ['charge'] },
  ];
  const criteria = [{ ...base, key: 'x', kind: 'forbidden' as const, phrases: ['damn'] }];

  it('is the topic whose phrases are said most', async () => {
    const r = await analyzeCall(supportCall, template({ criteria: [...criteria], topics }));
    expect(r).toMatchObject({ topic: 'billing', topic_label: 'Billing' });
  });

  it('goes to the first topic on a tie and is null when nothing matches', async () => {
    const tie = stereo([[0, 5, 'customer', 'I want to upgrade, and about my invoice']]);
    expect((await analyzeCall(tie, template({ criteria: [...criteria], topics }))).topic).toBe('sales');
    const none = stereo([[0, 5, 'customer', 'Hello there']]);
    expect(await analyzeCall(none, template({ criteria: [...criteria], topics }))).toMatchObject({
      topic: null,
      topic_label: null,
    });
  });
});

describe('extractive summary', () => {
  it('picks content sentences in time order, prefixed by speaker', async () => {
    const r = await analyzeCall(
      supportCall,
      template({ criteria: [{ ...base, key: 'x', kind: 'forbidden', phrases: ['damn'] }] }),
    );
    const lines = r.summary.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(r.summary).toContain('Customer: Hi, I was charged twice on my last invoice and I need a refund.');
    expect(r.summary).toMatch(/Agent: .*duplicate charge/);
    // Pleasantries carry no content.
    expect(r.summary).not.toContain('Great, thanks a lot.');
    expect(r.summary).not.toContain('Bye');
  });

  it('uses Spanish stopwords and labels', async () => {
    const call = stereo(
      [
        [0, 3, 'agent', 'Hola, buenos días.'],
        [3, 9, 'customer', 'Me han cobrado dos veces la factura de la luz de marzo.'],
        [9, 14, 'agent', 'Veo el cobro duplicado en la factura de marzo y tramito la devolución.'],
        [14, 16, 'customer', 'Vale, muchas gracias.'],
      ],
      16,
      'es',
    );
    const r = await analyzeCall(
      call,
      template({ criteria: [{ ...base, key: 'x', kind: 'forbidden', phrases: ['joder'] }] }),
    );
    expect(r.summary).toBe(
      'Cliente: Me han cobrado dos veces la factura de la luz de marzo.\nAgente: Veo el cobro duplicado en la factura de marzo y tramito la devolución.',
    );
  });

  it("keeps the customer's own words even when the agent says more", async () => {
    const call = stereo(
      [
        [0, 3, 'agent', 'Good morning, Acme billing department.'],
        [3, 8, 'customer', 'My internet router stopped working after the storm.'],
        [8, 14, 'agent', 'I checked the invoice, the invoice total and the invoice payment on your account.'],
        [14, 20, 'agent', 'The invoice payment is registered and the invoice total matches the account.'],
        [20, 26, 'agent', 'Your account invoice will show the payment on the next invoice total as well.'],
      ],
      26,
      'en',
    );
    const r = await analyzeCall(
      call,
      template({ criteria: [{ ...base, key: 'x', kind: 'forbidden', phrases: ['damn'] }] }),
    );
    expect(r.summary).toContain('Customer: My internet router stopped working after the storm.');
  });

  it('is empty without speech', async () => {
    const r = await analyzeCall(
      stereo([], 30),
      template({ criteria: [{ ...base, key: 'x', kind: 'forbidden', phrases: ['damn'] }] }),
    );
    expect(r.summary).toBe('');
  });
});

describe('reasons as codes, for apps that speak other languages', () => {
  it('gives every outcome a stable code with its parameters beside the English reason', async () => {
    const call = stereo([[2, 6, 'agent', 'Hello and thank you for calling.']], 60, 'en');
    const r = await result(call, [
      { ...base, key: 'said', kind: 'phrase', phrases: ['thank you for calling'] },
      { ...base, key: 'missing', kind: 'phrase', phrases: ['goodbye'], window: { from: 'end', seconds: 20 } },
      // Said at 0:02, the window is the first second: what was expected is named beside what was heard.
      {
        ...base,
        key: 'late',
        kind: 'phrase',
        phrases: ['thank you for calling'],
        window: { from: 'start', seconds: 1 },
      },
      { ...base, key: 'clean', kind: 'forbidden', phrases: ['stupid'] },
      { ...base, key: 'pace', kind: 'metric', metric: 'duration', op: 'lte', value: 30 },
      { ...base, key: 'resolved', kind: 'llm', question: 'Was the issue resolved?' },
    ]);
    const byKey = Object.fromEntries(r.criteria.map((c) => [c.key, { code: c.reason_code, params: c.reason_params }]));
    expect(byKey).toEqual({
      said: {
        code: 'phrase_said',
        params: { quote: expect.stringMatching(/thank you for calling/i), at: '00:03', count: 1, mono: 0 },
      },
      missing: { code: 'phrase_missing', params: { phrases: '"goodbye"', from: 'end', seconds: 20, mono: 0 } },
      late: {
        code: 'phrase_outside_window',
        params: {
          quote: expect.stringMatching(/thank you for calling/i),
          at: '00:03',
          phrases: '"thank you for calling"',
          from: 'start',
          seconds: 1,
          mono: 0,
        },
      },
      clean: { code: 'forbidden_none', params: { mono: 0 } },
      pace: {
        code: 'metric_lte',
        params: { metric: 'duration', unit: 'seconds', value: 60, threshold: 30 },
      },
      resolved: { code: 'llm_not_configured', params: {} },
    });
  });
});
