import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  GraphQLID,
  type GraphQLField,
  type GraphQLInputType,
  isAbstractType,
  isInputObjectType,
  isObjectType,
  isInterfaceType,
} from '../../schema/graphql-js.ts';
import { describe, expect } from '../support/harness.ts';
import { schema } from '../../schema/index.ts';
import type { TestDb } from '../support/db.ts';
import { seedData } from './fixtures.ts';
import { type Browser, seedAccount, signedInUser, type Harness, test } from './support.ts';

/*
 * Every ID-typed argument and input field of every query and mutation — nested inputs and filters
 * included, found by walking the schema — given an id of ANOTHER account's object must answer
 * exactly as an unknown id does (a mutation: NotFoundError; a query: null or the same empty result),
 * and nothing referring to that id may be stored anywhere (every table of every schema is scanned).
 * A new ID argument without a base case below fails the first test.
 */

type Kind =
  | 'tombstone'
  | 'agent'
  | 'campaign'
  | 'template'
  | 'call'
  | 'endpoint'
  | 'delivery'
  | 'user'
  | 'bulk'
  | 'dispute'
  | 'apiKey'
  | 'invitation'
  | 'coaching'
  | 'calibration';
interface Base {
  /** Variables that make a valid call with B's own objects (ids as `$kind` placeholders, e.g. '$campaign'). */
  vars: Record<string, unknown>;
  /** What `id` (or another path not named after its kind) names. */
  kinds?: Record<string, Kind>;
  /** The field is only for agent users (B's agent user calls it). */
  asAgent?: true;
}

const RANGE = { from: '2024-01-01', to: '2024-01-31' };
const report: Base = { vars: { filter: RANGE } };
const byId = (kind: Kind, vars: Record<string, unknown> = {}): Base => ({ vars, kinds: { id: kind } });
const endpoint = byId('endpoint');

const BASES: Record<string, Base> = {
  // Queries
  agent: byId('agent'),
  bulkReanalysis: byId('bulk'),
  bulkReanalysisCount: { vars: {} },
  call: byId('call'),
  deletedCall: byId('tombstone'),
  calls: { vars: { first: 10 } },
  callsToDeleteCount: { vars: {} },
  campaign: byId('campaign'),
  coachingItems: { vars: {} },
  calibrationSession: byId('calibration'),
  reportAgents: report,
  reportCampaigns: report,
  reportCriteria: report,
  reportDisputes: { vars: { filter: RANGE, interval: 'MONTH' } },
  reportScoreDistribution: report,
  reportSentiment: { vars: { filter: RANGE, interval: 'MONTH' } },
  reportTopics: { vars: { filter: RANGE, interval: 'MONTH' } },
  reportTrend: { vars: { filter: RANGE, interval: 'DAY' } },
  reviewQueue: { vars: {} },
  template: byId('template'),
  webhookDeliveries: { vars: {} },
  webhookEndpoint: endpoint,
  // Mutations
  acknowledgeCall: { ...byId('call'), asAgent: true },
  acknowledgeCoaching: { ...byId('coaching'), asAgent: true },
  assignCoaching: { vars: { callId: '$call', criterionKeys: ['greeting'], improve: 'Greet by name.' } },
  completeCoaching: byId('coaching', { note: 'Better now.' }),
  applyCalibrationBenchmark: byId('calibration'),
  closeCalibrationSession: byId('calibration'),
  // Calls picked by hand, graders, benchmark and the sample filter's agents and campaigns: each checked.
  createCalibrationSession: {
    vars: { input: { name: 'x', templateId: '$template', callIds: ['$call'], graderIds: ['$analyst'] } },
    kinds: { graderIds: 'user', benchmarkUserId: 'user' },
  },
  // B's owner grades B's session: a foreign session or a call outside it is not found.
  saveCalibrationAnswers: {
    vars: { sessionId: '$calibration', callId: '$call', answers: [{ key: 'greeting', result: 'PASSED' }] },
    kinds: { sessionId: 'calibration' },
  },
  addCallComment: { vars: { callId: '$call', body: 'hi', atSeconds: 1 } },
  archiveCampaign: byId('campaign'),
  assignReview: { vars: { callId: '$call' } },
  cancelBulkReanalysis: byId('bulk'),
  changeUserRole: { vars: { userId: '$user', role: 'VIEWER' } },
  completeReview: { vars: { callId: '$call' } },
  createCampaign: { vars: { input: { name: 'Another' } } },
  createWebhookEndpoint: { vars: { input: { url: 'https://93.184.216.34/new' } } },
  deactivateAgent: byId('agent'),
  deleteCall: byId('call'),
  deleteCalls: { vars: { expectedCount: 0 } },
  deleteTemplate: byId('template'),
  disableWebhookEndpoint: endpoint,
  disputeCriterion: { vars: { callId: '$call', key: 'greeting', comment: 'x' }, asAgent: true },
  enableWebhookEndpoint: endpoint,
  inviteUser: { vars: { email: 'new-person@example.com', role: 'VIEWER' } },
  overrideCriterion: { vars: { callId: '$call', key: 'greeting', result: 'FAILED', note: 'x' } },
  previewTemplate: {
    vars: {
      callId: '$call',
      definition: { version: 1, criteria: [{ key: 'a', label: 'A', weight: 1, kind: 'phrase', phrases: ['hi'] }] },
    },
  },
  reactivateAgent: byId('agent'),
  reanalyzeCall: byId('call'),
  reissueWebhookSecret: endpoint,
  redeliverWebhook: { vars: {} },
  removeUser: { vars: {} },
  removeWebhookEndpoint: endpoint,
  replayWebhookDeliveries: byId('endpoint', { since: '2024-01-01T00:00:00Z' }),
  resolveDispute: byId('dispute', { accept: true, reply: 'ok' }),
  revealWebhookSecret: endpoint,
  revokeApiKey: byId('apiKey'),
  revokeInvitation: byId('invitation'),
  rotateWebhookSecret: endpoint,
  sendTestWebhook: endpoint,
  setDefaultTemplate: byId('template'),
  setLanguageDefaultTemplate: byId('template', { language: 'es' }),
  startBulkReanalysis: { vars: {} },
  unarchiveCampaign: byId('campaign'),
  updateAgent: byId('agent', { id: '$agent', input: { name: 'x' } }),
  updateCampaign: byId('campaign', { id: '$campaign', input: { name: 'Renamed' } }),
  updateTemplate: byId('template', { name: 'x' }),
  updateWebhookEndpoint: byId('endpoint', { id: '$endpoint', input: { url: 'https://93.184.216.34/moved' } }),
};

