import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Alert, Button, TextField } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { SessionFields, useAuth } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
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

export const MIN_PASSWORD = 10;

export function AcceptInvitationPage({ token }: { token: string }) {
  const i18n = useT();
  const { t } = i18n;
  const { signedIn } = useAuth();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, accept] = useMutation(AcceptMutation);
  const mismatch = confirm.length > 0 && confirm !== password;
  const short = password.length > 0 && password.length < MIN_PASSWORD;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mismatch || short) return;
    setError(null);
    const out = outcome(await accept({ token, name: name.trim(), password }), 'acceptInvitation');
    if (!out.ok) {
      setError(describeError(i18n, out.error));
      return;
    }
    signedIn(out.value);
    navigate('/calls', { replace: true });
  };

  return (
    <AuthLayout>
      <div>
        <h1>{t('invite.title')}</h1>
        <p className="lead">{t('invite.lead')}</p>
      </div>
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
        <TextField
          label={t('invite.password')}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t('password.rule', { n: MIN_PASSWORD })}
          error={short ? t('password.tooShort', { n: MIN_PASSWORD }) : undefined}
        />
        <TextField
          label={t('invite.confirm')}
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={mismatch ? t('password.mismatch') : undefined}
        />
        <Button
          type="submit"
          variant="primary"
          loading={fetching}
          disabled={!name.trim() || password.length < MIN_PASSWORD || password !== confirm}
        >
          {t('invite.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
