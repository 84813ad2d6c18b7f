// One access rule for GraphQL and the app's HTTP routes: every route × role (and another account),
// the route answers data only where the GraphQL field answering the same data does (ROUTE_ACCESS).
import { schema } from '../../schema/index.ts';
import { hasScope, type Scope } from '../../src/auth/scopes.ts';
import { createSession } from '../../src/auth/session.ts';
import type { UserRole } from '../../src/generated/prisma/client.ts';
import { type AppRoute, ROUTE_ACCESS, type RouteAccessName } from '../../src/auth/route-access.ts';
import { REPORT_TABLES, type ReportTable } from '../../src/reports/reports-csv.ts';
import { buildRoutes } from '../../src/service/routes.ts';
import type { TestDb } from '../support/db.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { parseCsv, wavBytes } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

type Who = UserRole | 'signedOut' | 'otherAccount';
const WHO: Who[] = ['owner', 'admin', 'analyst', 'viewer', 'agent', 'signedOut', 'otherAccount'];

let t: TestDb;
let svc: TestService;
/** A's calls: one of the agent the agent user is, one of another agent; B's one call. */
const calls = { mine: '', colleague: '', otherAccount: '' };
let agentIdOfA = '';
const clients = {} as Record<Who, { cookie?: string; csrf?: string }>;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  const a = await seedAccount(svc, {
    agents: [
      { name: 'Ana García', code: 'AG-07' },
      { name: 'Luis Pérez', code: 'AG-08' },
    ],
  });
  const b = await seedAccount(svc);
  agentIdOfA = a.agents[0]!.id;
  const post = async (key: string, code: string) => {
    const r = await postCall(svc.url, {
      key,
      fields: { agent_code: code },
      file: { blob: new Blob([wavBytes(4000)], { type: 'audio/wav' }), name: 'call.wav' },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  calls.mine = await post(a.key, 'AG-07');
  calls.colleague = await post(a.key, 'AG-08');
  calls.otherAccount = await post(b.key, 'AG-07');
  // As if transcribed (nothing runs the pipeline here): the CSV export lists them then.
  await t.sql(`UPDATE calls SET status = 'transcribed' WHERE id = ANY($1::uuid[])`, [Object.values(calls)]);
  const session = async (accountId: string, role: UserRole) => {
    const user = await svc.app.db.user.create({
      data: {
        accountId,
        role,
        email: `${role}-${Math.random().toString(36).slice(2, 10)}@example.com`,
        name: `A ${role}`,
        passwordHash: 'x',
        ...(role === 'agent' && { agentId: agentIdOfA }),
      },
    });
    const { token, session } = await createSession(svc.app.db, user.id);
    return { cookie: `escucha_session=${token}`, csrf: session.csrfToken };
  };
  for (const role of ['owner', 'admin', 'analyst', 'viewer', 'agent'] as const)
    clients[role] = await session(a.account.id, role);
  clients.signedOut = {};
  clients.otherAccount = await session(b.account.id, 'owner');
});

const headers = (who: Who): Record<string, string> => {
  const c = clients[who];
  // A signed-out browser still sends a token (any): GraphQL checks it before the session.
  return c.cookie ? { cookie: c.cookie, 'x-escucha-csrf': c.csrf! } : { 'x-escucha-csrf': 'none' };
};

async function gql(who: Who, query: string): Promise<{ data: any; refused: boolean }> {
  const r = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers(who) },
    body: JSON.stringify({ query }),
  });
  const body = (await r.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
  const codes = (body.errors ?? []).map((e) => e.extensions?.code);
  return { data: body.data, refused: codes.includes('FORBIDDEN') || codes.includes('UNAUTHENTICATED') };
}

const get = (who: Who, path: string) => fetch(`${svc.url}${path}`, { headers: headers(who) });

