// Calibration sessions and the machine's agreement per criterion (issue 31.1–31.2) over GraphQL:
// graders answer blind (the API, not only the app, keeps others' answers and the machine's verdict
// from them until the session closes), the results are the numbers worked out by hand below, the
// calls keep their scores until the manager applies the benchmark through the override path, and
// the agreement report and the calls list's filter count the same calls.
import { hashPassword } from '../../src/accounts/passwords.ts';
import { auditExportRoute } from '../../src/export/audit-route.ts';
import { describe, expect, test } from '../support/harness.ts';
import { criterionResult, insertCall, seedData } from './fixtures.ts';
import { Browser, PASSWORD, seedAccount, startGraphql } from './support.ts';

const R = `__typename ... on Error { code message }`;
const SESSION = `id status mySeat canManage myAnswers { callId criterionKey result }
  graders { name benchmark submitted answered }
  calls { callId position agentName recordingUrl transcript { text } }
  results { graders { name benchmarkAlignment majorityAlignment }
            machine { benchmarkMatches benchmarkCompared majorityAlignment }
            criteria { key percentAgreement fleissKappa percentAgreementWithMachine fleissKappaWithMachine calls }
            cells { callId criterionKey answers { result } benchmark majority machine } }`;

type Outcome = 'PASSED' | 'FAILED';
const P: Outcome = 'PASSED';
const F: Outcome = 'FAILED';

