import { useState } from 'react';
import { useMutation } from 'urql';
import { NewPasswordFields, useNewPassword } from '../components/new-password.tsx';
import { Alert, Button, TextField } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { SessionFields, useAuth } from '../lib/auth.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';
import { navigate } from '../lib/router.tsx';
import { AuthLayout } from './AuthLayout.tsx';

const AcceptMutation = graphql(
  `
  mutation AcceptInvitation($token: String!, $name: String!, $password: String!) {
    acceptInvitation(token: $token, name: $name, password: $password) {
      __typename
      ... on Session { ...SessionFields }
      ... on Error { code message }
    }
  }
`,
  [SessionFields],
);

export function AcceptInvitationPage({ token }: { token: string }) {
  const { t } = useT();
  const { signedIn } = useAuth();
  const [name, setName] = useState('');
  const pw = useNewPassword();
  const [{ fetching }, accept] = useMutation(AcceptMutation);
  const { submit: send, error } = useFormMutation(
    async () => outcome(await accept({ token, name: name.trim(), password: pw.password }), 'acceptInvitation'),
    (session) => {
      signedIn(session);
      navigate('/calls', { replace: true });
    },
  );
  const submit = pw.guard(send);

  return (
    <AuthLayout title={t('invite.title')} lead={t('invite.lead')}>
      {error && <Alert tone="red">{error}</Alert>}
      <form className="stack" onSubmit={submit} noValidate>
        <TextField
          label={t('invite.name')}
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoFocus
        />
        <NewPasswordFields pw={pw} label={t('invite.password')} confirmLabel={t('invite.confirm')} />
        <Button type="submit" variant="primary" loading={fetching} disabled={!name.trim() || !pw.complete}>
          {t('invite.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
