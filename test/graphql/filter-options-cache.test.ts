// The calls list's filter options are kept in memory by each api process (issue 12): the web app
// asks for them on every visit to the list. Two api processes share one database here; whatever
// changes the answer in one (or straight in SQL) reaches the other at once through LISTEN/NOTIFY,
// each account keeps its own answer, and roles are still checked on every request.
import { describe, expect } from '../support/harness.ts';
import { FilterOptionsCache } from '../../src/calls/filter-options-cache.ts';
import { Listener } from '../../src/db/listener.ts';
import type { TestDb } from '../support/db.ts';
import { insertCall, seedData } from './fixtures.ts';
import { Browser, PASSWORD, seedAccount, startGraphql, type Harness, test } from './support.ts';

let t: TestDb;
let one: Harness;
let two: Harness;
let acme: Awaited<ReturnType<typeof seedAccount>>;
let globex: Awaited<ReturnType<typeof seedAccount>>;
let acmeData: Awaited<ReturnType<typeof seedData>>;

const OPTIONS = `{ callFilterOptions { topics languages agents { id name } campaigns { id name } } callTopics }`;

/** An api process with its own cache, as startService builds it. */
async function apiProcess(): Promise<Harness> {
  const h = await startGraphql(t);
  h.app.filterOptions = new FilterOptionsCache(new Listener(t.url, h.app.log));
  await h.app.filterOptions.listening();
  return h;
}

test.beforeAll(async ({ db: testDb }) => {
  t = testDb;
  [one, two] = await Promise.all([apiProcess(), apiProcess()]);
  acme = await seedAccount(one, 'Acme');
  globex = await seedAccount(one, 'Globex');
  acmeData = await seedData(one.app.db, acme.account.id, 'Acme', acme.users.owner.id);
  await seedData(one.app.db, globex.account.id, 'Globex', globex.users.owner.id);
});
test.afterAll(async () => {
  for (const h of [one, two]) {
    await h?.app.filterOptions?.close();
    await h?.close();
  }
});

type Options = { topics: string[]; languages: string[]; agents: { id: string; name: string }[]; campaigns: unknown[] };

async function options(browser: Browser): Promise<Options & { callTopics: string[] }> {
  const r = await browser.gql(OPTIONS);
  expect(r.body.errors).toBeUndefined();
  return { ...r.body.data.callFilterOptions, callTopics: r.body.data.callTopics };
}

/** The same viewer, signed in on the second process. */
async function viewerOn(h: Harness, who: typeof acme): Promise<Browser> {
  const b = new Browser(h.url);
  await b.signIn(who.users.viewer.email, PASSWORD);
  return b;
}

/** Asks until `ok` holds; the deadline only bounds a failure (a notification takes milliseconds). */
async function eventually(ask: () => Promise<Options>, ok: (o: Options) => boolean): Promise<Options> {
  const started = Date.now();
  for (;;) {
    const o = await ask();
    if (ok(o)) return o;
    if (Date.now() - started > 5000) throw new Error(`still stale: ${JSON.stringify(o)}`);
  }
}

