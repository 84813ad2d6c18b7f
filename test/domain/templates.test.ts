import { enCustomerSupport, esAtencionCliente } from '../../src/analysis/examples/index.ts';
import { createCampaign } from '../../src/accounts/campaigns.ts';
import { DomainError } from '../../src/domain/errors.ts';
import {
  createTemplate,
  deleteTemplate,
  getApplicableTemplate,
  getTemplate,
  listTemplates,
  setDefaultTemplate,
  updateTemplate,
} from '../../src/accounts/templates.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
test.beforeAll(async ({ db }) => {
  t = db;
});

// Accounts are inserted directly: the owner's scrypt hash in createAccount would only slow these tests.
async function account(): Promise<string> {
  const [row] = await t.sql("INSERT INTO accounts (id, name) VALUES (gen_random_uuid(), 'T') RETURNING id");
  return row.id;
}

const minimal = {
  version: 1,
  criteria: [{ key: 'hello', label: 'Says hello', kind: 'phrase', weight: 1, phrases: ['hello'] }],
};

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('createTemplate / updateTemplate', () => {
  test('stores the validated definition with its defaults filled in', async () => {
    const a = await account();
    const tpl = await createTemplate(t.db, a, { name: '  Basic  ', definition: minimal });
    expect(tpl.name).toBe('Basic');
    expect(tpl.definition).toMatchObject({
      criteria: [{ key: 'hello', critical: false, speaker: 'any', minCount: 1 }],
      topics: [],
    });
  });

  test('accepts JSON text and the example templates', async () => {
    const a = await account();
    for (const example of [enCustomerSupport, esAtencionCliente]) {
      const tpl = await createTemplate(t.db, a, { name: example.name, definition: JSON.stringify(example.definition) });
      expect(tpl.definition).toEqual(example.definition);
    }
    expect((await listTemplates(t.db, a)).map((x) => x.name)).toEqual([enCustomerSupport.name, esAtencionCliente.name]);
  });

  test('rejects an invalid definition with every issue and its path', async () => {
    const a = await account();
    const error = await rejection(
      createTemplate(t.db, a, {
        name: 'Bad',
        definition: {
          version: 1,
          criteria: [{ key: 'x', label: 'X', kind: 'metric', metric: 'talk_ratio', op: 'lt', value: 60, weight: 0 }],
        },
      }),
    );
    expect(error.code).toBe('invalid_template');
    expect(error.message).toMatch(/^The template is invalid \(2 problems\): /);
    expect(error.message).toContain('criteria[0].weight: weight must be a whole number from 1 to 10');
    expect(error.message).toContain('criteria[0].value: talk_ratio is a fraction from 0 to 1');
    expect(error.details?.issues).toHaveLength(2);
  });

  test('refuses an empty name and an unknown account', async () => {
    const a = await account();
    expect((await rejection(createTemplate(t.db, a, { name: ' ', definition: minimal }))).code).toBe('invalid_name');
    expect(
      (
        await rejection(
          createTemplate(t.db, '00000000-0000-4000-8000-000000000000', { name: 'X', definition: minimal }),
        )
      ).code,
    ).toBe('not_found');
  });

  test('updates the name and definition, validating the new definition', async () => {
    const a = await account();
    const tpl = await createTemplate(t.db, a, { name: 'Old', definition: minimal });
    const renamed = await updateTemplate(t.db, a, tpl.id, { name: 'New' });
    expect(renamed.name).toBe('New');
    expect(renamed.definition).toEqual(tpl.definition);
    const redefined = await updateTemplate(t.db, a, tpl.id, { definition: enCustomerSupport.definition });
    expect(redefined.definition).toEqual(enCustomerSupport.definition);
    expect((await rejection(updateTemplate(t.db, a, tpl.id, { definition: { version: 2 } }))).code).toBe(
      'invalid_template',
    );
  });
});

