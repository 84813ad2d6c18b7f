// Sentiment (issue 14) through the analysis worker and the GraphQL API: a call whose customer starts
// angry and ends thankful is analyzed, and the app reads a rising trend, a label per transcript line
// and the "ends no worse than they started" criterion passed; the reports count the customer as ending better.
import type { JobHelpers } from 'graphile-worker';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { createAnalyzeTask } from '../../workers/analyze.ts';
import { describe, expect, test } from '../support/harness.ts';
import { Browser, PASSWORD } from './support.ts';

const helpers = {
  logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
  job: { attempts: 1, max_attempts: 3 },
} as unknown as JobHelpers;

const SEGMENTS = [
  { start: 0, end: 3, speaker: 'agent', text: 'Buenos días, le atiende Laura, ¿en qué puedo ayudarle?', channel: 0 },
  {
    start: 3.5,
    end: 8,
    speaker: 'customer',
    text: 'Es la tercera vez que llamo, estoy harto, no funciona nada.',
    channel: 1,
  },
  { start: 8.5, end: 12, speaker: 'agent', text: 'Lo siento mucho, déjeme revisar la línea.', channel: 0 },
  { start: 12.5, end: 15, speaker: 'customer', text: 'Vale, espero.', channel: 1 },
  { start: 15.5, end: 19, speaker: 'agent', text: 'Ya he reiniciado la línea, pruebe ahora.', channel: 0 },
  { start: 19.5, end: 23, speaker: 'customer', text: 'Ahora funciona perfectamente, muchísimas gracias.', channel: 1 },
];

describe('call sentiment in the API', () => {
  test('an angry start and a thankful end read as a rising customer trend', async ({ service, seed }) => {
    const s = await seed();
    const db = service.app.db;
    const template = await createTemplate(db, s.account.id, {
      name: 'Soporte',
      definition: {
        version: 1,
        language: 'es',
        criteria: [
          {
            key: 'acaba_mejor',
            label: 'El cliente no acaba peor de lo que empezó',
            kind: 'metric',
            metric: 'customer_sentiment_trend',
            op: 'gte',
            value: 0,
            weight: 1,
          },
        ],
      },
    });
    await setDefaultTemplate(db, s.account.id, template.id);
    const call = await db.call.create({
      data: {
        accountId: s.account.id,
        agentId: s.agents[0]!.id,
        source: 'api',
        status: 'analyzing',
        startedAt: new Date(),
        fileName: 'c.wav',
        fileSize: 1000n,
        fileSha256: '7'.padStart(64, '0'),
        contentType: 'audio/wav',
        storageKey: 'k/sentiment',
        reservedMinutes: 1,
        period: '2026-11',
        channels: 2,
        durationSeconds: 23,
        language: 'es',
        segments: SEGMENTS,
      },
    });
    await createAnalyzeTask(service.app, null)({ callId: call.id }, helpers);

    const email = `analyst-${s.account.id.slice(0, 8)}@example.com`;
    await db.user.create({
      data: {
        accountId: s.account.id,
        email,
        name: 'Analyst',
        role: 'analyst',
        passwordHash: await hashPassword(PASSWORD),
      },
    });
    const browser = new Browser(`${service.url}/graphql`);
    await browser.signIn(email, PASSWORD);
    const res = await browser.gql(
      `query($id: ID!) { call(id: $id) { status score criteria { key result }
         sentiment { customerTrend customer { label score } agent { label score } overall { label } segments { label score } } } }`,
      { id: call.id },
    );
    expect(res.body.errors).toBeUndefined();
    const got = res.body.data.call;
    expect(got.status).toBe('ANALYZED');
    expect(got.criteria).toEqual([{ key: 'acaba_mejor', result: 'PASSED' }]);
    expect(got.score).toBe(100);
    expect(got.sentiment.customerTrend).toBeGreaterThan(0.5);
    expect(got.sentiment.segments.map((x: { label: string }) => x.label)).toEqual([
      expect.any(String),
      'NEGATIVE',
      expect.any(String),
      expect.any(String),
      expect.any(String),
      'POSITIVE',
    ]);
    for (const x of got.sentiment.segments) {
      expect(x.score).toBeGreaterThanOrEqual(-1);
      expect(x.score).toBeLessThanOrEqual(1);
    }

    // The columns CSV and reports read agree with the JSON.
    const row = await db.call.findUniqueOrThrow({ where: { id: call.id } });
    expect(row.customerSentiment).toBe(got.sentiment.customer.score);
    expect(row.customerSentimentTrend).toBe(got.sentiment.customerTrend);

    // The reports count it: the dashboard's sentiment view and the agent's row show this customer
    // ending better, with the call's own overall reading as the average.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const reports = await browser.gql(
      `query($f: ReportFilter!) {
         reportSentiment(filter: $f, interval: MONTH) { ... on ReportSentiment { rows { calls sentimentCalls averageCustomerSentiment trendCalls improved worsened improvedShare } } }
         reportAgents(filter: $f) { ... on ReportBreakdown { rows { id averageCustomerSentiment customerImprovedShare customerWorsenedShare } } } }`,
      { f: { from: day(-1), to: day(1) } },
    );
    expect(reports.body.errors).toBeUndefined();
    expect(reports.body.data.reportSentiment.rows).toEqual([
      {
        calls: 1,
        sentimentCalls: 1,
        averageCustomerSentiment: got.sentiment.customer.score,
        trendCalls: 1,
        improved: 1,
        worsened: 0,
        improvedShare: 1,
      },
    ]);
    expect(reports.body.data.reportAgents.rows).toEqual([
      {
        id: s.agents[0]!.id,
        averageCustomerSentiment: got.sentiment.customer.score,
        customerImprovedShare: 1,
        customerWorsenedShare: 0,
      },
    ]);
  });
});