describe('filter options cache', () => {
  test('serves from memory, and a change made anywhere reaches every process', async () => {
    const onTwo = await viewerOn(two, acme);
    const first = await options(onTwo);
    expect(first.topics).not.toContain('Roaming');

    // Served from memory: a change that bypasses the feed (triggers off) is not seen…
    await t.sql('ALTER TABLE agents DISABLE TRIGGER agents_notify_filter_options');
    try {
      await t.sql('UPDATE agents SET name = $2 WHERE id = $1', [acmeData.agent.id, 'Quietly Renamed']);
      expect((await options(onTwo)).agents.map((a) => a.name)).not.toContain('Quietly Renamed');
    } finally {
      await t.sql('ALTER TABLE agents ENABLE TRIGGER agents_notify_filter_options');
    }

    // …and every real change is: a renamed agent, a new agent, campaign, topic and language
    // coming into use with a call written through the other process.
    await one.app.db.agent.update({ where: { id: acmeData.agent.id }, data: { name: 'Ana Renamed' } });
    await eventually(
      () => options(onTwo),
      (o) => o.agents.some((a) => a.name === 'Ana Renamed'),
    );
    const agent = await one.app.db.agent.create({
      data: { accountId: acme.account.id, name: 'Zoe New', nameNormalized: 'zoenew' },
    });
    const campaign = await one.app.db.campaign.create({
      data: { accountId: acme.account.id, name: 'Winter', nameNormalized: 'winter' },
    });
    const call = await insertCall(
      one.app.db,
      { accountId: acme.account.id, agentId: agent.id, campaignId: campaign.id },
      { topic: 'Roaming', language: null, detectedLanguage: 'pt' },
    );
    const after = await eventually(
      () => options(onTwo),
      (o) => o.topics.includes('Roaming'),
    );
    expect(after.languages).toContain('pt');
    expect(after.agents.map((a) => a.name)).toContain('Zoe New');
    expect(after.campaigns).toContainEqual(expect.objectContaining({ name: 'Winter' }));
    expect((await options(onTwo)).callTopics).toContain('Roaming');

    // The last call of a topic going away takes the topic, language and agent with it.
    await one.app.db.call.delete({ where: { id: call.id } });
    const gone = await eventually(
      () => options(onTwo),
      (o) => !o.topics.includes('Roaming'),
    );
    expect(gone.languages).not.toContain('pt');
    expect(gone.agents.map((a) => a.name)).not.toContain('Zoe New');
  });

  test('keeps each account its own answer', async () => {
    // Both accounts asked through the same process, one after the other, from a warm cache.
    for (let i = 0; i < 2; i++) {
      const a = await options(acme.as.viewer);
      const g = await options(globex.as.viewer);
      expect(a.agents.map((x) => x.name).every((n) => !n.startsWith('Globex'))).toBe(true);
      expect(g.agents.map((x) => x.name).every((n) => !n.startsWith('Acme') && n !== 'Ana Renamed')).toBe(true);
      expect(g.agents.length).toBeGreaterThan(0);
    }
    // A change in one account leaves the other's answer as it was, and is seen in its own.
    await one.app.db.agent.update({
      where: { id: (await options(globex.as.viewer)).agents[0]!.id },
      data: { name: 'Globex Renamed' },
    });
    await eventually(
      () => options(globex.as.viewer),
      (o) => o.agents.some((a) => a.name === 'Globex Renamed'),
    );
    expect((await options(acme.as.viewer)).agents.map((a) => a.name)).not.toContain('Globex Renamed');
  });

  test('shows the lists the filters offer (agents, campaigns, templates) after a change made through the same process at once', async () => {
    // The web app's own document for the filters.
    const FILTERS = `{ agents(includeInactive: true) { id name active } campaigns(includeArchived: true) { id name archived }
      templates { id } }`;
    const admin = acme.as.admin;
    const read = async () => (await admin.gql(FILTERS)).body.data;
    const before = await read();
    // Cached: a change that bypasses every way of hearing about it is not seen.
    await t.sql('ALTER TABLE campaigns DISABLE TRIGGER campaigns_notify_filter_options');
    try {
      await t.sql('UPDATE campaigns SET name = $2 WHERE account_id = $1', [acme.account.id, 'Quietly Renamed']);
      expect((await read()).campaigns.map((c: { name: string }) => c.name)).not.toContain('Quietly Renamed');
      await t.sql('UPDATE campaigns SET name = $2 WHERE id = $1', [acmeData.campaign.id, acmeData.campaign.name]);
    } finally {
      await t.sql('ALTER TABLE campaigns ENABLE TRIGGER campaigns_notify_filter_options');
    }
    // A mutation through this process drops the account's entries before its answer is sent, so
    // the very next request sees it with no wait for the database's notification (turned off
    // here, so only that can show it).
    await t.sql('ALTER TABLE agents DISABLE TRIGGER agents_notify_filter_options');
    try {
      const created = await admin.gql(
        'mutation($input: AgentInput!) { createAgent(input: $input) { __typename ... on Agent { id } } }',
        { input: { name: 'Nuevo Agente' } },
      );
      expect(created.body.data.createAgent.__typename).toBe('Agent');
    } finally {
      await t.sql('ALTER TABLE agents ENABLE TRIGGER agents_notify_filter_options');
    }
    const after = await read();
    expect(after.agents.map((a: { name: string }) => a.name)).toContain('Nuevo Agente');
    expect(after.agents).toHaveLength(before.agents.length + 1);
    expect(after.templates).toEqual(before.templates);
  });

  test('checks the user on every request: a removed user or a signed-out session gets nothing from the cache', async () => {
    const analyst = new Browser(one.url);
    await analyst.signIn(acme.users.analyst.email, PASSWORD);
    expect((await options(analyst)).agents.length).toBeGreaterThan(0);
    await one.app.db.user.update({ where: { id: acme.users.analyst.id }, data: { removedAt: new Date() } });
    const removed = await analyst.gql(OPTIONS);
    expect(removed.body.data?.callFilterOptions ?? null).toBeNull();
    expect(removed.body.errors?.length).toBeGreaterThan(0);

    const viewer = await viewerOn(one, acme);
    expect((await options(viewer)).agents.length).toBeGreaterThan(0);
    await t.sql('DELETE FROM sessions WHERE user_id = $1', [acme.users.viewer.id]);
    const signedOut = await viewer.gql(OPTIONS);
    expect(signedOut.body.data?.callFilterOptions ?? null).toBeNull();
  });

  test('serves nothing from memory while the change feed is down, and reads afresh once it is back', async () => {
    const onTwo = await viewerOn(two, acme);
    await options(onTwo);
    const listeners = async () =>
      (
        await t.sql<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'escucha-listen'`,
        )
      ).map((r) => r.pid);
    const before = await listeners();
    expect(before).toHaveLength(2);
    await t.sql('ALTER TABLE agents DISABLE TRIGGER agents_notify_filter_options');
    try {
      // The feed goes down and an agent is renamed while nobody hears about it.
      await t.sql('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
      await t.sql('UPDATE agents SET name = $2 WHERE id = $1', [acmeData.agent.id, 'Unheard Rename']);
      // Whether the feed is still down or already back, the answer is read afresh.
      await eventually(
        () => options(onTwo),
        (o) => o.agents.some((a) => a.name === 'Unheard Rename'),
      );
      for (let i = 0; ; i++) {
        const now = await listeners();
        if (now.length === 2 && !now.some((pid) => before.includes(pid))) break;
        if (i > 200) throw new Error('the change feed did not come back');
        await new Promise((r) => setTimeout(r, 25));
      }
      expect((await options(onTwo)).agents.map((a) => a.name)).toContain('Unheard Rename');
    } finally {
      await t.sql('ALTER TABLE agents ENABLE TRIGGER agents_notify_filter_options');
    }
  });
});
