// `npm run bench:scale [-- --json] [-- --calls 1000000] [-- --runs 40]`
//
// The calls list at a million calls. Seeds one account in a throwaway database straight with SQL
// (100 agents, 8 campaigns, a year of calls with realistic spreads of status, score, topic,
// language, duration and a six-line transcript each), starts the real service (api role) in a
// child process, signs in, and sends exactly the GraphQL documents the web app sends — read from
// src/web/pages/Calls.tsx and CallDetail.tsx, so the benchmark follows the app — for every view,
// sort, filter, search, the tab counts, the filter options and the call page; then downloads a
// CSV export of 100,000 rows. Each case runs `--runs` times after two warm-ups and prints p50/p95
// next to the issue's goal. In the same run, the same database answers the SQL the app used
// before (count(*) per view, DISTINCT topics, ORDER BY coalesce(score, -1)) as a baseline.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb } from '../../src/db/client.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import {
  BENCH_APP_SECRET,
  benchWorkspace,
  type MeasuredChild,
  note,
  percentile,
  repoRoot,
  round,
  startChild,
  table,
} from './lib.ts';

const { values: args } = parseArgs({
  strict: false,
  options: {
    json: { type: 'boolean', default: false },
    calls: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '40' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: npm run bench:scale -- [--json] [--calls 1000000] [--runs 40] [--only TEXT (cases whose name has TEXT)] [--keep (keep the seeded database escucha_bench_scale_<calls> and reuse it next time)]',
  );
  process.exit(0);
}
const CALLS = Number(args.calls);
const RUNS = Number(args.runs);
if (!Number.isInteger(CALLS) || CALLS < 1000 || !Number.isInteger(RUNS) || RUNS < 5) {
  console.error('--calls must be a whole number ≥ 1000 and --runs ≥ 5');
  process.exit(2);
}
const PASSWORD = 'bench-password-1234';
const here = import.meta.dirname;
const YEAR_START = new Date('2025-01-01T00:00:00Z');

// ---------------------------------------------------------------------------------------------
// The web app's documents
// ---------------------------------------------------------------------------------------------

/** The text of `graphql(\`…\`)` documents in a web page, by operation name. */
function webDocuments(file: string): Map<string, string> {
  const src = readFileSync(path.join(repoRoot, 'src/web/pages', file), 'utf8');
  const docs = new Map<string, string>();
  for (const m of src.matchAll(/graphql\(\s*`([\s\S]*?)`/g)) {
    const name = /\b(?:query|mutation|subscription)\s+(\w+)/.exec(m[1]!)?.[1];
    if (name) docs.set(name, m[1]!);
  }
  return docs;
}

function doc(docs: Map<string, string>, name: string): string {
  const d = docs.get(name);
  if (!d) throw new Error(`the web app no longer sends a ${name} document; update bench:scale`);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface Seeded {
  accountId: string;
  email: string;
  agentId: string;
  campaignId: string;
  callId: string;
}

const TOPICS = [
  'Billing',
  'Cancellation',
  'Technical issue',
  'Sales',
  'Delivery',
  'Refund',
  'Address change',
  'Complaint',
  'Contract',
  'Payment plan',
  'Roaming',
  'Other',
];

// Lines the transcripts are made of. "gracias"/"thank" are common words (in most calls); "hipoteca"
// is rare (added to 1 call in 2,000); "refund" lets the prefix "refun" find something.
const LINES: [speaker: string, text: string][] = [
  ['customer', 'Hola, llamo porque me han cobrado dos veces la factura de este mes.'],
  ['customer', 'Quiero darme de baja del servicio, ya no lo necesito.'],
  ['customer', 'El router no tiene conexión desde ayer por la tarde.'],
  ['customer', 'Me interesa la oferta de fibra y móvil que vi en la web.'],
  ['customer', 'El pedido no ha llegado y el seguimiento no se actualiza.'],
  ['customer', 'I would like a refund for the duplicated charge on my invoice.'],
  ['customer', 'Necesito cambiar la dirección de envío de mi contrato.'],
  ['customer', 'Quiero poner una reclamación por la atención de la semana pasada.'],
  ['customer', 'My internet keeps dropping every evening around eight.'],
  ['customer', '¿Puedo pagar la deuda en varios plazos sin recargo?'],
  ['agent', 'Déjeme revisar su cuenta un momento, por favor.'],
  ['agent', 'Veo el cargo duplicado; le tramito el abono ahora mismo.'],
  ['agent', 'Le confirmo que el técnico pasará mañana entre las nueve y las dos.'],
  ['agent', 'I can see the payment; the refund will reach your card in five days.'],
  ['agent', 'He actualizado la dirección; recibirá un correo de confirmación.'],
  ['agent', 'Let me check the order status with the courier for you.'],
  ['agent', 'Le ofrezco un descuento del veinte por ciento durante seis meses.'],
  ['agent', 'Su reclamación queda registrada con el número que le envío por SMS.'],
  ['customer', 'Vale, perfecto, así me queda más claro.'],
  ['customer', 'Okay, that works for me, thanks for checking.'],
];
const GREETINGS = [
  'Buenos días, gracias por llamar a Acme, le atiende Ana.',
  'Good morning, thank you for calling Acme.',
];
const CLOSINGS = [
  '¿Puedo ayudarle en algo más? Muchas gracias por su llamada.',
  'Is there anything else? Thank you, goodbye.',
];
const RARE = 'Tengo también una duda sobre la hipoteca.';

const sqlArray = (items: string[]) => `ARRAY[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ')}]`;

/** Set on a kept database once its seeding finished, so an interrupted seed is never reused. */
const SEEDED_MARK = (calls: number) => `bench:scale seeded ${calls} calls`;

/** What a kept, fully seeded database holds (see `--keep`), or null when it was not seeded to the end. */
async function seededBefore(url: string, name: string): Promise<Seeded | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const mark = await client.query<{ c: string | null }>(
      'SELECT shobj_description(oid, $2) AS c FROM pg_database WHERE datname = $1',
      [name, 'pg_database'],
    );
    if (mark.rows[0]?.c !== SEEDED_MARK(CALLS)) return null;
    const { rows } = await client.query<Seeded>(
      `SELECT a.id AS "accountId", u.email, c.agent_id AS "agentId", c.campaign_id AS "campaignId", c.id AS "callId"
         FROM accounts a JOIN users u ON u.account_id = a.id AND u.role = 'owner'
         CROSS JOIN LATERAL (SELECT agent_id, campaign_id, id FROM calls
                              WHERE account_id = a.id AND status = 'analyzed' AND campaign_id IS NOT NULL
                              ORDER BY started_at DESC LIMIT 1) c
        WHERE a.name = 'Bench Scale'`,
    );
    return rows[0] ?? null;
  } finally {
    await client.end();
  }
}

/**
 * Each run starts the service with a fresh APP_SECRET, and the service refuses a database whose key
 * check another secret recorded (issue 25.2). A kept bench database seals nothing (no webhook
 * endpoints), so its record is dropped and the next service start records its own.
 */
async function forgetAppSecret(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DELETE FROM app_key_check').finally(() => client.end());
}

async function markSeeded(url: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`COMMENT ON DATABASE ${name} IS '${SEEDED_MARK(CALLS)}'`).finally(() => client.end());
}

