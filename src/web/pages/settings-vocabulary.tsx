import { useMutation, useQuery } from 'urql';
import { Alert, Button, Card, TextArea } from '../components/ui.tsx';
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
    setVocabulary(words: $words) {
      __typename
      ... on Account { id vocabulary }
      ... on Error { code message }
    }
  }
`);

/** Admins: the account's own words (one per line) that transcription listens for. */
export function VocabularyCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: VocabularyQuery });
  const [{ fetching }, save] = useMutation(SetVocabulary);
  const form = useSettingsForm({
    initial: { text: '' },
    saved: data && { text: data.account.vocabulary.join('\n') },
    save: async (v) => outcome(await save({ words: v.text.split('\n') }), 'setVocabulary'),
    savedMessage: t('settings.vocabularySaved'),
  });
  const { submit, error } = form;
  return (
    <Card title={t('settings.vocabulary')} description={t('settings.vocabularyLead')}>
      <form className="stack" onSubmit={submit} style={{ maxWidth: 520 }}>
        {error && <Alert tone="red">{error}</Alert>}
        <TextArea
          label={t('settings.vocabularyWords')}
          hint={t('settings.vocabularyHint')}
          rows={8}
          value={form.values.text}
          onChange={(e) => form.set({ text: e.target.value })}
        />
        <div>
          <Button type="submit" variant="primary" loading={fetching} disabled={!data}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
