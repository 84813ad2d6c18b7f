import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../src/context.ts';
import { authenticateApiKey } from '../../src/accounts/api-keys.ts';
import { verifyPassword } from '../../src/accounts/passwords.ts';
import type { TestDb } from '../support/db.ts';
import { cli, repoRoot, tempDir, testApp } from './support.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let tmp: ReturnType<typeof tempDir>;
let app: AppContext;

test.beforeAll(async ({ db }) => {
  t = db;
  tmp = tempDir();
  app = testApp(t, tmp.dir);
});
test.afterAll(async () => {
  tmp.remove();
});

async function newAccount(...extra: string[]): Promise<string> {
  const r = await cli(app, 'account:create', '--name', `Acme ${Math.random()}`, ...extra);
  expect(r.code).toBe(0);
  return r.json.account.id;
}

const examplesDir = path.join(repoRoot, 'src/analysis/examples');
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith('.json'));

describe('account:create', () => {
  test('prints the account id, owner email and a one-time password that is stored only hashed', async () => {
    const r = await cli(
      app,
      'account:create',
      '--name',
      'Telefónica Norte',
      '--minutes',
      '500',
      '--seats',
      '3',
      '--timezone',
      'Europe/Madrid',
      '--email',
      'Boss@Example.com',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const { account, owner } = r.json;
    expect(account).toMatchObject({
      name: 'Telefónica Norte',
      timeZone: 'Europe/Madrid',
      planMinutes: 500,
      planSeats: 3,
    });
    expect(owner.email).toBe('boss@example.com');
    expect(owner.password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    const [user] = await t.sql('SELECT * FROM users WHERE account_id = $1', [account.id]);
    expect(user.email).toBe('boss@example.com');
    expect(user.role).toBe('owner');
    expect(await verifyPassword(owner.password, user.password_hash)).toBe(true);
    expect(await verifyPassword('wrong-pass-word-xx', user.password_hash)).toBe(false);
    // Not in any column, in any form.
    expect(JSON.stringify(user)).not.toContain(owner.password);
  });

  test('generates an owner email when none is given', async () => {
    const r = await cli(app, 'account:create', '--name', 'No Mail');
    expect(r.code).toBe(0);
    expect(r.json.owner.email).toMatch(/^owner\+no-mail-[a-z0-9]+@escucha\.local$/);
  });

  test('refuses an unknown time zone as a domain error (exit 1)', async () => {
    const r = await cli(app, 'account:create', '--name', 'X', '--timezone', 'Mars/Olympus');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.code).toBe('invalid_time_zone');
  });
});

describe('account:set', () => {
  test('sets the stereo agent channel and time zone; refuses bad values', async () => {
    const account = await newAccount();
    const r = await cli(
      app,
      'account:set',
      '--account',
      account,
      '--agent-channel',
      'right',
      '--timezone',
      'America/Mexico_City',
    );
    expect(r.code).toBe(0);
    expect(r.json.account).toMatchObject({ agentChannel: 'right', timeZone: 'America/Mexico_City' });
    expect((await cli(app, 'account:set', '--account', account, '--agent-channel', 'middle')).code).toBe(2);
    const tz = await cli(app, 'account:set', '--account', account, '--timezone', 'Mars/Olympus');
    expect(tz.code).toBe(1);
    expect(JSON.parse(tz.stderr).error.code).toBe('invalid_time_zone');
  });
});

describe('agent:add', () => {
  test('adds agents and reports seat and code conflicts', async () => {
    const account = await newAccount('--seats', '2');
    const a = await cli(app, 'agent:add', '--account', account, '--name', 'Ana Peña', '--code', 'A-1');
    expect(a.code).toBe(0);
    expect(a.json.agent).toMatchObject({ name: 'Ana Peña', code: 'A-1', active: true });

    const dup = await cli(app, 'agent:add', '--account', account, '--name', 'Other', '--code', 'a_1');
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stderr).error.code).toBe('code_taken');

    expect((await cli(app, 'agent:add', '--account', account, '--name', 'Bob', '--code', 'B')).code).toBe(0);
    const full = await cli(app, 'agent:add', '--account', account, '--name', 'Cy', '--code', 'C');
    expect(full.code).toBe(1);
    expect(JSON.parse(full.stderr).error.code).toBe('seat_limit');
  });

  test('says which account is missing rather than failing on the foreign key', async () => {
    const r = await cli(
      app,
      'agent:add',
      '--account',
      '00000000-0000-4000-8000-000000000000',
      '--name',
      'A',
      '--code',
      'A',
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'not_found', message: 'Account not found' } });
  });
});