async function seed(url: string): Promise<Seeded> {
  const prisma = createDb(url, { max: 2 });
  const { account, owner } = await createAccount(prisma, {
    name: 'Bench Scale',
    minutes: 1_000_000_000,
    seats: 200,
    timeZone: 'Europe/Madrid',
  });
  await prisma.user.update({ where: { email: owner.email }, data: { passwordHash: await hashPassword(PASSWORD) } });
  await prisma.$disconnect();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO agents (id, account_id, name, name_normalized, code, code_normalized, active)
       SELECT gen_random_uuid(), $1, 'Agente ' || lpad(g::text, 3, '0'), 'agente' || g, 'AG-' || g, 'ag' || g, g <= 90
         FROM generate_series(1, 100) g`,
      [account.id],
    );
    await client.query(
      `INSERT INTO campaigns (id, account_id, name, name_normalized, language)
       SELECT gen_random_uuid(), $1, 'Campaña ' || g, 'campana' || g, CASE WHEN g <= 6 THEN 'es' ELSE 'en' END
         FROM generate_series(1, 8) g`,
      [account.id],
    );
    // A million rows are inserted fastest without secondary indexes, which are built afterwards
    // from their own definitions (whatever this version of the schema has), and without the
    // per-row live-update notification (no one listens yet).
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = 'calls' AND i.indexname <> 'calls_pkey'`,
    );
    for (const i of indexes) await client.query(`DROP INDEX ${i.name}`);
    await client.query('ALTER TABLE calls DISABLE TRIGGER calls_notify_updated');
    await client.query(`SET maintenance_work_mem = '256MB'`);
    await client.query('SELECT setseed(0.42)');
    const lines = LINES.map((l) => l[1]);
    const speakers = LINES.map((l) => l[0]);
    const seg = (i: number, text: string, speaker: string) =>
      `jsonb_build_object('start', ${i * 9}.5, 'end', ${i * 9 + 8}.0, 'speaker', ${speaker}, 'text', ${text}, 'channel', 0)`;
    await client.query(
      `WITH a AS (SELECT array_agg(id ORDER BY code) AS ids FROM agents WHERE account_id = $1),
            c AS (SELECT array_agg(id ORDER BY name) AS ids FROM campaigns WHERE account_id = $1),
            x AS (SELECT g, random() AS r, random() AS u1, random() AS u2, random() AS u3, random() AS u4, random() AS u5,
                         1 + floor(random() * ${LINES.length})::int AS l1, 1 + floor(random() * ${LINES.length})::int AS l2,
                         1 + floor(random() * ${LINES.length})::int AS l3, 1 + floor(random() * 2)::int AS gr
                    FROM generate_series(1, $2::int) g),
            y AS (SELECT x.*,
                         CASE WHEN r < 0.90 THEN 'analyzed' WHEN r < 0.95 THEN 'transcribed' WHEN r < 0.999 THEN 'failed'
                              WHEN r < 0.9995 THEN 'queued' ELSE 'transcribing' END AS st,
                         ${sqlArray(lines)} AS lt, ${sqlArray(speakers)} AS ls,
                         CASE WHEN g % 2000 = 7 THEN '${RARE}' ELSE NULL END AS rare
                    FROM x)
       INSERT INTO calls (id, account_id, external_id, source, status, failure_reason, agent_id, campaign_id, started_at,
                          customer_phone, customer_name, direction, language, detected_language, file_name, file_size,
                          file_sha256, content_type, storage_key, duration_seconds, channels, reserved_minutes,
                          used_minutes, period, segments, search_text, score, topic, summary, analyzed_at)
       SELECT gen_random_uuid(), $1, 'crm-' || g, 'api', st::"CallStatus",
              CASE WHEN st = 'failed' THEN (ARRAY['undecodable', 'no_speech', 'too_long'])[1 + g % 3] END,
              a.ids[1 + floor(u1 * 100)::int], CASE WHEN u4 < 0.2 THEN NULL ELSE c.ids[1 + floor(u4 * 10)::int % 8] END,
              $3::timestamptz + (g::float8 / $2::int) * interval '365 days' + (u3 * interval '30 seconds'),
              '+34' || (600000000 + g), CASE WHEN g % 3 = 0 THEN 'Cliente Núñez ' || g END,
              (CASE WHEN g % 3 = 0 THEN 'outbound' ELSE 'inbound' END)::"CallDirection",
              CASE WHEN u4 < 0.2 THEN NULL WHEN u5 < 0.6 THEN 'es' ELSE NULL END,
              CASE WHEN st IN ('queued', 'transcribing') THEN NULL WHEN gr = 1 THEN 'es' ELSE 'en' END,
              'out-' || (600000000 + g) || '.wav', 1048576, md5(g::text) || md5((g + 1)::text), 'audio/wav',
              'bench/' || g || '.wav',
              CASE WHEN st IN ('queued', 'transcribing') THEN NULL ELSE round((30 + u3 * u3 * 870)::numeric, 1) END, 2, 2,
              CASE WHEN st IN ('analyzed', 'transcribed') THEN 1 + floor(u3 * u3 * 15)::int END, '2025-01',
              CASE WHEN st IN ('analyzed', 'transcribed') THEN jsonb_build_array(
                ${seg(0, `(ARRAY['${GREETINGS[0]}', '${GREETINGS[1]}'])[gr]`, "'agent'")},
                ${seg(1, 'lt[l1]', 'ls[l1]')}, ${seg(2, 'lt[l2]', 'ls[l2]')}, ${seg(3, 'lt[l3]', 'ls[l3]')},
                ${seg(4, `coalesce(rare, lt[1 + (l1 + l2) % ${LINES.length}])`, `CASE WHEN rare IS NULL THEN ls[1 + (l1 + l2) % ${LINES.length}] ELSE 'customer' END`)},
                ${seg(5, `(ARRAY['${CLOSINGS[0]}', '${CLOSINGS[1]}'])[gr]`, "'agent'")}) END,
              CASE WHEN st IN ('analyzed', 'transcribed') THEN
                translate(lower(concat_ws(' ', (ARRAY['${GREETINGS[0]}', '${GREETINGS[1]}'])[gr], lt[l1], lt[l2], lt[l3],
                                          coalesce(rare, lt[1 + (l1 + l2) % ${LINES.length}]),
                                          (ARRAY['${CLOSINGS[0]}', '${CLOSINGS[1]}'])[gr])),
                          'áéíóúñü¿?¡!,.;', 'aeiounu       ') END,
              CASE WHEN st <> 'analyzed' THEN NULL WHEN u1 * 1000 - floor(u1 * 1000) < 0.04 THEN 0
                   ELSE round(greatest(0, least(100, 78 + 16 * sqrt(-2 * ln(greatest(u2, 1e-9))) * cos(2 * pi() * u3)))::numeric, 1) END,
              CASE WHEN st = 'analyzed' THEN (ARRAY[${TOPICS.map((t) => `'${t}'`).join(', ')}])[1 + floor(u5 * u5 * ${TOPICS.length})::int] END,
              CASE WHEN st = 'analyzed' THEN 'El cliente llama por una factura duplicada. La agente revisa la cuenta y tramita el abono.' END,
              CASE WHEN st = 'analyzed' THEN now() END
         FROM y, a, c`,
      [account.id, CALLS, YEAR_START],
    );
    await client.query('ALTER TABLE calls ENABLE TRIGGER calls_notify_updated');
    for (const i of indexes) await client.query(i.def);
    await client.query('VACUUM (ANALYZE) calls');
    const { rows } = await client.query<{ agent_id: string; campaign_id: string; id: string }>(
      `SELECT agent_id, campaign_id, id FROM calls WHERE account_id = $1 AND status = 'analyzed' AND campaign_id IS NOT NULL
        ORDER BY started_at DESC LIMIT 1`,
      [account.id],
    );
    return {
      accountId: account.id,
      email: owner.email,
      agentId: rows[0]!.agent_id,
      campaignId: rows[0]!.campaign_id,
      callId: rows[0]!.id,
    };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Client side
