import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Alert, Button, Card, TextArea, useToast } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';

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
  const toast = useToast();
  const [{ data }] = useQuery({ query: VocabularyQuery });
  const [text, setText] = useState('');
  useEffect(() => {
    if (data) setText(data.account.vocabulary.join('\n'));
  }, [data]);
  const [{ fetching }, save] = useMutation(SetVocabulary);
  const { submit, error } = useFormMutation(
    async () => outcome(await save({ words: text.split('\n') }), 'setVocabulary'),
    () => toast(t('settings.vocabularySaved')),
  );
  return (
    <Card title={t('settings.vocabulary')} description={t('settings.vocabularyLead')}>
      <form className="stack" onSubmit={submit} style={{ maxWidth: 520 }}>
        {error && <Alert tone="red">{error}</Alert>}
        <TextArea
          label={t('settings.vocabularyWords')}
          hint={t('settings.vocabularyHint')}
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
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
