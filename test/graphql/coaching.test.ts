// Coaching (issue 31.3) through the real service: an analyst assigns an item from a failed
// criterion, pinned to moments, with a due day; only the call's agent sees and acknowledges it;
// a manager completes it with a note (once); the report counts open, overdue and done per agent;
// each change is audited and announced to the endpoints that opt in, in the published schema.
import { WebhookEvent } from '../../src/webhooks/kit/events.ts';
import { describe, expect, test } from '../support/harness.ts';
import { ANA_AND_BRUNO, criterionResult, insertCall } from './fixtures.ts';
import { type Browser, signedInUser } from './support.ts';

const R = `__typename ... on Error { code message }`;
const ITEM = `id status overdue improve moments dueOn criteria { key label result } agent { name } call { id }
  assignedByName acknowledgedAt completedByName completionNote`;

describe('coaching', () => {
  test('assigned from a failed criterion, acknowledged by the agent, completed by a manager', async ({
    service,
    seed,
  }) => {
    const s = await seed({ agents: ANA_AND_BRUNO });
    const db = service.app.db;
    const [ana, bruno] = [s.agents[0]!, s.agents[1]!];
    const criteria = [
      criterionResult('greeting', 'Greets the customer', 'failed'),
      criterionResult('close', 'Closes', 'passed'),
    ];
    const call = await insertCall(db, { accountId: s.account.id, agentId: ana.id }, { criteria, score: 50 });
    const other = await insertCall(db, { accountId: s.account.id, agentId: bruno.id }, { criteria, score: 50 });
    const endpoint = await db.webhookEndpoint.create({
      data: {
        accountId: s.account.id,
        url: 'https://93.184.216.34/hook',
        secretEncrypted: 'x',
        eventTypes: ['coaching.assigned', 'coaching.completed'],
      },
    });
    const user = (role: 'agent' | 'analyst' | 'viewer', name: string, agentId: string | null = null) =>
      signedInUser(db, `${service.url}/graphql`, s.account.id, { role, name, agentId });
    const analyst = await user('analyst', 'Marta Ruiz');
    const viewer = await user('viewer', 'Vera');
    const agentAna = await user('agent', 'Ana (user)', ana.id);
    const agentBruno = await user('agent', 'Bruno (user)', bruno.id);

    const assign = (b: Browser, vars: Record<string, unknown>) =>
      b.gql(
        `mutation($callId: ID!, $keys: [String!]!, $improve: String!, $moments: [Float!], $dueOn: String) {
          assignCoaching(callId: $callId, criterionKeys: $keys, improve: $improve, moments: $moments, dueOn: $dueOn) {
            ${R} ... on CoachingItem { ${ITEM} } } }`,
        vars,
      );
    const base = { callId: call.id, keys: ['greeting'], improve: 'Say your name first.', moments: [12.34, 2] };

    // Refusals: a viewer and an agent cannot assign; unknown criterion, a moment past the end, a bad day.
    expect((await assign(viewer, base)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await assign(agentAna, base)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await assign(analyst, { ...base, keys: ['nope'] })).body.data.assignCoaching.code).toBe('not_found');
    expect((await assign(analyst, { ...base, moments: [9999] })).body.data.assignCoaching.code).toBe('invalid_input');
    expect((await assign(analyst, { ...base, dueOn: '2026-02-30' })).body.data.assignCoaching.code).toBe(
      'invalid_input',
    );
    expect((await assign(analyst, { ...base, improve: '  ' })).body.data.assignCoaching.code).toBe('invalid_input');

    // Assigned: to the call's agent, moments in order, overdue because its day has passed.
    const made = await assign(analyst, { ...base, dueOn: '2024-01-05' });
    const item = made.body.data.assignCoaching;
    expect(item).toMatchObject({
      __typename: 'CoachingItem',
      status: 'OPEN',
      overdue: true,
      moments: [2, 12.3],
      dueOn: '2024-01-05',
      agent: { name: 'Ana García' },
      assignedByName: 'Marta Ruiz',
      criteria: [{ key: 'greeting', label: 'Greets the customer', result: 'FAILED' }],
    });
    const later = await assign(analyst, { callId: other.id, keys: ['greeting', 'close'], improve: 'Close warmly.' });
    expect(later.body.data.assignCoaching).toMatchObject({ status: 'OPEN', overdue: false, dueOn: null });

    // Agents see only their own, whatever they ask for; another agent cannot acknowledge it.
    const list = `query($agentId: ID, $view: CoachingView) { coachingItems(agentId: $agentId, view: $view) { id } }`;
    expect((await agentAna.gql(list)).body.data.coachingItems).toEqual([{ id: item.id }]);
    expect((await agentAna.gql(list, { agentId: bruno.id })).body.data.coachingItems).toEqual([]);
    expect((await agentBruno.gql(list)).body.data.coachingItems).toEqual([{ id: later.body.data.assignCoaching.id }]);
    const ack = (b: Browser) =>
      b.gql(
        `mutation($id: ID!) { acknowledgeCoaching(id: $id) { ${R} ... on CoachingItem { status acknowledgedAt } } }`,
        {
          id: item.id,
        },
      );
    expect((await ack(agentBruno)).body.data.acknowledgeCoaching.code).toBe('not_found');
    expect((await ack(analyst)).body.data.acknowledgeCoaching.code).toBe('forbidden');
    const acked = (await ack(agentAna)).body.data.acknowledgeCoaching;
    expect(acked.status).toBe('ACKNOWLEDGED');
    expect((await ack(agentAna)).body.data.acknowledgeCoaching.acknowledgedAt).toBe(acked.acknowledgedAt);

    // The manager's views and the report.
    expect((await analyst.gql(list, { agentId: ana.id, view: 'OVERDUE' })).body.data.coachingItems).toEqual([
      { id: item.id },
    ]);
    const report = async () =>
      (await viewer.gql(`{ coachingReport { agentName open acknowledged overdue done } }`)).body.data.coachingReport;
    expect(await report()).toEqual([
      { agentName: 'Ana García', open: 1, acknowledged: 1, overdue: 1, done: 0 },
      { agentName: 'Bruno Díaz', open: 1, acknowledged: 0, overdue: 0, done: 0 },
    ]);

    // Completed with a note, once; an agent cannot complete.
    const complete = (b: Browser, note = 'Greets by name on the last five calls.') =>
      b.gql(
        `mutation($id: ID!, $note: String!) { completeCoaching(id: $id, note: $note) { ${R} ... on CoachingItem { ${ITEM} } } }`,
        {
          id: item.id,
          note,
        },
      );
    expect((await complete(agentAna)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const done = (await complete(analyst)).body.data.completeCoaching;
    expect(done).toMatchObject({
      status: 'DONE',
      overdue: false,
      completedByName: 'Marta Ruiz',
      completionNote: 'Greets by name on the last five calls.',
    });
    expect((await complete(analyst)).body.data.completeCoaching.code).toBe('coaching_done');
    expect((await agentAna.gql(list, { view: 'DONE' })).body.data.coachingItems).toEqual([{ id: item.id }]);
    expect((await report())[0]).toEqual({ agentName: 'Bruno Díaz', open: 1, acknowledged: 0, overdue: 0, done: 0 });

    // Audited, and announced to the endpoint that opted in, valid against the published schema.
    const audit = await db.auditLog.findMany({ where: { targetId: item.id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['coaching.assigned', 'coaching.completed']);
    const sent = await db.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: { createdAt: 'asc' },
    });
    const events = sent.map((d) => WebhookEvent.parse(d.payload));
    expect(events.map((e) => e.type).sort()).toEqual(['coaching.assigned', 'coaching.assigned', 'coaching.completed']);
    const completed = events.find((e) => e.type === 'coaching.completed');
    expect(completed?.data).toMatchObject({
      id: item.id,
      agent: { id: ana.id, name: 'Ana García' },
      criteria: [{ key: 'greeting', label: 'Greets the customer' }],
      moments: [2, 12.3],
      due_on: '2024-01-05',
      completion_note: 'Greets by name on the last five calls.',
      call: { id: call.id },
    });
  });
});