// ---------------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(url: string, cookie: string, body: unknown): Promise<{ status: number; text: string; ms: number }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-escucha-csrf': '1',
          cookie,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function signIn(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
    body: JSON.stringify({
      query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename } }',
      variables: { e: email, p: PASSWORD },
    }),
  });
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('escucha_session=') && c.length > 'escucha_session='.length);
  if (!cookie) throw new Error(`sign-in failed (${r.status})`);
  return cookie;
}

interface Case {
  group: string;
  name: string;
  goalMs: number | null;
  run: () => Promise<{ ms: number; data: unknown }>;
}

interface Result {
  group: string;
  name: string;
  p50: number;
  p95: number;
  goalMs: number | null;
  meets: boolean | null;
  note: string;
  /** The service's own CPU per request (ms), which other load on the machine barely moves. */
  cpuMs: number | null;
}

async function measure(c: Case, service?: MeasuredChild): Promise<Result & { last: unknown }> {
  let last: unknown = null;
  const times: number[] = [];
  let cpuBefore = 0;
  for (let i = 0; i < RUNS + 2; i++) {
    if (i === 2 && service) cpuBefore = await service.cpuMs();
    const { ms, data } = await c.run();
    if (i >= 2) times.push(ms);
    last = data;
  }
  const cpuMs = service ? round(((await service.cpuMs()) - cpuBefore) / RUNS, 1) : null;
  times.sort((a, b) => a - b);
  const p50 = round(percentile(times, 50), 1);
  const p95 = round(percentile(times, 95), 1);
  return {
    group: c.group,
    name: c.name,
    p50,
    p95,
    goalMs: c.goalMs,
    meets: c.goalMs == null ? null : p95 <= c.goalMs,
    note: '',
    cpuMs,
    last,
  };
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-bench-scale-');
  try {
    // --keep: one database per size, kept after the run and reused by the next (seeding a million
    // calls takes minutes; iterating on the service should not).
    const keepName = args.keep ? `escucha_bench_scale_${CALLS}` : undefined;
    const db = await createBenchDb({ keep: keepName });
    let t = performance.now();
    const kept = db.reused && keepName ? await seededBefore(db.url, keepName) : null;
    if (db.reused && !kept)
      throw new Error(
        `the kept database ${keepName} was not seeded to the end (an interrupted run?); drop it (DROP DATABASE ${keepName}) and run again`,
      );
    if (kept) {
      note(`reusing the ${CALLS.toLocaleString('en')} calls kept in ${keepName}`);
      await forgetAppSecret(db.url);
    } else note(`seeding ${CALLS.toLocaleString('en')} calls…`);
    const s = kept ?? (await seed(db.url));
    if (keepName && !kept) await markSeeded(db.url, keepName);
    const seedSeconds = kept ? null : round((performance.now() - t) / 1000, 1);
    if (!kept) note(`seeded in ${seedSeconds} s`);

    const child = await startChild(path.join(here, 'intake-server.ts'), {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      DATA_DIR: path.join(work, 'service'),
      APP_SECRET: BENCH_APP_SECRET,
      PUBLIC_URL: 'https://escucha.example',
    });
    const results: Result[] = [];
    try {
      const cookie = await signIn(child.url, s.email);
      const gql = async (query: string, variables: Record<string, unknown> = {}) => {
        const r = await post(`${child.url}/graphql`, cookie, { query, variables });
        const body = JSON.parse(r.text) as { data?: unknown; errors?: { message: string }[] };
        if (r.status !== 200 || body.errors?.length)
          throw new Error(`GraphQL answered ${r.status}: ${body.errors?.[0]?.message ?? r.text.slice(0, 200)}`);
        return { ms: r.ms, data: body.data };
      };
      const calls = webDocuments('Calls.tsx');
      const detail = webDocuments('CallDetail.tsx');
      const LIST = doc(calls, 'CallsList');
      const COUNTS = doc(calls, 'CallCounts');
      const OPTIONS = doc(calls, 'CallFilterOptions');
      const DETAIL = doc(detail, 'CallDetail');
      const list = (filter: Record<string, unknown>, sort = 'STARTED_AT', order = 'DESC', extra = {}) =>
        gql(LIST, { filter, first: 25, sort, order, ...extra });
      const LIST_GOAL = 30;
      const SEARCH_GOAL = 60;
      const view = { view: 'ANALYZED' };

      // A cursor deep in the list: the 41st page (1,000 rows in), reached once.
      let deep: string | null = null;
      {
        let after: string | null = null;
        for (let i = 0; i < 40; i++) {
          const r = (await list(view, 'SCORE', 'DESC', { after })).data as {
            calls: { pageInfo: { endCursor: string } };
          };
          after = r.calls.pageInfo.endCursor;
        }
        deep = after;
      }
      const monthFrom = new Date(YEAR_START.getTime() + 200 * 86_400_000).toISOString();
      const monthTo = new Date(YEAR_START.getTime() + 230 * 86_400_000).toISOString();
      const cases: Case[] = [
        { group: 'list', name: 'analyzed, newest first', goalMs: LIST_GOAL, run: () => list(view) },
        { group: 'list', name: 'analyzed, by score', goalMs: LIST_GOAL, run: () => list(view, 'SCORE') },
        {
          group: 'list',
          name: 'analyzed, score 0–20, newest first',
          goalMs: LIST_GOAL,
          run: () => list({ ...view, scoreMin: 0, scoreMax: 20 }),
        },
        {
          group: 'list',
          name: 'analyzed, oldest first',
          goalMs: LIST_GOAL,
          run: () => list(view, 'STARTED_AT', 'ASC'),
        },
        {
          group: 'list',
          name: 'analyzed, lowest score first',
          goalMs: LIST_GOAL,
          run: () => list(view, 'SCORE', 'ASC'),
        },
        { group: 'list', name: 'analyzed, longest first', goalMs: LIST_GOAL, run: () => list(view, 'DURATION') },
        {
          group: 'list',
          name: 'analyzed, by score, page 41',
          goalMs: LIST_GOAL,
          run: () => list(view, 'SCORE', 'DESC', { after: deep }),
        },
        {
          group: 'list',
          name: 'in progress, newest first',
          goalMs: LIST_GOAL,
          run: () => list({ view: 'IN_PROGRESS' }),
        },
        { group: 'list', name: 'failed, newest first', goalMs: LIST_GOAL, run: () => list({ view: 'FAILED' }) },
        {
          group: 'list',
          name: 'failed, by duration',
          goalMs: LIST_GOAL,
          run: () => list({ view: 'FAILED' }, 'DURATION'),
        },
        { group: 'filter', name: 'agent', goalMs: LIST_GOAL, run: () => list({ ...view, agentIds: [s.agentId] }) },
        {
          group: 'filter',
          name: 'campaign, by score',
          goalMs: LIST_GOAL,
          run: () => list({ ...view, campaignIds: [s.campaignId] }, 'SCORE'),
        },
        { group: 'filter', name: 'topic', goalMs: LIST_GOAL, run: () => list({ ...view, topic: 'Roaming' }) },
        { group: 'filter', name: 'language en', goalMs: LIST_GOAL, run: () => list({ ...view, language: 'en' }) },
        {
          group: 'filter',
          name: '30 days, outbound',
          goalMs: LIST_GOAL,
          run: () => list({ ...view, startedFrom: monthFrom, startedTo: monthTo, direction: 'OUTBOUND' }),
        },
        {
          group: 'search',
          name: 'common word ("gracias")',
          goalMs: SEARCH_GOAL,
          run: () => list({ ...view, search: 'gracias' }),
        },
        {
          // "El router no tiene conexión" is one line of twenty, and a call has four of them: about
          // one call in five. Common enough that listing every match first is slow, rare enough
          // that a capped count reads thousands of transcripts.
          group: 'search',
          name: 'common word, one call in five ("router")',
          goalMs: SEARCH_GOAL,
          run: () => list({ ...view, search: 'router' }),
        },
        {
          group: 'search',
          name: 'rare word ("hipoteca")',
          goalMs: SEARCH_GOAL,
          run: () => list({ ...view, search: 'hipoteca' }),
        },
        {
          group: 'search',
          name: 'prefix being typed ("refun")',
          goalMs: SEARCH_GOAL,
          run: () => list({ ...view, search: 'refun' }),
        },
        {
          group: 'search',
          name: 'two words ("factura cobrado")',
          goalMs: SEARCH_GOAL,
          run: () => list({ ...view, search: 'factura cobrado' }),
        },
        { group: 'counts', name: 'three view counts', goalMs: 10, run: () => gql(COUNTS, countFilters({})) },
        {
          group: 'counts',
          name: 'three view counts, agent filter',
          goalMs: null,
          run: () => gql(COUNTS, countFilters({ agentIds: [s.agentId] })),
        },
        {
          group: 'counts',
          name: 'three view counts, search "gracias"',
          goalMs: null,
          run: () => gql(COUNTS, countFilters({ search: 'gracias' })),
        },
        {
          group: 'counts',
          name: 'three view counts, search "router"',
          goalMs: null,
          run: () => gql(COUNTS, countFilters({ search: 'router' })),
        },
        {
          group: 'counts',
          name: 'three view counts, score 0–20',
          goalMs: null,
          run: () => gql(COUNTS, countFilters({ scoreMin: 0, scoreMax: 20 })),
        },
        { group: 'options', name: 'filter options', goalMs: 10, run: () => gql(OPTIONS) },
        { group: 'call', name: 'call page', goalMs: null, run: () => gql(DETAIL, { id: s.callId }) },
      ];
      for (const c of cases) {
        if (typeof args.only === 'string' && !`${c.group}: ${c.name}`.includes(args.only)) continue;
        note(`${c.group}: ${c.name}…`);
        const r = await measure(c, child);
        const count = (r.last as { calls?: { totalCount?: number; edges?: unknown[] } }).calls;
        if (count?.edges) r.note = `${count.edges.length} rows of ${count.totalCount?.toLocaleString('en')}`;
        results.push(r);
      }

      // CSV export of 100,000 rows: the filter picks ~100 days of the year's calls.
      // (a case like any other for --only).
      if (typeof args.only !== 'string' || 'export: CSV'.includes(args.only)) {
        const days = Math.ceil((100_000 / Math.max(1, CALLS * 0.95)) * 365);
        const exportQuery = `?startedFrom=${YEAR_START.toISOString()}&startedTo=${new Date(YEAR_START.getTime() + days * 86_400_000).toISOString()}`;
        note('export: CSV…');
        const exportCpu = await child.cpuMs();
        t = performance.now();
        const rows = await download(`${child.url}/api/calls/export.csv${exportQuery}`, cookie);
        results.push({
          group: 'export',
          name: `CSV export (${rows.toLocaleString('en')} rows)`,
          p50: round(performance.now() - t, 0),
          p95: round(performance.now() - t, 0),
          goalMs: null,
          meets: null,
          cpuMs: round((await child.cpuMs()) - exportCpu, 0),
          note: 'one download',
        });
      }
    } finally {
      await child.stop();
    }

    const baseline = await baselineSql(db.url, s.accountId);
    report(results, baseline, seedSeconds, db.server);
  } finally {
    await cleanup();
  }
}