/** Every path (`arg.field.field`) under a field's arguments whose type is ID or [ID]. */
function idPaths(field: GraphQLField<unknown, unknown>): string[] {
  const out: string[] = [];
  const walk = (type: GraphQLInputType, path: string, seen: string[]) => {
    const named = getNamedType(type);
    if (named === GraphQLID) out.push(path);
    else if (isInputObjectType(named) && !seen.includes(named.name))
      for (const f of Object.values(named.getFields())) walk(f.type, `${path}.${f.name}`, [...seen, named.name]);
  };
  for (const a of field.args) walk(a.type, a.name, []);
  return out;
}

function kindOf(field: string, path: string): Kind {
  const last = path.split('.').pop()!;
  const named = BASES[field]?.kinds?.[last];
  if (named) return named;
  const m = /^(agent|campaign|template|call|endpoint|delivery|user)Ids?$/.exec(last);
  if (!m) throw new Error(`${field}.${path}: say which kind of object it names (BASES.kinds)`);
  return m[1] as Kind;
}

/** The smallest selection that is valid for a type, with the error code when it can be an Error. */
function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isAbstractType(named)) {
    const canFail = schema.getPossibleTypes(named).some((t) => t.getInterfaces().some((i) => i.name === 'Error'));
    return `{ __typename ${canFail ? '... on Error { code }' : ''} }`;
  }
  if (isObjectType(named) || isInterfaceType(named)) return '{ __typename }';
  return '';
}