describe('campaign:add and campaign:archive', () => {
  test('creates a campaign with language and template, then archives it by name', async () => {
    const account = await newAccount();
    const tpl = await cli(
      app,
      'template:import',
      '--account',
      account,
      '--file',
      path.join(examplesDir, exampleFiles[0]!),
    );
    expect(tpl.code).toBe(0);
    const c = await cli(
      app,
      'campaign:add',
      '--account',
      account,
      '--name',
      'Ventas Otoño',
      '--language',
      'ES',
      '--template',
      tpl.json.template.id,
    );
    expect(c.code).toBe(0);
    expect(c.json.campaign).toMatchObject({ name: 'Ventas Otoño', language: 'es', templateId: tpl.json.template.id });

    const archived = await cli(app, 'campaign:archive', '--account', account, '--name', 'ventas otono');
    expect(archived.code).toBe(0);
    expect(archived.json.campaign.id).toBe(c.json.campaign.id);
    const [row] = await t.sql('SELECT archived_at FROM campaigns WHERE id = $1', [c.json.campaign.id]);
    expect(row.archived_at).toBeInstanceOf(Date);
  });

  test('refuses another account’s template and unknown campaign names', async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const tpl = await cli(
      app,
      'template:import',
      '--account',
      theirs,
      '--file',
      path.join(examplesDir, exampleFiles[0]!),
    );
    const r = await cli(app, 'campaign:add', '--account', mine, '--name', 'Steal', '--template', tpl.json.template.id);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toEqual({ code: 'not_found', message: 'Template not found' });

    const missing = await cli(app, 'campaign:archive', '--account', mine, '--name', 'Nope');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('not_found');
  });
});

describe('apikey:create and apikey:revoke', () => {
  test('prints the key once, stores only its hash, and revokes it by prefix', async () => {
    const account = await newAccount();
    const r = await cli(app, 'apikey:create', '--account', account, '--name', 'PBX');
    expect(r.code).toBe(0);
    const { key, apiKey } = r.json;
    expect(key).toMatch(/^esk_/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);

    const [row] = await t.sql('SELECT * FROM api_keys WHERE id = $1', [apiKey.id]);
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(await authenticateApiKey(t.db, key)).toMatchObject({ accountId: account });

    // Another account cannot revoke it, even knowing the prefix.
    const other = await newAccount();
    const foreign = await cli(app, 'apikey:revoke', '--account', other, '--prefix', apiKey.prefix);
    expect(foreign.code).toBe(1);
    expect(await authenticateApiKey(t.db, key)).not.toBeNull();

    const revoked = await cli(app, 'apikey:revoke', '--account', account, '--prefix', apiKey.prefix);
    expect(revoked.code).toBe(0);
    expect(revoked.json.apiKey.revokedAt).toBeTruthy();
    expect(await authenticateApiKey(t.db, key)).toBeNull();
  });
});

describe('webhook:set', () => {
  test('prints the signing secret, which is stored only encrypted, and keeps it when the URL changes', async () => {
    const account = await newAccount();
    const r = await cli(app, 'webhook:set', '--account', account, '--url', 'http://127.0.0.1:9/hooks');
    expect(r.code).toBe(0);
    expect(r.json.secret).toMatch(/^whsec_/);
    expect(r.json.secretIsNew).toBe(true);
    const [row] = await t.sql('SELECT secret_encrypted FROM webhook_endpoints WHERE account_id = $1', [account]);
    expect(row.secret_encrypted).not.toContain(r.json.secret.slice('whsec_'.length));

    const again = await cli(app, 'webhook:set', '--account', account, '--url', 'http://127.0.0.1:9/other');
    expect(again.json).toMatchObject({
      endpoint: { url: 'http://127.0.0.1:9/other' },
      secret: r.json.secret,
      secretIsNew: false,
    });
  });

  test('reports a bad URL as a domain error', async () => {
    const account = await newAccount();
    const r = await cli(app, 'webhook:set', '--account', account, '--url', 'not a url');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.code).toBe('invalid_webhook_url');
  });
});