const countFilters = (f: Record<string, unknown>) => ({
  inProgress: { ...f, view: 'IN_PROGRESS' },
  analyzed: { ...f, view: 'ANALYZED' },
  failed: { ...f, view: 'FAILED' },
});

function download(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        let lines = 0;
        res.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve(Math.max(0, lines - 1)));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface SqlPair {
  name: string;
  before: { p50: number; p95: number };
  after: { p50: number; p95: number };
  goalMs: number;
}

/**
 * The SQL the app sent before issue 12 next to the SQL it sends now, on the same data in the same
 * run, without HTTP and GraphQL around them: the database's share of each figure above, and the
 * fairest before/after on a busy machine.
 */
async function baselineSql(url: string, accountId: string): Promise<SqlPair[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: SqlPair[] = [];
  const time = async (sqls: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 20) + 1; i++) {
      const t = performance.now();
      for (const sql of sqls) await client.query(sql, [accountId]);
      if (i) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) };
  };
  const pair = async (name: string, before: string[], after: string[], goalMs: number) =>
    out.push({ name, before: await time(before), after: await time(after), goalMs });
  const VIEWS = ['{queued,transcribing,analyzing}', '{analyzed,transcribed}', '{failed}'];
  const view = `status = ANY('{analyzed,transcribed}'::"CallStatus"[])`;
  try {
    await pair(
      'three view counts',
      VIEWS.map((v) => `SELECT count(*) FROM calls WHERE account_id = $1 AND status = ANY('${v}'::"CallStatus"[])`),
      VIEWS.map(
        (v) =>
          `SELECT coalesce(sum(calls), 0) FROM call_counts WHERE account_id = $1 AND status = ANY('${v}'::"CallStatus"[])`,
      ),
      10,
    );
    await pair(
      'filter options (topics)',
      [`SELECT DISTINCT topic FROM calls WHERE account_id = $1 AND topic IS NOT NULL ORDER BY topic LIMIT 500`],
      [
        `SELECT kind, value FROM call_facets WHERE account_id = $1 AND kind <> 'direction'
          GROUP BY kind, value HAVING sum(calls) > 0 ORDER BY kind, value LIMIT 5000`,
      ],
      10,
    );
    await pair(
      'page by score, newest first',
      [`SELECT id FROM calls c WHERE account_id = $1 AND ${view} ORDER BY coalesce(score, -1) DESC, id DESC LIMIT 26`],
      [
        `SELECT id FROM (
           (SELECT 0 AS part, id, score FROM calls c WHERE account_id = $1 AND ${view} AND score IS NOT NULL
             ORDER BY score DESC NULLS LAST, id DESC LIMIT 26)
           UNION ALL
           (SELECT 1, id, score FROM calls c WHERE account_id = $1 AND ${view} AND score IS NULL
             ORDER BY score DESC NULLS LAST, id DESC LIMIT 26)) p ORDER BY part, score DESC, id DESC LIMIT 26`,
      ],
      30,
    );
    await pair(
      'count of score 0–20',
      [`SELECT count(*) FROM calls WHERE account_id = $1 AND ${view} AND score >= 0 AND score <= 20`],
      [
        `SELECT count(*) FROM (SELECT 1 FROM calls WHERE account_id = $1 AND ${view} AND score >= 0 AND score <= 20 LIMIT 10001) x`,
      ],
      30,
    );
    // Issue 30: the two list cases it measured, page and count together, as sent before and now.
    const band = `${view} AND score >= 0 AND score <= 20`;
    await pair(
      'score 0–20: page and count (issue 30)',
      [
        `SELECT id FROM calls c WHERE account_id = $1 AND ${band} ORDER BY started_at DESC, id DESC LIMIT 26`,
        `SELECT count(*) FROM (SELECT 1 FROM calls WHERE account_id = $1 AND ${band} LIMIT 10001) x`,
      ],
      [
        `SELECT id FROM calls c WHERE account_id = $1 AND ${band} ORDER BY started_at DESC, id DESC LIMIT 26`,
        `SELECT coalesce(sum(calls), 0) FROM call_score_counts WHERE account_id = $1
            AND status = ANY('{analyzed,transcribed}'::"CallStatus"[]) AND bucket >= 0 AND bucket < 20`,
        `SELECT count(*) FROM (SELECT 1 FROM calls c WHERE account_id = $1 AND ${view} AND score >= 20 AND score <= 20 LIMIT 10001) x`,
      ],
      30,
    );
    const router = `search_vector @@ to_tsquery('simple', 'router:*')`;
    await pair(
      'search "router": page and count (issue 30)',
      [
        `SELECT id FROM calls c WHERE account_id = $1 AND ${view} AND ${router} LIMIT 2001`,
        `SELECT id FROM calls c WHERE account_id = $1 AND ${view} AND ${router} ORDER BY started_at DESC, id DESC LIMIT 26`,
        `SELECT count(*) FROM (SELECT 1 FROM calls c WHERE account_id = $1 AND ${view} AND ${router} LIMIT 1001) x`,
      ],
      [
        `SELECT reltuples, $1::uuid FROM pg_class WHERE oid = 'calls'::regclass`,
        `EXPLAIN (FORMAT JSON) SELECT 1 FROM calls c WHERE ${router} AND $1::uuid IS NOT NULL`,
        `SELECT c.id FROM (SELECT c.id, c.started_at, ${router} AS hit,
                (row_number() OVER (ORDER BY c.started_at DESC, c.id DESC))::int AS n
             FROM calls c WHERE account_id = $1 AND ${view} ORDER BY c.started_at DESC, c.id DESC LIMIT 2000) c
          WHERE c.hit OR c.n = 2000 ORDER BY c.started_at DESC, c.id DESC LIMIT 26`,
        `SELECT count(*) FROM (SELECT 1 FROM calls c WHERE account_id = $1 AND ${view} AND ${router} LIMIT 1001) x`,
      ],
      60,
    );
    await pair(
      'count of search "gracias"',
      [
        `SELECT count(*) FROM calls WHERE account_id = $1 AND ${view} AND search_vector @@ websearch_to_tsquery('simple', 'gracias')`,
      ],
      [
        `SELECT count(*) FROM (SELECT 1 FROM calls WHERE account_id = $1 AND ${view}
            AND search_vector @@ websearch_to_tsquery('simple', 'gracias') LIMIT 1001) x`,
      ],
      60,
    );
  } finally {
    await client.end();
  }
  return out;
}

