// Templates by language (issue 10): a call is scored with its campaign's template, else the
// account's default for its language, else the any-language default — flagged when the template
// is in another language than the call.
import { enCustomerSupport, esAtencionCliente } from '../../src/analysis/examples/index.ts';
import { createCampaign } from '../../src/accounts/campaigns.ts';
import {
  createTemplate,
  deleteTemplate,
  getApplicableTemplate,
  setDefaultTemplate,
  setLanguageDefaultTemplate,
} from '../../src/accounts/templates.ts';
import { describe, expect, test } from '../support/harness.ts';

describe('template routing', () => {
  test('a Spanish call with no campaign takes the Spanish default; without one, the English default, flagged', async ({
    app,
    seed,
  }) => {
    const { account } = await seed({ agents: [] });
    const en = await createTemplate(app.db, account.id, { name: 'Support', definition: enCustomerSupport.definition });
    const es = await createTemplate(app.db, account.id, { name: 'Soporte', definition: esAtencionCliente.definition });
    await setDefaultTemplate(app.db, account.id, en.id);

    const before = await getApplicableTemplate(app.db, { accountId: account.id, language: 'es' });
    expect(before).toMatchObject({ id: en.id, via: 'default', languageMismatch: true });

    await setLanguageDefaultTemplate(app.db, account.id, 'es', es.id);
    expect(await getApplicableTemplate(app.db, { accountId: account.id, language: 'es' })).toMatchObject({
      id: es.id,
      via: 'language',
      languageMismatch: false,
    });
    expect(await getApplicableTemplate(app.db, { accountId: account.id, language: 'en' })).toMatchObject({
      id: en.id,
      languageMismatch: false,
    });

    // Deleting the Spanish template drops its language default: Spanish calls fall back, flagged.
    await deleteTemplate(app.db, account.id, es.id);
    expect(await getApplicableTemplate(app.db, { accountId: account.id, language: 'es' })).toMatchObject({
      id: en.id,
      languageMismatch: true,
    });
  });

  test("the campaign's template wins, and its language counts when the call has none", async ({ app, seed }) => {
    const { account } = await seed({ agents: [] });
    const en = await createTemplate(app.db, account.id, { name: 'Support', definition: enCustomerSupport.definition });
    const es = await createTemplate(app.db, account.id, { name: 'Soporte', definition: esAtencionCliente.definition });
    await setLanguageDefaultTemplate(app.db, account.id, 'es', es.id);
    const withTemplate = await createCampaign(app.db, account.id, {
      name: 'Ventas',
      language: 'es',
      templateId: en.id,
    });
    expect(await getApplicableTemplate(app.db, { accountId: account.id, campaignId: withTemplate.id })).toMatchObject({
      id: en.id,
      via: 'campaign',
      languageMismatch: true,
    });
    const spanish = await createCampaign(app.db, account.id, { name: 'Atención', language: 'es' });
    expect(await getApplicableTemplate(app.db, { accountId: account.id, campaignId: spanish.id })).toMatchObject({
      id: es.id,
      via: 'language',
    });
  });

  test('a template without a language fits every call', async ({ app, seed }) => {
    const { account } = await seed({ agents: [] });
    const { language: _drop, ...anyLanguage } = enCustomerSupport.definition;
    const any = await createTemplate(app.db, account.id, { name: 'Any', definition: anyLanguage });
    await setDefaultTemplate(app.db, account.id, any.id);
    expect(await getApplicableTemplate(app.db, { accountId: account.id, language: 'es' })).toMatchObject({
      id: any.id,
      languageMismatch: false,
    });
  });
});
