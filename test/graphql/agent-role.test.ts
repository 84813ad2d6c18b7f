// Role rules of review and disputes (issue 10.3–10.4) through the real service: an agent user sees
// only their own agent's calls — in GraphQL, the recording download and the CSV export — and
// cannot review; analysts override and answer disputes; admins make agent users.
import { postCall } from '../support/intake.ts';
import { wavBytes } from '../http/support.ts';
import { describe, expect, test } from '../support/harness.ts';
import { ANA_AND_BRUNO, FAILED_GREETING, insertCall } from './fixtures.ts';
import { signedInUser } from './support.ts';

const R = `__typename ... on Error { code message }`;

describe('agent users and reviewers', () => {
  test('an agent sees only their calls, cannot review, disputes; an analyst accepts and the agent sees the answer', async ({
    service,
    seed,
  }) => {
    const s = await seed({ agents: ANA_AND_BRUNO });
    const db = service.app.db;
    const ana = s.agents[0]!;
    const bruno = s.agents[1]!;
    const template = await db.template.create({
      data: {
        accountId: s.account.id,
        name: 'T',
        definition: {
          version: 1,
          criteria: [
            { key: 'greeting', label: 'Greets the customer', weight: 5, kind: 'phrase', phrases: ['hello'] },
            { key: 'no_swearing', label: 'No swearing', weight: 3, kind: 'forbidden', phrases: ['damn'] },
          ],
        },
      },
    });
    const failedGreeting = {
      criteria: FAILED_GREETING,
      score: 37.5,
      autoScore: 37.5,
    };
    const own = await insertCall(
      db,
      { accountId: s.account.id, agentId: ana.id, templateId: template.id },
      failedGreeting,
    );
    const theirs = await insertCall(
      db,
      { accountId: s.account.id, agentId: bruno.id, templateId: template.id },
      failedGreeting,
    );

    const user = (role: 'agent' | 'analyst' | 'admin', agentId: string | null = null) =>
      signedInUser(db, `${service.url}/graphql`, s.account.id, { role, agentId });
    const agent = await user('agent', ana.id);
    const analyst = await user('analyst');
    const admin = await user('admin');

    // The list, a filter asking for another agent, and a lookup of another agent's call.
    const list = await agent.gql(`{ calls(first: 50) { totalCount edges { node { id agent { name } } } } }`);
    expect(list.body.data.calls.edges.map((e: any) => e.node.id)).toEqual([own.id]);
    expect(list.body.data.calls.totalCount).toBe(1);
    const asked = await agent.gql(
      `query($a: [ID!]) { calls(filter: { agentIds: $a }) { totalCount edges { node { id } } } }`,
      {
        a: [bruno.id],
      },
    );
    expect(asked.body.data.calls).toEqual({ totalCount: 0, edges: [] });
    expect((await agent.gql(`{ call(id: "${theirs.id}") { id } }`)).body.data.call).toBeNull();
    const page = await agent.gql(
      `{ call(id: "${own.id}") { id score disputeWindowClosesAt criteria { key result } } }`,
    );
    expect(page.body.data.call).toMatchObject({ id: own.id, score: 37.5 });
    expect(Date.parse(page.body.data.call.disputeWindowClosesAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Integration details and the rest of the account stay closed.
    for (const doc of [
      `{ call(id: "${own.id}") { webhookDeliveries { id } } }`,
      `{ agents { id } }`,
      `{ users { id } }`,
      `{ callFilterOptions { topics } }`,
      `mutation { overrideCriterion(callId: "${own.id}", key: "greeting", result: PASSED, note: "me") { ${R} } }`,
      `mutation { resolveDispute(id: "${own.id}", accept: true, reply: "x") { ${R} } }`,
      `mutation { reanalyzeCall(id: "${own.id}") { ${R} } }`,
    ]) {
      const r = await agent.gql(doc);
      expect(r.body.errors?.[0]?.extensions?.code, doc).toBe('FORBIDDEN');
    }

    // Recording and CSV export obey the same rule.
    const cookie = { cookie: agent.cookie! };
    const posted = async (code: string) =>
      (
        await postCall(service.url, {
          key: s.key,
          fields: { agent_code: code },
          file: { blob: new Blob([wavBytes(4000)], { type: 'audio/wav' }), name: `${code}.wav` },
        })
      ).body.id as string;
    const anaRecording = await posted('AG-07');
    const brunoRecording = await posted('AG-08');
    expect((await fetch(`${service.url}/api/calls/${anaRecording}/recording`, { headers: cookie })).status).toBe(200);
    expect((await fetch(`${service.url}/api/calls/${brunoRecording}/recording`, { headers: cookie })).status).toBe(404);
    const csv = await (await fetch(`${service.url}/api/calls/export.csv`, { headers: cookie })).text();
    expect(csv).toContain(own.id);
    expect(csv).not.toContain(theirs.id);
    expect(csv).not.toContain('Bruno');

    // The agent disputes; another agent's call is not theirs to dispute.
    const dispute = await agent.gql(
      `mutation { disputeCriterion(callId: "${own.id}", key: "greeting", comment: "I said hello at 0:02") { ${R} ... on Dispute { id status } } }`,
    );
    expect(dispute.body.data.disputeCriterion).toMatchObject({ __typename: 'Dispute', status: 'OPEN' });
    const foreign = await agent.gql(
      `mutation { disputeCriterion(callId: "${theirs.id}", key: "greeting", comment: "mine?") { ${R} } }`,
    );
    expect(foreign.body.data.disputeCriterion.code).toBe('not_found');
    const notAgent = await analyst.gql(`mutation { acknowledgeCall(id: "${own.id}") { ${R} } }`);
    expect(notAgent.body.data.acknowledgeCall.code).toBe('forbidden');

    // The analyst's queue has it; the analyst accepts; the call is overridden and the agent sees the reply.
    const queue = await analyst.gql(`{ disputes(status: OPEN) { id comment call { id openDisputes } } }`);
    expect(queue.body.data.disputes).toEqual([
      {
        id: dispute.body.data.disputeCriterion.id,
        comment: 'I said hello at 0:02',
        call: { id: own.id, openDisputes: 1 },
      },
    ]);
    const accepted = await analyst.gql(
      `mutation($id: ID!) { resolveDispute(id: $id, accept: true, reply: "Right, it was clear.") { ${R} ... on Dispute { status resolvedByName } } }`,
      { id: dispute.body.data.disputeCriterion.id },
    );
    expect(accepted.body.data.resolveDispute).toMatchObject({ status: 'ACCEPTED', resolvedByName: 'The analyst' });
    const seen = await agent.gql(
      `{ disputes { status reply events { status } } call(id: "${own.id}") { score autoScore openDisputes reviewedBy { name } criteria { key result autoResult reviewed reviewNote } reviews { fromResult toResult note } } }`,
    );
    expect(seen.body.data.disputes).toEqual([
      { status: 'ACCEPTED', reply: 'Right, it was clear.', events: [{ status: 'OPEN' }, { status: 'ACCEPTED' }] },
    ]);
    expect(seen.body.data.call).toMatchObject({
      score: 100,
      autoScore: 37.5,
      openDisputes: 0,
      reviewedBy: { name: 'The analyst' },
    });
    expect(seen.body.data.call.criteria[0]).toEqual({
      key: 'greeting',
      result: 'PASSED',
      autoResult: 'FAILED',
      reviewed: true,
      reviewNote: 'Right, it was clear.',
    });
    expect(seen.body.data.call.reviews).toEqual([
      { fromResult: 'FAILED', toResult: 'PASSED', note: 'Right, it was clear.' },
    ]);

    // An analyst overrides directly and pins a comment to a moment.
    const override = await analyst.gql(
      `mutation { overrideCriterion(callId: "${theirs.id}", key: "no_swearing", result: FAILED, note: "Swore at 1:10") { ${R} ... on Call { score autoScore criteria { key result autoResult } } } }`,
    );
    expect(override.body.data.overrideCriterion).toMatchObject({ __typename: 'Call', score: 0, autoScore: 37.5 });
    const noNote = await analyst.gql(
      `mutation { overrideCriterion(callId: "${theirs.id}", key: "greeting", result: PASSED, note: "") { ${R} } }`,
    );
    expect(noNote.body.data.overrideCriterion.code).toBe('invalid_input');
    const comment = await analyst.gql(
      `mutation { addCallComment(callId: "${theirs.id}", body: "Listen here", atSeconds: 2.5) { ${R} ... on CallComment { atSeconds authorName } } }`,
    );
    expect(comment.body.data.addCallComment).toMatchObject({ atSeconds: 2.5, authorName: 'The analyst' });

    // Admins make agent users: the role needs an agent of the team.
    const unlinked = await admin.gql(`mutation { inviteUser(email: "carla@example.com", role: AGENT) { ${R} } }`);
    expect(unlinked.body.data.inviteUser.code).toBe('agent_required');
    const invited = await admin.gql(
      `mutation($a: ID) { inviteUser(email: "carla@example.com", role: AGENT, agentId: $a) { ${R} ... on InvitationPayload { invitation { role agent { name } } } } }`,
      { a: bruno.id },
    );
    expect(invited.body.data.inviteUser.invitation).toEqual({ role: 'AGENT', agent: { name: 'Bruno Díaz' } });
    const me = await agent.gql(`{ me { role agent { id name } } }`);
    expect(me.body.data.me).toEqual({ role: 'AGENT', agent: { id: ana.id, name: 'Ana García' } });
  });
});
