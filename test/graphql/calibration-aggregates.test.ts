// Blind grading reaches the aggregates too (issue 31.1): while a calibration session is open, a
// grader who holds a seat in it reads every dashboard report, its CSV, machine agreement and the
// audit log exactly as if the session's calls did not exist — a report filtered to one agent and one
// day would otherwise give a call's score away — and cannot redeliver those calls' webhooks. Everyone
// else reads the calls as always, and the grader does again once the session closes.
import { auditExportRoute } from '../../src/export/audit-route.ts';
import { REPORT_TABLES } from '../../src/reports/reports-csv.ts';
import { reportExportRoute } from '../../src/reports/reports-route.ts';
import { describe, expect, test } from '../support/harness.ts';
import { criterionResult, insertCall, seedData } from './fixtures.ts';
import { type Browser, seedAccount, startGraphql } from './support.ts';

const FILTER = `filter: { from: "2024-01-01", to: "2024-01-31" }`;
// Disputes count on the day they were opened or answered: today.
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const REPORTS = {
  trend: `reportTrend(${FILTER}, interval: DAY) { ... on ReportTrend { rows { period calls averageScore averageCoverage criticalFails } } }`,
  agents: `reportAgents(${FILTER}) { ... on ReportBreakdown { rows { id calls averageScore averageCoverage criticalFails previousCalls previousAverageScore change averageCustomerSentiment } } }`,
  campaigns: `reportCampaigns(${FILTER}) { ... on ReportBreakdown { rows { id calls averageScore previousCalls previousAverageScore } } }`,
  criteria: `reportCriteria(${FILTER}) { ... on ReportCriteria { rows { key passed failed na criticalFails } } }`,
  distribution: `reportScoreDistribution(${FILTER}) { ... on ReportScoreDistribution { rows { from calls } } }`,
  topics: `reportTopics(${FILTER}, interval: MONTH) { ... on ReportTopics { rows { period topic calls } } }`,
  sentiment: `reportSentiment(${FILTER}, interval: DAY) { ... on ReportSentiment { rows { period calls sentimentCalls averageCustomerSentiment trendCalls improved worsened } } }`,
  disputes: `reportDisputes(filter: { from: "${monthAgo}", to: "${today}" }, interval: MONTH) { ... on ReportDisputes { rows { opened accepted rejected } } }`,
  agreement: `machineAgreement { rows { criterionKey checked stood falseFail falsePass } }`,
  coaching: `coachingReport { agentId open acknowledged overdue done }`,
} as const;