function document(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, vars: Record<string, unknown>) {
  const used = field.args.filter((a) => a.name in vars);
  const decl = used.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = used.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `${kind}${decl ? `(${decl})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selection(field)} }`;
}

/** `vars` with `value` set at `path` (a list where the schema has one), placeholders resolved. */
function withId(path: string, vars: Record<string, unknown>, value: string) {
  const out = structuredClone(vars);
  const parts = path.split('.');
  let obj = out as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    obj[p] ??= {};
    obj = obj[p] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  obj[last] = /Ids$/.test(last) ? [value] : value;
  return out;
}

let t: TestDb;
let h: Harness;
let A: Awaited<ReturnType<typeof seedAccount>>;
let B: Awaited<ReturnType<typeof seedAccount>>;
let aIds: Record<Kind | 'analyst', string>;
let bIds: Record<Kind | 'analyst', string>;
let agentB: Browser;

test.beforeAll(async ({ db: testDb, gql, acme: seeded }) => {
  t = testDb;
  h = gql;
  A = seeded;
  B = await seedAccount(h, 'Bolt');
  const ids = async (S: typeof A, label: string): Promise<Record<Kind | 'analyst', string>> => {
    const s = await seedData(h.app.db, S.account.id, label, S.users.owner.id);
    const bulk = await h.app.db.bulkReanalysis.create({
      data: { accountId: S.account.id, requestedById: S.users.owner.id, filter: {}, total: 1 },
    });
    const tombstone = await h.app.db.callTombstone.create({
      data: { id: randomUUID(), accountId: S.account.id, deletedById: S.users.owner.id },
    });
    const calibration = await h.app.db.calibrationSession.create({
      data: {
        accountId: S.account.id,
        name: `${label} calibration`,
        templateId: s.template.id,
        criteria: [{ key: 'greeting', label: 'Greets the customer' }],
        calls: { create: [{ callId: s.call.id, position: 0 }] },
        graders: { create: [{ userId: S.users.owner.id }] },
      },
    });
    return {
      calibration: calibration.id,
      analyst: S.users.analyst.id,
      tombstone: tombstone.id,
      agent: s.agent.id,
      campaign: s.campaign.id,
      template: s.template.id,
      call: s.call.id,
      endpoint: s.endpoint.id,
      delivery: s.delivery.id,
      user: S.users.viewer.id,
      bulk: bulk.id,
      dispute: s.dispute.id,
      apiKey: s.apiKey.id,
      invitation: s.invitation.id,
      coaching: s.coaching.id,
    };
  };
  aIds = await ids(A, 'Acme');
  bIds = await ids(B, 'Bolt');
  agentB = await signedInUser(h.app.db, h.url, B.account.id, {
    role: 'agent',
    name: 'Bolt agent user',
    agentId: bIds.agent,
    email: `agent-${B.account.id.slice(0, 8)}@example.com`,
  });
});

/** Per table (every schema but the system ones), the rows whose text mentions one of A's ids. */
async function rowsMentioning(ids: string[]): Promise<Record<string, number>> {
  const tables = await t.sql(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const out: Record<string, number> = {};
  for (const { table_schema, table_name } of tables) {
    const name = `"${table_schema}"."${table_name}"`;
    const [row] = await t.sql(`SELECT count(*)::int AS n FROM ${name} x WHERE row_to_json(x)::text ~ $1`, [
      ids.join('|'),
    ]);
    out[name] = row.n;
  }
  return out;
}

const roots = () =>
  [
    ['query', Object.values(schema.getQueryType()!.getFields())],
    ['mutation', Object.values(schema.getMutationType()!.getFields())],
  ] as const;

describe("another account's ids, wherever an id goes", () => {
  test('has a base case for every field with an ID argument or input field', () => {
    const missing = roots().flatMap(([, fields]) =>
      fields.filter((f) => idPaths(f).length && !BASES[f.name]).map((f) => f.name),
    );
    expect(missing).toEqual([]);
    for (const [, fields] of roots()) for (const f of fields) for (const p of idPaths(f)) kindOf(f.name, p);
  });

  test('answers like an unknown id (mutations: not found) and stores nothing that refers to it', async () => {
    const markers = Object.values(aIds);
    const before = await rowsMentioning(markers);
    const resolve = (v: unknown): unknown =>
      typeof v === 'string' && v.startsWith('$')
        ? bIds[v.slice(1) as Kind]
        : Array.isArray(v)
          ? v.map(resolve)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]))
            : v;
    const problems: string[] = [];
    let cases = 0;
    for (const [kind, fields] of roots()) {
      for (const field of fields) {
        for (const path of idPaths(field)) {
          cases++;
          const base = BASES[field.name]!;
          const vars = resolve(base.vars) as Record<string, unknown>;
          const foreign = aIds[kindOf(field.name, path)];
          const unknown = randomUUID();
          const caller = base.asAgent ? agentB : B.as.owner;
          const run = async (id: string) => {
            const v = withId(path, vars, id);
            const r = await caller.gql(document(kind, field, v), v);
            return JSON.stringify(r.body).replaceAll(id, '<id>');
          };
          const [f, u] = [await run(foreign), await run(unknown)];
          const where = `${kind} ${field.name}(${path})`;
          if (f !== u) problems.push(`${where}: foreign ${f} ≠ unknown ${u}`);
          else if (f.includes('"errors"')) problems.push(`${where}: ${f}`);
          else if (kind === 'mutation' && !f.includes('"code":"not_found"'))
            problems.push(`${where}: not refused: ${f}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(cases).toBeGreaterThan(80);
    expect(await rowsMentioning(markers)).toEqual(before);
  });
});
