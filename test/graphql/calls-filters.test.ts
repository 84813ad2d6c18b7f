// The calls list's newer filters through GraphQL: several agents, a topic named in two template
// languages counted as one, a failed criterion, a critical fail, the dashboard's "other topics" (its
// count equals the topics report's); and the options the list offers.
import { describe, expect } from '../support/harness.ts';
import { criterionResult as result, insertCall, seedData } from './fixtures.ts';
import { type seedAccount, type Harness, test } from './support.ts';

let h: Harness;
let acme: Awaited<ReturnType<typeof seedAccount>>;
let data: Awaited<ReturnType<typeof seedData>>;
let second: { id: string };

test.beforeAll(async ({ gql, acme: seeded }) => {
  h = gql;
  acme = seeded;
  data = await seedData(h.app.db, acme.account.id, 'Acme', acme.users.owner.id);
  const accountId = acme.account.id;
  // The same topic and criterion keys in a Spanish template, under Spanish labels.
  await h.app.db.template.create({
    data: {
      accountId,
      name: 'Soporte',
      definition: {
        version: 1,
        criteria: [{ key: 'greeting', label: 'Saluda al cliente', weight: 5, kind: 'phrase', phrases: ['hola'] }],
        topics: [{ key: 'billing', label: 'Facturación', phrases: ['factura'] }],
      },
    },
  });
  second = await h.app.db.agent.create({ data: { accountId, name: 'Second agent', nameNormalized: 'second agent' } });
  const base = { accountId, agentId: data.agent.id };
  await insertCall(h.app.db, base, {
    topic: 'Billing',
    criteria: [result('greeting', 'Greets the customer', 'failed')],
  });
  await insertCall(h.app.db, base, {
    topic: 'Facturación',
    language: 'es',
    criteria: [
      result('greeting', 'Saluda al cliente', 'passed'),
      result('no_swearing', 'Sin insultos', 'failed', true),
    ],
    score: 0,
  });
  await insertCall(h.app.db, { accountId, agentId: second.id }, { topic: 'Shipping', criteria: [] });
});

const count = async (filter: object) =>
  (await acme.as.viewer.gql(`query($f: CallFilter) { calls(filter: $f) { totalCount } }`, { f: filter })).body.data
    .calls.totalCount as number;

describe('calls list filters', () => {
  test('takes several agents, one topic across template languages, a failed criterion and critical fails', async () => {
    // seedData's own call (agent 1, topic "billing") is there too.
    expect(await count({ agentIds: [data.agent.id] })).toBe(3);
    expect(await count({ agentIds: [data.agent.id, second.id] })).toBe(4);
    // "Billing" and "Facturación" share the topic key `billing` in the account's templates.
    expect(await count({ topic: 'Billing' })).toBe(2);
    expect(await count({ topic: 'Facturación' })).toBe(2);
    expect(await count({ topic: 'Facturación', view: 'ANALYZED' })).toBe(2);
    expect(await count({ topic: 'Shipping' })).toBe(1);
    expect(await count({ failedCriterion: 'greeting' })).toBe(1);
    expect(await count({ failedCriterion: 'no_swearing' })).toBe(1);
    expect(await count({ failedCriterion: 'greeting', agentIds: [second.id] })).toBe(0);
    expect(await count({ criticalFail: true })).toBe(1);
    expect(await count({ criticalFail: true, topic: 'Billing' })).toBe(1);
  });

  test('counts as the dashboard’s “other topics”: every topic label but the named ones, no call without a topic', async () => {
    const range = { from: '2023-12-01', to: '2024-01-31' };
    const report = await acme.as.viewer.gql(
      `query($f: ReportFilter!) { reportTopics(filter: $f, interval: MONTH) { ... on ReportTopics { rows { topic calls } } } }`,
      { f: range },
    );
    const totals = new Map<string, number>();
    for (const r of report.body.data.reportTopics.rows as { topic: string; calls: number }[])
      totals.set(r.topic, (totals.get(r.topic) ?? 0) + r.calls);
    // Labels, not keys: "Billing" named leaves "Facturación" (the same key) among the others.
    const drill = { scored: true, dayFrom: range.from, dayTo: range.to, languageMismatch: false };
    for (const named of [['Billing'], ['Billing', 'Shipping'], [...totals.keys()].slice(1)]) {
      const other = [...totals].filter(([k]) => !named.includes(k)).reduce((s, [, v]) => s + v, 0);
      expect(other).toBeGreaterThan(0);
      expect(await count({ ...drill, otherTopics: named })).toBe(other);
    }
    expect(await count({ otherTopics: ['Billing', 'Shipping'] })).toBe(2);
    // A call without a topic is in no topic's bar, so not among the others either.
    await insertCall(h.app.db, { accountId: acme.account.id, agentId: second.id }, { topic: null });
    expect(await count({ otherTopics: ['Billing', 'Shipping'] })).toBe(2);
  });

  test('offers the topics merged by key, the criteria by key, and only the languages in use', async () => {
    const r = await acme.as.viewer.gql(
      `{ callFilterOptions { languages topicGroups { labels } criteria { key label } } }`,
    );
    const o = r.body.data.callFilterOptions;
    expect(o.languages.sort()).toEqual(['en', 'es']);
    expect(o.topicGroups).toContainEqual({ labels: ['Billing', 'Facturación'] });
    expect(o.topicGroups).toContainEqual({ labels: ['Shipping'] });
    expect(o.criteria.map((c: { key: string }) => c.key).sort()).toEqual(['greeting', 'no_swearing']);
  });
});