function report(results: Result[], baseline: SqlPair[], seedSeconds: number | null, server: string) {
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          benchmark: 'scale',
          node: process.version,
          platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
          postgres: server,
          calls: CALLS,
          runs: RUNS,
          seedSeconds,
          results,
          baseline,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `\nCalls at scale — ${CALLS.toLocaleString('en')} calls ${seedSeconds == null ? 'kept from an earlier run' : `seeded in ${seedSeconds} s`}; ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${server}; ${RUNS} runs per case, times per GraphQL request as the web app sends it (ms)\n`,
  );
  const mark = (r: Result) => (r.meets == null ? '' : r.meets ? 'ok' : 'MISSED');
  console.log(
    table(
      ['what', 'case', 'p50', 'p95', 'goal p95', '', 'service CPU/req', 'note'],
      results.map((r) => [
        r.group,
        r.name,
        r.p50,
        r.p95,
        r.goalMs == null ? '—' : `≤ ${r.goalMs}`,
        mark(r),
        r.cpuMs ?? '—',
        r.note,
      ]),
    ),
  );
  console.log(
    "\nThe database's share, same data, same run: the SQL sent before issue 12 (or issue 30, where marked) and the SQL sent now (ms)\n",
  );
  console.log(
    table(
      ['case', 'before p50', 'before p95', 'now p50', 'now p95', 'goal (whole request)'],
      baseline.map((r) => [r.name, r.before.p50, r.before.p95, r.after.p50, r.after.p95, `≤ ${r.goalMs}`]),
    ),
  );
  const missed = results.filter((r) => r.meets === false);
  if (missed.length) console.log(`\n${missed.length} case(s) missed their goal.`);
}

await main();