describe('calibration', () => {
  test('graders answer blind; results, alignment and agreement after close; only the benchmark applied changes calls; the agreement report leads to the same calls', async ({
    db,
  }) => {
    const h = await startGraphql(db, { routes: (app) => [auditExportRoute(app)] });
    try {
      const acme = await seedAccount(h, 'Acme');
      const bolt = await seedAccount(h, 'Bolt');
      const data = await seedData(h.app.db, acme.account.id, 'Acme', acme.users.owner.id);
      await seedData(h.app.db, bolt.account.id, 'Bolt', bolt.users.owner.id);
      const passwordHash = await hashPassword(PASSWORD);
      const analyst = async (name: string) => {
        const email = `${name.toLowerCase()}@acme.example`;
        const user = await h.app.db.user.create({
          data: { accountId: acme.account.id, email, name, role: 'analyst', passwordHash },
        });
        const b = new Browser(h.url);
        await b.signIn(email, PASSWORD);
        return { id: user.id, as: b };
      };
      const g1 = { id: acme.users.analyst.id, as: acme.as.analyst };
      const g2 = await analyst('Grace');
      const g3 = await analyst('Hugo');
      const outsider = await analyst('Olga');
      const bench = { id: acme.users.owner.id, as: acme.as.owner };
      const manager = acme.as.admin;

      // The machine: greeting passed / failed / passed, no swearing passed on all three.
      const own = { accountId: acme.account.id, agentId: data.agent.id, templateId: data.template.id };
      const machine: [Outcome, Outcome][] = [
        [P, P],
        [F, P],
        [P, P],
      ];
      const calls = [];
      for (const [greeting, swearing] of machine) {
        const criteria = [
          criterionResult('greeting', 'Greets the customer', greeting === P ? 'passed' : 'failed'),
          criterionResult('no_swearing', 'No swearing', swearing === P ? 'passed' : 'failed'),
        ];
        calls.push(await insertCall(h.app.db, own, { criteria, score: 50 }));
      }
      const ids = calls.map((c) => c.id);
      const scoresBefore = await h.app.db.call.findMany({
        where: { id: { in: ids } },
        select: { id: true, score: true, criteria: true },
        orderBy: { id: 'asc' },
      });

      const create = (as: Browser, input: Record<string, unknown>) =>
        as.gql(
          `mutation($input: CreateCalibrationSessionInput!) { createCalibrationSession(input: $input) { ${R} ... on CalibrationSession { ${SESSION} } } }`,
          { input },
        );
      const input = {
        name: 'January calibration',
        templateId: data.template.id,
        callIds: ids,
        graderIds: [g1.id, g2.id, g3.id],
        benchmarkUserId: bench.id,
      };
      // Roles: analysts grade but do not start sessions; viewers see none of it.
      expect((await create(g1.as, input)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await acme.as.viewer.gql(`{ calibrationSessions { id } }`)).body.errors?.[0]?.extensions?.code).toBe(
        'FORBIDDEN',
      );
      // Another account's template, call or user: not found, as an unknown one.
      const boltTemplate = await h.app.db.template.findFirstOrThrow({ where: { accountId: bolt.account.id } });
      expect(
        (await create(manager, { ...input, templateId: boltTemplate.id })).body.data.createCalibrationSession,
      ).toMatchObject({ code: 'not_found' });
      expect(
        (await create(manager, { ...input, graderIds: [g1.id, bolt.users.analyst.id] })).body.data
          .createCalibrationSession,
      ).toMatchObject({ code: 'not_found' });
      // A viewer cannot grade; the benchmark is not also a grader.
      expect(
        (await create(manager, { ...input, graderIds: [acme.users.viewer.id] })).body.data.createCalibrationSession,
      ).toMatchObject({ code: 'invalid_input' });
      expect(
        (await create(manager, { ...input, graderIds: [g1.id, bench.id] })).body.data.createCalibrationSession,
      ).toMatchObject({ code: 'invalid_input' });

      const created = (await create(manager, input)).body.data.createCalibrationSession;
      expect(created).toMatchObject({ __typename: 'CalibrationSession', status: 'OPEN', mySeat: null, results: null });
      expect(created.calls.map((c: { callId: string }) => c.callId)).toEqual(ids);
      expect(created.calls[0].transcript[0].text).toMatch(/Hello/);
      const sid = created.id;

      const read = async (as: Browser) =>
        (await as.gql(`{ calibrationSession(id: "${sid}") { ${SESSION} } }`)).body.data.calibrationSession;
      const answer = (g: { as: Browser }, callId: string, greeting: Outcome, swearing: Outcome) =>
        g.as.gql(
          `mutation($a: [CalibrationAnswerInput!]!) { saveCalibrationAnswers(sessionId: "${sid}", callId: "${callId}", answers: $a) { ${R} ... on CalibrationSession { status results { cells { machine } } myAnswers { result } } } }`,
          {
            a: [
              { key: 'greeting', result: greeting },
              { key: 'no_swearing', result: swearing },
            ],
          },
        );

      // Blind: g1's answers are theirs alone; nobody sees results or the machine's verdict.
      expect((await answer(g1, ids[0]!, P, P)).body.data.saveCalibrationAnswers).toMatchObject({
        status: 'OPEN',
        results: null,
        myAnswers: [{ result: 'PASSED' }, { result: 'PASSED' }],
      });
      const seenByG2 = await read(g2.as);
      expect(seenByG2).toMatchObject({ mySeat: 'GRADER', myAnswers: [], results: null });
      expect(seenByG2.graders.find((g: { name: string }) => g.name === 'Acme analyst')).toMatchObject({ answered: 2 });
      expect((await read(manager)).results).toBeNull();
      // The call itself is hidden from its graders while the session is open (score, verdicts, history).
      const lookup = (as: Browser) => as.gql(`{ call(id: "${ids[1]}") { id score criteria { result } } }`);
      expect((await lookup(g2.as)).body.data.call).toBeNull();
      expect((await lookup(bench.as)).body.data.call).toBeNull();
      expect((await lookup(manager)).body.data.call).toMatchObject({ id: ids[1] });
      // Nor are they in a grader's calls list (nor counted); the manager's list has them.
      const listed = async (as: Browser) =>
        (await as.gql(`{ calls(first: 50) { totalCount edges { node { id score } } } }`)).body.data.calls;
      const g2List = await listed(g2.as);
      expect(g2List.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([data.call.id]);
      expect(g2List.totalCount).toBe(1);
      expect((await listed(manager)).totalCount).toBe(4);
      // Nor anywhere else a call, its verdicts or its score are embedded (one rule, read.ts). Give
      // call 2 a reason to be in the review queue, an open dispute, a coaching item, a webhook
      // delivery and an audit entry, as work the graders could otherwise meet in their other pages.
      const blindId = ids[1]!;
      await h.app.db.call.update({ where: { id: blindId }, data: { needsReview: true } });
      const dispute = await h.app.db.dispute.create({
        data: { accountId: acme.account.id, callId: blindId, criterionKey: 'greeting', comment: 'I did greet' },
      });
      const coaching = await h.app.db.coachingItem.create({
        data: {
          accountId: acme.account.id,
          callId: blindId,
          agentId: data.agent.id,
          criterionKeys: ['greeting'],
          improve: 'Greet first',
        },
      });
      const endpoint = await h.app.db.webhookEndpoint.findFirstOrThrow({ where: { accountId: acme.account.id } });
      await h.app.db.webhookDelivery.create({
        data: {
          accountId: acme.account.id,
          endpointId: endpoint.id,
          callId: blindId,
          eventId: 'msg_blind',
          eventType: 'call.analyzed',
          payload: { data: { id: blindId, score: 50 } },
        },
      });
      await h.app.db.auditLog.create({
        data: {
          accountId: acme.account.id,
          action: 'template.updated',
          targetType: 'call',
          targetId: blindId,
          detail: { note: 'an entry about the blind call' },
        },
      });
      await h.app.db.auditLog.create({
        data: {
          accountId: acme.account.id,
          action: 'coaching.assigned',
          targetType: 'coaching_item',
          targetId: coaching.id,
          detail: { callId: blindId, agentId: data.agent.id, criterionKeys: ['greeting'] },
        },
      });
      const mentions = (r: { body: { data?: unknown; errors?: unknown } }) => {
        expect(r.body.errors).toBeUndefined();
        return JSON.stringify(r.body.data).includes(blindId);
      };
      const definition = (await h.app.db.template.findUniqueOrThrow({ where: { id: data.template.id } })).definition;
      const seen = {
        reviewQueue: async (as: Browser) =>
          mentions(
            await as.gql(`{ reviewQueue(first: 100) { ... on ReviewQueuePage { items { call { id score } } } } }`),
          ),
        disputes: async (as: Browser) => mentions(await as.gql(`{ disputes { call { id score } criterionKey } }`)),
        coaching: async (as: Browser) =>
          mentions(await as.gql(`{ coachingItems { call { id } criteria { result } } }`)),
        deliveries: async (as: Browser) =>
          mentions(await as.gql(`{ webhookDeliveries(first: 100) { edges { node { payload } } } }`)),
        auditLog: async (as: Browser) =>
          mentions(await as.gql(`{ auditLog(first: 100) { edges { node { targetId detail } } } }`)),
        auditCsv: async (as: Browser) => {
          const res = await fetch(new URL('/api/audit-log.csv', h.url), { headers: { cookie: as.cookie! } });
          expect(res.status).toBe(200);
          return (await res.text()).includes(blindId);
        },
        preview: async (as: Browser) =>
          (
            await as.gql(
              `mutation($d: JSON!) { previewTemplate(callId: "${blindId}", definition: $d) { ${R} ... on AnalysisPreview { score } } }`,
              { d: definition },
            )
          ).body.data.previewTemplate.__typename === 'AnalysisPreview',
      };
      // The audit log is the owners' (the benchmark here); the rest is read by the analyst grader.
      const readers = (name: keyof typeof seen) => (name.startsWith('audit') ? bench.as : g2.as);
      for (const [name, sees] of Object.entries(seen) as [keyof typeof seen, (as: Browser) => Promise<boolean>][]) {
        expect({ name, seen: await sees(readers(name)) }).toEqual({ name, seen: false });
        // An analyst who does not grade the session meets the call there as always.
        if (readers(name) === g2.as) expect({ name, seen: await sees(outsider.as) }).toEqual({ name, seen: true });
      }
      // Actions on that call, which would answer with it, are refused as for an unknown call.
      const refused = async (mutation: string) =>
        expect((await g2.as.gql(`mutation { ${mutation} { ${R} } }`)).body.data).toMatchObject({
          [mutation.split('(')[0]!]: { code: 'not_found' },
        });
      await refused(`overrideCriterion(callId: "${blindId}", key: "greeting", result: PASSED, note: "peek")`);
      await refused(`reanalyzeCall(id: "${blindId}")`);
      await refused(`assignReview(callId: "${blindId}")`);
      await refused(`completeReview(callId: "${blindId}")`);
      await refused(`assignCoaching(callId: "${blindId}", criterionKeys: ["greeting"], improve: "Greet")`);
      await refused(`completeCoaching(id: "${coaching.id}", note: "peek")`);
      await refused(`resolveDispute(id: "${dispute.id}", accept: false, reply: "peek")`);
      // An analyst who does not grade it learns nothing of the session.
      expect(await read(outsider.as)).toBeNull();
      expect((await answer(outsider, ids[0]!, P, P)).body.data.saveCalibrationAnswers).toMatchObject({
        code: 'not_found',
      });
      // A call outside the session, a criterion outside the template: not found.
      expect((await answer(g1, data.call.id, P, P)).body.data.saveCalibrationAnswers).toMatchObject({
        code: 'not_found',
      });
      const badKey = await g1.as.gql(
        `mutation { saveCalibrationAnswers(sessionId: "${sid}", callId: "${ids[0]}", answers: [{ key: "nope", result: PASSED }]) { ${R} } }`,
      );
      expect(badKey.body.data.saveCalibrationAnswers).toMatchObject({ code: 'not_found' });

      // Everyone answers (g1 = the benchmark, g2 never fails swearing, g3 fails greeting on call 2).
      const plan: [{ as: Browser }, [Outcome, Outcome][]][] = [
        [
          g1,
          [
            [P, P],
            [P, P],
            [P, F],
          ],
        ],
        [
          g2,
          [
            [P, P],
            [P, P],
            [P, P],
          ],
        ],
        [
          g3,
          [
            [P, P],
            [F, P],
            [P, F],
          ],
        ],
        [
          bench,
          [
            [P, P],
            [P, P],
            [P, F],
          ],
        ],
      ];
      let last: any;
      for (const [g, rows] of plan)
        for (const [i, [a, b]] of rows.entries()) last = (await answer(g, ids[i]!, a, b)).body.data;
      // The last answer closed the session by itself.
      expect(last.saveCalibrationAnswers.status).toBe('CLOSED');
      expect((await answer(g1, ids[0]!, F, F)).body.data.saveCalibrationAnswers).toMatchObject({
        code: 'calibration_closed',
      });

      const closed = await read(g2.as);
      expect(closed.status).toBe('CLOSED');
      const byName = Object.fromEntries(closed.results.graders.map((g: { name: string }) => [g.name, g]));
      expect(byName['Acme analyst']).toMatchObject({ benchmarkAlignment: 1, majorityAlignment: 1 });
      expect(byName.Grace.benchmarkAlignment).toBeCloseTo(5 / 6);
      expect(byName.Hugo.benchmarkAlignment).toBeCloseTo(5 / 6);
      // The machine differs from the benchmark on call 2's greeting and call 3's swearing.
      expect(closed.results.machine).toMatchObject({ benchmarkMatches: 4, benchmarkCompared: 6 });
      const greeting = closed.results.criteria.find((c: { key: string }) => c.key === 'greeting');
      // Worked by hand: unanimous on 2 of 3 calls; κ = (7/9 − 65/81) / (1 − 65/81) = −0.125;
      // with the machine as a fourth grader, κ = (7/9 − 13/18) / (1 − 13/18) = 0.2.
      expect(greeting).toMatchObject({ calls: 3 });
      expect(greeting.percentAgreement).toBeCloseTo(2 / 3);
      expect(greeting.fleissKappa).toBeCloseTo(-0.125);
      expect(greeting.percentAgreementWithMachine).toBeCloseTo(2 / 3);
      expect(greeting.fleissKappaWithMachine).toBeCloseTo(0.2);
      const cell = closed.results.cells.find(
        (c: { callId: string; criterionKey: string }) => c.callId === ids[1] && c.criterionKey === 'greeting',
      );
      expect(cell).toMatchObject({ benchmark: 'PASSED', majority: 'PASSED', machine: 'FAILED' });
      expect(cell.answers.map((a: { result: string }) => a.result)).toEqual(['PASSED', 'PASSED', 'FAILED']);
      // The call can be looked up and listed again.
      expect((await lookup(g2.as)).body.data.call).toMatchObject({ id: ids[1] });
      expect((await listed(g2.as)).totalCount).toBe(4);
      // …and met in every other place again, by the grader and the benchmark owner alike.
      for (const [name, sees] of Object.entries(seen) as [keyof typeof seen, (as: Browser) => Promise<boolean>][])
        expect({ name, seen: await sees(readers(name)) }).toEqual({ name, seen: true });
      expect(
        (await g2.as.gql(`mutation { assignReview(callId: "${blindId}") { ${R} ... on ReviewItem { call { id } } } }`))
          .body.data.assignReview,
      ).toMatchObject({ call: { id: blindId } });

      // Calibration changed no call.
      const after = await h.app.db.call.findMany({
        where: { id: { in: ids } },
        select: { id: true, score: true, criteria: true },
        orderBy: { id: 'asc' },
      });
      expect(after).toEqual(scoresBefore);

      // Applying the benchmark: managers only; two overrides through the ordinary path.
      const apply = (as: Browser) =>
        as.gql(`mutation { applyCalibrationBenchmark(id: "${sid}") { ${R} ... on CalibrationSession { appliedAt } } }`);
      expect((await apply(g1.as)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await apply(manager)).body.data.applyCalibrationBenchmark.appliedAt).toBeTruthy();
      expect((await apply(manager)).body.data.applyCalibrationBenchmark).toMatchObject({ code: 'calibration_closed' });
      const reviews = await h.app.db.criterionReview.findMany({ where: { callId: { in: ids } } });
      expect(reviews.map((r) => [r.callId, r.criterionKey, r.toResult]).sort()).toEqual(
        [
          [ids[1], 'greeting', 'passed'],
          [ids[2], 'no_swearing', 'failed'],
        ].sort(),
      );
      expect(reviews[0]!.note).toMatch(/January calibration/);
      const audit = await h.app.db.auditLog.findMany({ where: { accountId: acme.account.id } });
      const actions = audit.map((a) => a.action);
      for (const a of ['calibration.created', 'calibration.closed', 'calibration.applied'])
        expect(actions).toContain(a);
      expect(actions.filter((a) => a === 'criterion.overridden')).toHaveLength(2);

      // Machine agreement: add an analyst's override (call 4, greeting passed → failed) and a
      // rejected dispute (the seeded call's greeting: the machine stood).
      const c4 = await insertCall(h.app.db, own, {
        criteria: [criterionResult('greeting', 'Greets the customer', 'passed')],
      });
      await acme.as.analyst.gql(
        `mutation { overrideCriterion(callId: "${c4.id}", key: "greeting", result: FAILED, note: "Never greeted") { __typename } }`,
      );
      await acme.as.analyst.gql(
        `mutation { resolveDispute(id: "${data.dispute.id}", accept: false, reply: "It was said") { __typename } }`,
      );
      const JAN = `startedFrom: "2024-01-01T00:00:00Z", startedTo: "2024-02-01T00:00:00Z"`;
      const report = await acme.as.viewer.gql(
        `{ machineAgreement(${JAN}) { threshold mostChanged { criterionKey } rows { criterionKey label checked stood changed falseFail falsePass agreement flagged } } }`,
      );
      const m = report.body.data.machineAgreement;
      expect(m.threshold).toBe(80);
      expect(m.mostChanged.criterionKey).toBe('greeting');
      // greeting: seeded call (stood, dispute), calls 1 and 3 (stood, calibration), call 2 (false fail,
      // applied benchmark), call 4 (false pass, override). no_swearing: calls 1–2 stood, call 3 false pass.
      expect(m.rows).toEqual([
        {
          criterionKey: 'greeting',
          label: 'Greets the customer',
          checked: 5,
          stood: 3,
          changed: 2,
          falseFail: 1,
          falsePass: 1,
          agreement: 0.6,
          flagged: true,
        },
        {
          criterionKey: 'no_swearing',
          label: 'No swearing',
          checked: 3,
          stood: 2,
          changed: 1,
          falseFail: 0,
          falsePass: 1,
          agreement: 2 / 3,
          flagged: true,
        },
      ]);
      // The calls behind the numbers: the calls list with the same filter counts the same calls.
      const count = async (extra: string) =>
        (
          await acme.as.viewer.gql(
            `{ calls(first: 50, filter: { ${JAN}, checkedCriterion: "greeting"${extra} }) { totalCount edges { node { id } } } }`,
          )
        ).body.data.calls;
      expect((await count('')).totalCount).toBe(5);
      const changed = await count(', checkedChange: CHANGED');
      expect(changed.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([ids[1], c4.id].sort());
      expect((await count(', checkedChange: FALSE_FAIL')).totalCount).toBe(1);

      // The threshold: admins set it; a criterion at or above it is no longer flagged.
      const setT = (as: Browser, percent: number) =>
        as.gql(
          `mutation { setMachineAgreementThreshold(percent: ${percent}) { ${R} ... on Account { machineAgreementThreshold } } }`,
        );
      expect((await setT(acme.as.analyst, 50)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await setT(manager, 101)).body.data.setMachineAgreementThreshold).toMatchObject({
        code: 'invalid_input',
      });
      expect((await setT(manager, 65)).body.data.setMachineAgreementThreshold.machineAgreementThreshold).toBe(65);
      const flags = (await acme.as.viewer.gql(`{ machineAgreement(${JAN}) { rows { criterionKey flagged } } }`)).body
        .data.machineAgreement.rows;
      expect(flags).toEqual([
        { criterionKey: 'greeting', flagged: true },
        { criterionKey: 'no_swearing', flagged: false },
      ]);
      // Another account sees none of it.
      expect(
        (await bolt.as.owner.gql(`{ calibrationSession(id: "${sid}") { id } }`)).body.data.calibrationSession,
      ).toBeNull();
      expect(
        (await bolt.as.viewer.gql(`{ machineAgreement(${JAN}) { rows { criterionKey } } }`)).body.data.machineAgreement
          .rows,
      ).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test('a sample of a filter; a manager closes early and missing answers stay out of the figures', async ({ db }) => {
    const h = await startGraphql(db);
    try {
      const acme = await seedAccount(h, 'Sample');
      const data = await seedData(h.app.db, acme.account.id, 'Sample', acme.users.owner.id);
      const own = { accountId: acme.account.id, agentId: data.agent.id, templateId: data.template.id };
      for (let i = 0; i < 6; i++) await insertCall(h.app.db, own);
      await insertCall(h.app.db, own, { status: 'queued' });
      const created = await acme.as.admin.gql(
        `mutation($input: CreateCalibrationSessionInput!) { createCalibrationSession(input: $input) { ${R} ... on CalibrationSession { id calls { callId } } } }`,
        {
          input: {
            name: 'Sampled',
            templateId: data.template.id,
            filter: { agentIds: [data.agent.id] },
            sampleSize: 4,
            graderIds: [acme.users.analyst.id, acme.users.admin.id],
          },
        },
      );
      const session = created.body.data.createCalibrationSession;
      expect(session.calls).toHaveLength(4);
      const picked = await h.app.db.call.findMany({ where: { id: { in: session.calls.map((c: any) => c.callId) } } });
      expect(picked.every((c) => c.status === 'analyzed')).toBe(true);
      await acme.as.analyst.gql(
        `mutation { saveCalibrationAnswers(sessionId: "${session.id}", callId: "${session.calls[0].callId}", answers: [{ key: "greeting", result: PASSED }]) { __typename } }`,
      );
      const closed = await acme.as.admin.gql(
        `mutation { closeCalibrationSession(id: "${session.id}") { ${R} ... on CalibrationSession { status results { graders { answered benchmarkAlignment majorityAlignment } criteria { key calls fleissKappa } } } } }`,
      );
      const r = closed.body.data.closeCalibrationSession;
      expect(r.status).toBe('CLOSED');
      expect(r.results.graders).toEqual([
        // Sorted by name: "Sample admin", then "Sample analyst".
        { answered: 0, benchmarkAlignment: null, majorityAlignment: null },
        { answered: 1, benchmarkAlignment: null, majorityAlignment: 1 },
      ]);
      // No call was answered by both graders: agreement has nothing to stand on.
      expect(r.results.criteria.map((c: any) => [c.key, c.calls, c.fleissKappa])).toEqual([
        ['greeting', 0, null],
        ['no_swearing', 0, null],
      ]);
      const again = await acme.as.admin.gql(`mutation { closeCalibrationSession(id: "${session.id}") { ${R} } }`);
      expect(again.body.data.closeCalibrationSession.code).toBe('calibration_closed');
    } finally {
      await h.close();
    }
  });
});
