import { useState } from 'react';
import { useMutation } from 'urql';
import { Alert, Button, PasswordField, TextField } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { SessionFields, useAuth } from '../lib/auth.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';
import { AuthLayout } from './AuthLayout.tsx';

const SignInMutation = graphql(
  `
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) { __typename ... on Session { ...SessionFields } ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } }
  }
`,
  [SessionFields],
);

export function SignInPage() {
  const { t } = useT();
  const { signedIn, expired } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [{ fetching }, signIn] = useMutation(SignInMutation);
  const { error, submit } = useFormMutation(
    async () => outcome(await signIn({ email: email.trim(), password }), 'signIn'),
    signedIn,
  );

  return (
    <AuthLayout title={t('signIn.title')} lead={t('signIn.lead')}>
      {expired && !error && <Alert tone="amber">{t('signIn.expired')}</Alert>}
      {error && <Alert tone="red">{error}</Alert>}
      <form className="stack" onSubmit={submit} noValidate>
        <TextField
          label={t('signIn.email')}
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        <PasswordField label={t('signIn.password')} name="password" value={password} onValue={setPassword} />
        <Button type="submit" variant="primary" loading={fetching} disabled={!email || !password}>
          {t('signIn.submit')}
        </Button>
      </form>
      <p className="muted small">{t('signIn.help')}</p>
    </AuthLayout>
  );
}