describe('webhook:add, webhook:list, webhook:rotate, webhook:replay', () => {
  test('adds a second endpoint for one event type, rotates its secret with overlap, and replays it', async () => {
    const account = await newAccount();
    await cli(app, 'webhook:set', '--account', account, '--url', 'http://127.0.0.1:9/main');
    const added = await cli(
      app,
      'webhook:add',
      '--account',
      account,
      '--url',
      'http://127.0.0.1:9/ops',
      '--events',
      'call.failed,webhook.disabled',
      '--description',
      'ops',
    );
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      endpoint: { url: 'http://127.0.0.1:9/ops', eventTypes: ['call.failed', 'webhook.disabled'] },
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = added.json.endpoint.id;

    const rotated = await cli(app, 'webhook:rotate', '--account', account, '--endpoint', id);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(added.json.secret);
    expect(new Date(rotated.json.previousSecretValidUntil).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const replay = await cli(
      app,
      'webhook:replay',
      '--account',
      account,
      '--endpoint',
      id,
      '--since',
      '2026-01-01T00:00:00Z',
    );
    expect(replay.code).toBe(0);
    expect(replay.json.replay).toMatchObject({ status: 'finished', total: 0 });

    const list = await cli(app, 'webhook:list', '--account', account);
    expect(list.json.endpoints.map((e: any) => [e.url, e.eventTypes])).toEqual([
      ['http://127.0.0.1:9/main', ['call.analyzed']],
      ['http://127.0.0.1:9/ops', ['call.failed', 'webhook.disabled']],
    ]);
    expect(list.json.endpoints[1].latestReplay).toMatchObject({ id: replay.json.replay.id, total: 0 });
  });

  test('reports an unknown event type and a bad --since as domain errors', async () => {
    const account = await newAccount();
    const bad = await cli(
      app,
      'webhook:add',
      '--account',
      account,
      '--url',
      'http://127.0.0.1:9/x',
      '--events',
      'call.deleted',
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error.code).toBe('invalid_event_types');
    const { json } = await cli(app, 'webhook:set', '--account', account, '--url', 'http://127.0.0.1:9/main');
    const since = await cli(
      app,
      'webhook:replay',
      '--account',
      account,
      '--endpoint',
      json.endpoint.id,
      '--since',
      'yesterday',
    );
    expect(since.code).toBe(1);
    expect(JSON.parse(since.stderr).error.code).toBe('invalid_since');
  });
});

describe('template:import', () => {
  test.each(exampleFiles)('imports the example %s', async (file) => {
    const account = await newAccount();
    const r = await cli(app, 'template:import', '--account', account, '--file', path.join(examplesDir, file));
    expect(r.code).toBe(0);
    // Named by the file's own "name", not its file name.
    expect(r.json.template.name).toBe(file.startsWith('es-') ? 'Atención al cliente' : 'Customer support');
    expect(r.json.template.criteria).toBeGreaterThan(0);
    expect(r.json.default).toBe(false);
    // With no LLM_URL the import says the examples score offline and where the optional questions are.
    expect(r.json.note).toContain('src/analysis/examples/add-ons/llm-questions.json');
    const [acc] = await t.sql('SELECT default_template_id FROM accounts WHERE id = $1', [account]);
    expect(acc.default_template_id).toBeNull();
  });

  test('names the template and makes it the default when asked', async () => {
    const account = await newAccount();
    const r = await cli(
      app,
      'template:import',
      '--account',
      account,
      '--file',
      path.join(examplesDir, exampleFiles[0]!),
      '--name',
      'QA 2026',
      '--default',
    );
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ template: { name: 'QA 2026' }, default: true });
    const [acc] = await t.sql('SELECT default_template_id FROM accounts WHERE id = $1', [account]);
    expect(acc.default_template_id).toBe(r.json.template.id);
  });

  test('makes each language its own default with --language L --default', async () => {
    const account = await newAccount();
    const en = await cli(
      app,
      'template:import',
      '--account',
      account,
      '--file',
      path.join(examplesDir, 'en-customer-support.json'),
      '--language',
      'en',
      '--default',
    );
    const es = await cli(
      app,
      'template:import',
      '--account',
      account,
      '--file',
      path.join(examplesDir, 'es-atencion-cliente.json'),
      '--language',
      'ES',
      '--default',
    );
    expect([en.code, es.code]).toEqual([0, 0]);
    expect(en.json).toMatchObject({ template: { name: 'Customer support', language: 'en' }, defaultFor: 'en' });
    expect(es.json).toMatchObject({ template: { name: 'Atención al cliente', language: 'es' }, defaultFor: 'es' });
    const rows = await t.sql(
      'SELECT language, template_id FROM account_language_templates WHERE account_id = $1 ORDER BY language',
      [account],
    );
    expect(rows).toEqual([
      { language: 'en', template_id: en.json.template.id },
      { language: 'es', template_id: es.json.template.id },
    ]);
    const [acc] = await t.sql('SELECT default_template_id FROM accounts WHERE id = $1', [account]);
    expect(acc.default_template_id).toBeNull();
  });

  test('refuses --language without --default, an unknown language, and a template in another language (exit 2, nothing stored)', async () => {
    const account = await newAccount();
    const en = path.join(examplesDir, 'en-customer-support.json');
    const cases: [string[], RegExp][] = [
      [['--language', 'es'], /--language says which calls --default applies to; add --default/],
      [['--language', 'klingon', '--default'], /--language must be a language code such as en or es, got "klingon"/],
      [['--language', 'es', '--default'], /the template's language is "en"; as the default for "es" calls/],
    ];
    for (const [extra, message] of cases) {
      const r = await cli(app, 'template:import', '--account', account, '--file', en, ...extra);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(await t.sql('SELECT id FROM templates WHERE account_id = $1', [account])).toEqual([]);
  });

  test('warns that llm criteria stay N/A with no LLM_URL, with the coverage calls can reach', async () => {
    const account = await newAccount();
    const file = path.join(tmp.dir, 'with-llm.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'With a question',
        version: 1,
        criteria: [
          { key: 'greeting', label: 'Greets', kind: 'phrase', weight: 3, phrases: ['hello'] },
          { key: 'resolution', label: 'Resolves', kind: 'llm', weight: 1, question: 'Resolved?' },
        ],
      }),
    );
    const r = await cli(app, 'template:import', '--account', account, '--file', file);
    expect(r.code).toBe(0);
    expect(r.json.template.name).toBe('With a question');
    expect(r.json.warning).toBe(
      'No LLM_URL is set: resolution will be N/A, so calls reach at most 75 % coverage. Set LLM_URL or remove them.',
    );
  });

  test('rejects an invalid template with readable issues and stores nothing (exit 1)', async () => {
    const account = await newAccount();
    const file = path.join(tmp.dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        criteria: [{ key: 'Greeting!', kind: 'phrase', label: 'Hi', weight: 20, phrases: ['hello'] }],
        extra: 1,
      }),
    );
    const r = await cli(app, 'template:import', '--account', account, '--file', file, '--default');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const { error } = JSON.parse(r.stderr);
    expect(error.code).toBe('invalid_template');
    expect(error.message).toContain('criteria[0].key: key must be a slug');
    expect(error.message).toContain('criteria[0].weight: weight must be a whole number from 1 to 10');
    expect(error.message).toContain('unknown field "extra"');
    const rows = await t.sql('SELECT id FROM templates WHERE account_id = $1', [account]);
    expect(rows).toEqual([]);
  });

  test('reports a JSON syntax error as an invalid template', async () => {
    const account = await newAccount();
    const file = path.join(tmp.dir, 'broken.json');
    writeFileSync(file, '{ "version": 1, ');
    const r = await cli(app, 'template:import', '--account', account, '--file', file);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'invalid_template',
      message: expect.stringContaining('not valid JSON'),
    });
  });

  test('treats an unreadable file as a bad argument (exit 2)', async () => {
    const account = await newAccount();
    const r = await cli(app, 'template:import', '--account', account, '--file', path.join(tmp.dir, 'missing.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: template:import: cannot read --file .*missing\.json \(ENOENT\)\n$/);
  });
});

