// Sentiment (issue 14) through the analysis worker and the GraphQL API: a call whose customer starts
// angry and ends thankful is analyzed, and the app reads a rising trend, a label per transcript line
// and the "ends no worse than they started" criterion passed; the reports count the customer as ending better.
// Issue 27: a rude agent behind a scripted greeting reads negative overall, and an agent's apologies
// read neutral and leave their overall reading alone.
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
  // Issue 27: the agent of a rude call read "Positive +0.20" on its page — the scripted greeting and
  // "not my problem" read as positive, and the agent's apologies elsewhere counted against them.
  test('a rude agent reads negative overall; an apologising agent is not marked down', async ({ service, seed }) => {
    const s = await seed();
    const db = service.app.db;
    // Any template: the analysis (and with it the sentiment) runs only where one applies.
    const template = await createTemplate(db, s.account.id, {
      name: 'Care',
      definition: {
        version: 1,
        language: 'en',
        criteria: [{ key: 'greets', label: 'Greets', kind: 'phrase', phrases: ['good morning'], weight: 1 }],
      },
    });
    await setDefaultTemplate(db, s.account.id, template.id);
    const line = (start: number, speaker: 'agent' | 'customer', text: string) => ({
      start,
      end: start + 3,
      speaker,
      text,
      channel: speaker === 'agent' ? 0 : 1,
    });
    const calls = {
      rude: [
        line(0, 'agent', 'Good morning, thank you for calling Acme, this is Mark.'),
        line(4, 'customer', 'My internet has been down since Monday.'),
        line(8, 'agent', 'What is your account number?'),
        line(12, 'customer', 'Four five two one eight.'),
        line(16, 'agent', "That's not my problem."),
        line(20, 'customer', 'Can you at least give me a credit?'),
        line(24, 'agent', "Calm down. There's nothing I can do about it today."),
        line(28, 'customer', 'I want to speak to a manager.'),
        line(32, 'agent', 'Thanks for calling, goodbye.'),
      ],
      caring: [
        line(0, 'agent', 'Good morning, thank you for calling Acme, this is Laura.'),
        line(4, 'customer', 'My internet has been down since Monday, this is the third time I call.'),
        line(8, 'agent', "I'm so sorry to hear that, I understand how frustrating that must be."),
        line(12, 'agent', 'I apologize for the inconvenience.'),
        line(16, 'agent', "I've reset the line, it should work perfectly now."),
        line(20, 'customer', 'It works, thank you so much.'),
      ],
    };
    const ids: Record<string, string> = {};
    for (const [name, segments] of Object.entries(calls)) {
      const call = await db.call.create({
        data: {
          accountId: s.account.id,
          agentId: s.agents[0]!.id,
          source: 'api',
          status: 'analyzing',
          startedAt: new Date(),
          fileName: `${name}.wav`,
          fileSize: 1000n,
          fileSha256: (name === 'rude' ? '8' : '9').padStart(64, '0'),
          contentType: 'audio/wav',
          storageKey: `k/${name}`,
          reservedMinutes: 1,
          period: '2026-11',
          channels: 2,
          durationSeconds: 36,
          language: 'en',
          segments,
        },
      });
      await createAnalyzeTask(service.app, null)({ callId: call.id }, helpers);
      ids[name] = call.id;
    }

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
    const read = async (id: string) => {
      const res = await browser.gql(
        `query($id: ID!) { call(id: $id) { sentiment { agent { label score } customer { label } overall { label } segments { label } } } }`,
        { id },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.call.sentiment;
    };

    const rude = await read(ids.rude!);
    expect(rude.agent.label).toBe('NEGATIVE');
    expect(rude.overall.label).toBe('NEGATIVE');
    expect(rude.segments.map((x: { label: string }) => x.label)).toEqual([
      'NEUTRAL', // the greeting is a ritual, not a mood
      'NEGATIVE',
      'NEUTRAL',
      'NEUTRAL',
      'NEGATIVE', // "not my problem"
      expect.any(String),
      'NEGATIVE', // "calm down, nothing I can do"
      'NEGATIVE', // a manager, please
      'NEUTRAL',
    ]);

    const caring = await read(ids.caring!);
    expect(caring.segments[2].label).toBe('NEUTRAL');
    expect(caring.segments[3].label).toBe('NEUTRAL');
    // The agent's reading is their one substantive line's: the apologies and greeting leave it alone.
    expect(caring.agent.label).toBe('POSITIVE');
    const stored = await db.call.findUniqueOrThrow({ where: { id: ids.caring! } });
    const perSegment = (stored.sentiment as { segments: { score: number }[] }).segments;
    expect(caring.agent.score).toBe(perSegment[4]!.score);
  });
});