describe('getApplicableTemplate', () => {
  test("uses the campaign's template, else the account default, else none", async () => {
    const a = await account();
    const campaignTpl = await createTemplate(t.db, a, { name: 'Campaign', definition: enCustomerSupport.definition });
    const defaultTpl = await createTemplate(t.db, a, { name: 'Default', definition: minimal });
    const withTpl = await createCampaign(t.db, a, { name: 'With', templateId: campaignTpl.id });
    const without = await createCampaign(t.db, a, { name: 'Without' });

    expect(await getApplicableTemplate(t.db, { accountId: a, campaignId: withTpl.id })).toMatchObject({
      id: campaignTpl.id,
      name: 'Campaign',
    });
    expect(await getApplicableTemplate(t.db, { accountId: a, campaignId: without.id })).toBeNull();
    expect(await getApplicableTemplate(t.db, { accountId: a, campaignId: null })).toBeNull();

    await setDefaultTemplate(t.db, a, defaultTpl.id);
    const applied = await getApplicableTemplate(t.db, { accountId: a, campaignId: withTpl.id });
    expect(applied?.id).toBe(campaignTpl.id);
    expect(applied?.definition).toEqual(enCustomerSupport.definition);
    expect((await getApplicableTemplate(t.db, { accountId: a, campaignId: without.id }))?.id).toBe(defaultTpl.id);
    expect((await getApplicableTemplate(t.db, { accountId: a, campaignId: null }))?.id).toBe(defaultTpl.id);

    // A deleted campaign template falls back to the default.
    await deleteTemplate(t.db, a, campaignTpl.id);
    expect((await getApplicableTemplate(t.db, { accountId: a, campaignId: withTpl.id }))?.id).toBe(defaultTpl.id);
  });

  test("never applies another account's campaign or template", async () => {
    const a = await account();
    const b = await account();
    const theirs = await createTemplate(t.db, b, { name: 'B', definition: minimal });
    const theirCampaign = await createCampaign(t.db, b, { name: 'B campaign', templateId: theirs.id });
    expect(await getApplicableTemplate(t.db, { accountId: a, campaignId: theirCampaign.id })).toBeNull();

    // Even if a row were ever linked across tenants (the foreign keys alone allow it), it is ignored.
    await t.sql('UPDATE accounts SET default_template_id = $1 WHERE id = $2', [theirs.id, a]);
    expect(await getApplicableTemplate(t.db, { accountId: a })).toBeNull();
    await t.sql('UPDATE accounts SET default_template_id = NULL WHERE id = $1', [a]);
  });
});

describe('deleteTemplate', () => {
  test('soft-deletes, clearing the account default and campaign links', async () => {
    const a = await account();
    const tpl = await createTemplate(t.db, a, { name: 'Doomed', definition: minimal });
    const keep = await createTemplate(t.db, a, { name: 'Keep', definition: minimal });
    await setDefaultTemplate(t.db, a, tpl.id);
    const c1 = await createCampaign(t.db, a, { name: 'C1', templateId: tpl.id });
    const c2 = await createCampaign(t.db, a, { name: 'C2', templateId: keep.id });

    await deleteTemplate(t.db, a, tpl.id);

    const [row] = await t.sql('SELECT deleted_at FROM templates WHERE id = $1', [tpl.id]);
    expect(row.deleted_at).toBeInstanceOf(Date);
    const [acc] = await t.sql('SELECT default_template_id FROM accounts WHERE id = $1', [a]);
    expect(acc.default_template_id).toBeNull();
    const campaigns = await t.sql('SELECT id, template_id FROM campaigns WHERE account_id = $1 ORDER BY name', [a]);
    expect(campaigns).toEqual([
      { id: c1.id, template_id: null },
      { id: c2.id, template_id: keep.id },
    ]);

    expect((await listTemplates(t.db, a)).map((x) => x.id)).toEqual([keep.id]);
    expect((await rejection(getTemplate(t.db, a, tpl.id))).code).toBe('not_found');
    expect((await rejection(deleteTemplate(t.db, a, tpl.id))).code).toBe('not_found');
    expect((await rejection(updateTemplate(t.db, a, tpl.id, { name: 'Back' }))).code).toBe('not_found');
    expect((await rejection(setDefaultTemplate(t.db, a, tpl.id))).code).toBe('not_found');
    expect((await rejection(createCampaign(t.db, a, { name: 'C3', templateId: tpl.id }))).code).toBe('not_found');
  });
});

describe('tenant scoping', () => {
  test("treats another account's template id as not found everywhere", async () => {
    const a = await account();
    const b = await account();
    const theirs = await createTemplate(t.db, b, { name: 'Theirs', definition: minimal });
    await setDefaultTemplate(t.db, b, theirs.id);

    for (const attempt of [
      () => getTemplate(t.db, a, theirs.id),
      () => updateTemplate(t.db, a, theirs.id, { name: 'Mine now' }),
      () => deleteTemplate(t.db, a, theirs.id),
      () => setDefaultTemplate(t.db, a, theirs.id),
    ]) {
      const error = await rejection(attempt());
      expect(error.code).toBe('not_found');
      expect(error.message).toBe('Template not found');
    }
    // Untouched for its owner.
    expect((await getTemplate(t.db, b, theirs.id)).name).toBe('Theirs');
    expect((await getApplicableTemplate(t.db, { accountId: b }))?.id).toBe(theirs.id);
    expect(await listTemplates(t.db, a)).toEqual([]);
  });

  test('clears the default with null', async () => {
    const a = await account();
    const tpl = await createTemplate(t.db, a, { name: 'D', definition: minimal });
    await setDefaultTemplate(t.db, a, tpl.id);
    const cleared = await setDefaultTemplate(t.db, a, null);
    expect(cleared.defaultTemplateId).toBeNull();
    expect(await getApplicableTemplate(t.db, { accountId: a })).toBeNull();
  });
});