/** The minimum scope of a GraphQL field, read from its `authScopes`. */
function scopeOf(ref: string): Scope | null {
  const [type, name] = ref.split('.') as [string, string];
  const field = (type === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
  if (!field) throw new Error(`${ref} is not a field of the schema`);
  const scopes = (field.extensions as { pothosOptions?: { authScopes?: Record<string, boolean> } }).pothosOptions
    ?.authScopes;
  return (Object.keys(scopes ?? {})[0] as Scope | undefined) ?? null;
}

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** The last month, where the calls are (a longer range is refused with a validation error). */
const FROM = day(-30);
const TO = day(1);

/** Each report table's GraphQL field: typed by the product's list, so a new table must be added here. */
const REPORT_FIELDS: Record<ReportTable, string> = {
  trend: 'reportTrend(filter: $f, interval: DAY)',
  agents: 'reportAgents(filter: $f)',
  campaigns: 'reportCampaigns(filter: $f)',
  criteria: 'reportCriteria(filter: $f)',
  distribution: 'reportScoreDistribution(filter: $f)',
  topics: 'reportTopics(filter: $f, interval: MONTH)',
  sentiment: 'reportSentiment(filter: $f, interval: MONTH)',
  disputes: 'reportDisputes(filter: $f, interval: MONTH)',
};

/**
 * How to compare each route with its GraphQL twin for one caller; returns the mismatches. An empty
 * answer of the route (401/403/404) where the twin answers data is also a mismatch: the rule is one.
 */
const CHECKS: Record<RouteAccessName, (who: Who) => Promise<string[]>> = {
  async callsCsv(who) {
    const r = await get(who, '/api/calls/export.csv');
    // The export is the list's ANALYZED view.
    const g = await gql(who, '{ calls(first: 100, filter: { view: ANALYZED }) { edges { node { id } } } }');
    const viaGraphql = g.refused ? null : g.data.calls.edges.map((e: any) => e.node.id).sort();
    const viaRoute =
      r.status === 200
        ? parseCsv((await r.text()).replace(/^\uFEFF/, ''))
            .slice(1)
            .map((row) => row[0])
            .filter(Boolean)
            .sort()
        : null;
    return JSON.stringify(viaRoute) === JSON.stringify(viaGraphql)
      ? []
      : [`calls.csv ${r.status} ${JSON.stringify(viaRoute)} vs calls ${JSON.stringify(viaGraphql)}`];
  },
  async recording(who) {
    const out: string[] = [];
    for (const [which, id] of Object.entries(calls)) {
      const r = await get(who, `/api/calls/${id}/recording`);
      await r.arrayBuffer();
      const g = await gql(who, `{ call(id: "${id}") { id } }`);
      const readable = !g.refused && g.data?.call != null;
      if ((r.status === 200) !== readable)
        out.push(`recording of ${which} call: ${r.status}, call readable ${readable}`);
    }
    return out;
  },
  async reportCsv(who) {
    const out: string[] = [];
    for (const table of REPORT_TABLES) {
      const field = REPORT_FIELDS[table];
      const r = await get(who, `/api/reports/${table}.csv?from=${FROM}&to=${TO}`);
      await r.text();
      const g = await gql(
        who,
        `query { x: ${field.replace('$f', `{ from: "${FROM}", to: "${TO}" }`)} { __typename } }`,
      );
      const answers = !g.refused && g.data?.x != null && !/Error$/.test(g.data.x.__typename);
      // Only data answers count (a valid filter), else the comparison would prove nothing.
      if (who === 'owner' && !answers) out.push(`${table}: the owner gets no data, fix the test's filter`);
      if ((r.status === 200) !== answers)
        out.push(`${table}.csv: ${r.status}, ${field.split('(')[0]} answers ${answers}`);
    }
    return out;
  },
  async auditCsv(who) {
    const r = await get(who, '/api/audit-log.csv');
    await r.text();
    const g = await gql(who, '{ auditLog(first: 1) { edges { node { id } } } }');
    return (r.status === 200) !== !g.refused ? [`audit-log.csv: ${r.status}, auditLog refused ${g.refused}`] : [];
  },
  async upload(who) {
    const form = new FormData();
    // An agent id of account A: another account's user must not get a call that refers to it.
    form.append('agent_id', agentIdOfA);
    form.append('file', new Blob([wavBytes(4000)], { type: 'audio/wav' }), 'upload.wav');
    const r = await fetch(`${svc.url}/api/uploads`, { method: 'POST', body: form, headers: headers(who) });
    const body = (await r.json()) as { results?: { id?: string }[] };
    const allowed = who !== 'signedOut' && who !== 'otherAccount' && hasScope(who, ROUTE_ACCESS.upload.scope);
    const out: string[] = [];
    if ((r.status === 200) !== (allowed || who === 'otherAccount'))
      out.push(`uploads: ${r.status} for ${who} (${ROUTE_ACCESS.upload.scope} required)`);
    const created = (body.results ?? []).map((x) => x.id).filter(Boolean);
    if (who === 'otherAccount' && created.length) out.push(`uploads: another account's agent accepted: ${created}`);
    return out;
  },
};

describe('HTTP routes of the app take the scope of their GraphQL twins', () => {
  test('every /api route of the service names its access entry', async () => {
    const api = (await buildRoutes(svc.app)).filter((r) => r.path.source.startsWith('^\\/api\\/')) as AppRoute[];
    expect(api.length).toBeGreaterThanOrEqual(5);
    for (const r of api) expect(ROUTE_ACCESS[r.access], r.path.source).toBeDefined();
    expect(new Set(api.map((r) => r.access))).toEqual(new Set(Object.keys(ROUTE_ACCESS)));
    expect(Object.keys(CHECKS).sort()).toEqual(Object.keys(ROUTE_ACCESS).sort());
  });

  test("each entry's scope is its GraphQL twins' scope", () => {
    for (const [name, a] of Object.entries(ROUTE_ACCESS)) {
      if (!a.twins.length) expect((a as { noTwin?: string }).noTwin, name).toBeTruthy();
      for (const twin of a.twins) expect(scopeOf(twin), `${name} → ${twin}`).toBe(a.scope);
    }
  });

  test('no route answers any role (or another account) data that its GraphQL twin refuses', async () => {
    const problems: string[] = [];
    for (const name of Object.keys(CHECKS) as RouteAccessName[])
      for (const who of WHO) for (const p of await CHECKS[name](who)) problems.push(`${who}: ${p}`);
    expect(problems).toEqual([]);
  });
});
