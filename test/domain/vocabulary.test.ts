// What one call's recognition listens for: the account's words, the phrases of the template that
// will score it, campaign and agent names — and never forbidden phrases.
import { createCampaign } from '../../src/accounts/campaigns.ts';
import { createTemplate } from '../../src/accounts/templates.ts';
import { callVocabulary, setVocabulary } from '../../src/accounts/vocabulary.ts';
import { describe, expect, test } from '../support/harness.ts';

const definition = (greeting: string) => ({
  version: 1,
  criteria: [
    { key: 'greeting', label: 'Greets', kind: 'phrase', weight: 1, phrases: [greeting] },
    { key: 'no_insults', label: 'No insults', kind: 'forbidden', weight: 1, phrases: ['idiot'] },
  ],
  topics: [{ key: 'billing', label: 'Billing', phrases: ['invoice'] }],
});

describe('callVocabulary', () => {
  test("lists the account's words, its templates' phrases and topics, campaign and agent names, not forbidden phrases", async ({
    app,
    seed,
  }) => {
    const { account } = await seed({ agents: [{ name: 'Ahmed Okonkwo' }] });
    await setVocabulary(app.db, account.id, ['Zentrix', 'zentrix', 'Quorvo router']);
    await createTemplate(app.db, account.id, {
      name: 'Support',
      definition: definition('thank you for calling Zentrix'),
    });
    await createCampaign(app.db, account.id, { name: 'Fibrenet Renewals' });
    const words = await callVocabulary(app.db, { accountId: account.id, campaignId: null });
    expect(words).toEqual(
      expect.arrayContaining([
        'Zentrix',
        'Quorvo router',
        'thank you for calling Zentrix',
        'invoice',
        'Fibrenet Renewals',
        'Ahmed Okonkwo',
      ]),
    );
    expect(words).not.toContain('idiot');
    expect(words.filter((w) => w.toLowerCase() === 'zentrix')).toHaveLength(1);
  });

  test("a call of a campaign with a template listens for that template's phrases only", async ({ app, seed }) => {
    const { account } = await seed({ agents: [] });
    const sales = await createTemplate(app.db, account.id, {
      name: 'Sales',
      definition: definition('welcome to Bolt'),
    });
    await createTemplate(app.db, account.id, { name: 'Support', definition: definition('thanks for calling Acme') });
    const campaign = await createCampaign(app.db, account.id, { name: 'Outbound', templateId: sales.id });
    const words = await callVocabulary(app.db, { accountId: account.id, campaignId: campaign.id });
    expect(words).toContain('welcome to Bolt');
    expect(words).not.toContain('thanks for calling Acme');
  });
});