describe('arguments', () => {
  const id = '00000000-0000-4000-8000-000000000000';
  const bad: [string[], RegExp][] = [
    [[], /missing command/],
    [['nope'], /unknown command "nope"/],
    [['account:create'], /missing required option --name/],
    [['account:create', '--name', 'A', '--color', 'red'], /unknown option --color/],
    [['account:create', '--name'], /option --name needs a value/],
    [['account:create', '--name', 'A', '--minutes', 'ten'], /--minutes must be a whole number/],
    [['account:create', '--name', 'A', '--seats', '1.5'], /--seats must be a whole number/],
    [['account:create', '--name', 'A', 'extra'], /unexpected argument extra/],
    [['agent:add', '--account', 'acme', '--name', 'A', '--code', 'C'], /--account must be a UUID, got "acme"/],
    [['agent:add', '--account', id, '--name', 'A'], /missing required option --code/],
    [['campaign:add', '--account', id, '--name', 'A', '--template', '42'], /--template must be a UUID/],
    [['template:import', '--account', id], /missing required option --file/],
    [['help', 'nope'], /unknown command "nope"/],
  ];

  test.each(bad)('%j → exit 2 with one line on stderr, without opening the database', async (argv, message) => {
    let opened = false;
    const r = await cli(
      async () => {
        opened = true;
        return app;
      },
      ...argv,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(opened).toBe(false);
  });

  test('prints help for all commands and for one', async () => {
    const all = await cli(app, 'help');
    expect(all.code).toBe(0);
    for (const name of [
      'account:create',
      'agent:add',
      'campaign:add',
      'campaign:archive',
      'apikey:create',
      'apikey:revoke',
      'webhook:set',
      'webhook:add',
      'webhook:list',
      'webhook:rotate',
      'webhook:replay',
      'template:import',
    ]) {
      expect(all.stdout).toContain(name);
    }
    const one = await cli(app, 'agent:add', '--help');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--code C');
  });
});