describe('calibration: blind in the aggregates', () => {
  test('a grader reads reports, their CSVs, machine agreement and the audit log without the calls they grade blind, and cannot redeliver their webhooks', async ({
    db,
  }) => {
    const h = await startGraphql(db, { routes: (app) => [auditExportRoute(app), reportExportRoute(app)] });
    try {
      const acme = await seedAccount(h, 'Acme');
      const data = await seedData(h.app.db, acme.account.id, 'Acme', acme.users.owner.id);
      const grader = acme.as.analyst;
      // The benchmark is the owner: the one who reads the audit log and may redeliver webhooks.
      const owner = acme.as.owner;
      const manager = acme.as.admin;
      const outsider = acme.as.viewer;

      const everything = async (as: Browser) => {
        const out: Record<string, unknown> = {};
        for (const [name, field] of Object.entries(REPORTS)) {
          const r = await as.gql(`{ ${field} }`);
          expect(r.body.errors).toBeUndefined();
          out[name] = Object.values(r.body.data)[0];
        }
        for (const table of REPORT_TABLES) {
          const days = table === 'disputes' ? `from=${monthAgo}&to=${today}` : 'from=2024-01-01&to=2024-01-31';
          const url = new URL(`/api/reports/${table}.csv?${days}`, h.url);
          const res = await fetch(url, { headers: { cookie: as.cookie! } });
          expect(res.status).toBe(200);
          out[`${table}.csv`] = await res.text();
        }
        return out;
      };
      // What everyone reads before the session's calls exist: the grader must read this while grading.
      const without = await everything(manager);

      // Two calls to calibrate, each leaving a mark on every report: a low score with a critical fail,
      // another topic, a customer's sentiment, a rejected dispute, a person's override.
      const own = {
        accountId: acme.account.id,
        agentId: data.agent.id,
        campaignId: data.call.campaignId,
        templateId: data.template.id,
      };
      const low = await insertCall(h.app.db, own, {
        startedAt: new Date('2024-01-02T09:00:00Z'),
        score: 15,
        coverage: 0.5,
        topic: 'refund',
        customerSentiment: -0.6,
        customerSentimentTrend: -0.4,
        criteria: [
          criterionResult('greeting', 'Greets the customer', 'failed'),
          criterionResult('no_swearing', 'No swearing', 'failed', true),
        ],
      });
      const other = await insertCall(h.app.db, own, {
        startedAt: new Date('2024-01-03T09:00:00Z'),
        score: 55,
        coverage: 0.8,
      });
      const dispute = await h.app.db.dispute.create({
        data: { accountId: acme.account.id, callId: low.id, criterionKey: 'greeting', comment: 'I did greet' },
      });
      const rejected = await manager.gql(
        `mutation { resolveDispute(id: "${dispute.id}", accept: false, reply: "You did not") { __typename } }`,
      );
      expect(rejected.body.data.resolveDispute.__typename).toBe('Dispute');
      const overridden = await manager.gql(
        `mutation { overrideCriterion(callId: "${other.id}", key: "greeting", result: FAILED, note: "No greeting") { __typename } }`,
      );
      expect(overridden.body.errors).toBeUndefined();
      await h.app.db.coachingItem.create({
        data: {
          accountId: acme.account.id,
          callId: low.id,
          agentId: data.agent.id,
          criterionKeys: ['greeting'],
          improve: 'Greet first',
        },
      });
      const endpoint = await h.app.db.webhookEndpoint.findFirstOrThrow({ where: { accountId: acme.account.id } });
      const delivery = await h.app.db.webhookDelivery.create({
        data: {
          accountId: acme.account.id,
          endpointId: endpoint.id,
          callId: low.id,
          eventId: 'msg_blind_low',
          eventType: 'call.analyzed',
          payload: { data: { id: low.id, score: 15 } },
        },
      });
      const withCalls = await everything(manager);
      // Each report counts the two calls (else the comparison below would prove nothing).
      for (const name of Object.keys(without))
        expect({ name, same: withCalls[name] === without[name] }).toEqual({ name, same: false });

      const created = await manager.gql(
        `mutation($input: CreateCalibrationSessionInput!) { createCalibrationSession(input: $input) { __typename ... on CalibrationSession { id } } }`,
        {
          input: {
            name: 'Blind aggregates',
            templateId: data.template.id,
            callIds: [low.id, other.id],
            graderIds: [acme.users.analyst.id],
            benchmarkUserId: acme.users.owner.id,
          },
        },
      );
      const sid = created.body.data.createCalibrationSession.id;
      expect(sid).toBeTruthy();

      // The graders (and the benchmark) read every figure as if the calls were not there.
      const sameAs = (a: Record<string, unknown>, b: Record<string, unknown>) =>
        Object.keys(b).map((name) => ({ name, same: JSON.stringify(a[name]) === JSON.stringify(b[name]) }));
      const allSame = Object.keys(without).map((name) => ({ name, same: true }));
      expect(sameAs(await everything(grader), without)).toEqual(allSame);
      expect(sameAs(await everything(owner), without)).toEqual(allSame);
      // Anyone without a seat reads them as always.
      expect(sameAs(await everything(outsider), withCalls)).toEqual(allSame);

      // The audit log: neither the override nor the rejected dispute of those calls (the owner grades them).
      const audit = async (as: Browser) => {
        const r = await as.gql(`{ auditLog(first: 100) { edges { node { action targetId } } } }`);
        expect(r.body.errors).toBeUndefined();
        const csv = await (
          await fetch(new URL('/api/audit-log.csv', h.url), { headers: { cookie: as.cookie! } })
        ).text();
        const actions = r.body.data.auditLog.edges.map((e: { node: { action: string } }) => e.node.action);
        return {
          overridden: actions.includes('criterion.overridden'),
          rejected: actions.includes('dispute.rejected'),
          csv: csv.includes('dispute.rejected') || csv.includes('criterion.overridden'),
        };
      };
      expect(await audit(owner)).toEqual({ overridden: false, rejected: false, csv: false });

      // Redelivering the webhook of a call one grades blind: unknown, as in the deliveries list. With
      // the endpoint disabled, a delivery of any other call answers webhook_disabled instead, so the
      // not_found comes from the blind rule, not from the endpoint.
      await h.app.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
      const redeliver = async (as: Browser, id: string) =>
        (await as.gql(`mutation { redeliverWebhook(deliveryId: "${id}") { __typename ... on Error { code } } }`)).body
          .data.redeliverWebhook;
      const seeded = await h.app.db.webhookDelivery.findFirstOrThrow({ where: { callId: data.call.id } });
      expect(await redeliver(owner, delivery.id)).toMatchObject({ code: 'not_found' });
      expect(await redeliver(owner, seeded.id)).toMatchObject({ code: 'webhook_disabled' });
      expect(await redeliver(manager, delivery.id)).toMatchObject({ code: 'webhook_disabled' });

      // Once the session closes, the graders read the calls' figures like everyone.
      const closed = await manager.gql(`mutation { closeCalibrationSession(id: "${sid}") { __typename } }`);
      expect(closed.body.data.closeCalibrationSession.__typename).toBe('CalibrationSession');
      expect(sameAs(await everything(grader), withCalls)).toEqual(allSame);
      expect(await audit(owner)).toEqual({ overridden: true, rejected: true, csv: true });
      expect(await redeliver(owner, delivery.id)).toMatchObject({ code: 'webhook_disabled' });
    } finally {
      await h.close();
    }
  });
});
