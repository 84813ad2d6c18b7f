import { useMutation, useQuery } from 'urql';
import { SettingsCard } from '../components/forms.tsx';
import { TextArea } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useSettingsForm } from '../lib/settings-form.ts';

const VocabularyQuery = graphql(`
  query Vocabulary {
    account { id vocabulary }
  }
`);

const SetVocabulary = graphql(`
  mutation SetVocabulary($words: [String!]!) {
    setVocabulary(words: $words) { __typename ... on Account { id vocabulary } ... on Error { code message } }
  }
`);

/** Admins: the account's own words (one per line) that transcription listens for. */
export function VocabularyCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: VocabularyQuery });
  const [, save] = useMutation(SetVocabulary);
  const form = useSettingsForm({
    initial: { text: '' },
    saved: data && { text: data.account.vocabulary.join('\n') },
    save: async (v) => outcome(await save({ words: v.text.split('\n') }), 'setVocabulary'),
    savedMessage: t('settings.vocabularySaved'),
  });
  return (
    <SettingsCard title={t('settings.vocabulary')} description={t('settings.vocabularyLead')} form={form} width={520}>
      <TextArea
        label={t('settings.vocabularyWords')}
        hint={t('settings.vocabularyHint')}
        rows={8}
        {...form.field('text')}
      />
    </SettingsCard>
  );
}
