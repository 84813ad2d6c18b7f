import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { LanguageSwitch } from '../components/Shell.tsx';
import { Alert, Button, Card, PageHeader, TextField, useToast } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { useAuth } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { MIN_PASSWORD } from './AcceptInvitation.tsx';

const ChangePassword = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {
      __typename
      ... on MutationChangePasswordSuccess { data }
      ... on Error { code message }
    }
  }
`);

export function SettingsPage() {
  const i18n = useT();
  const { t } = i18n;
  const toast = useToast();
  const { session } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, change] = useMutation(ChangePassword);
  const mismatch = confirm.length > 0 && confirm !== next;
  const short = next.length > 0 && next.length < MIN_PASSWORD;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mismatch || short) return;
    setError(null);
    const out = outcome(await change({ currentPassword: current, newPassword: next }), 'changePassword');
    if (!out.ok) {
      setError(describeError(i18n, out.error));
      return;
    }
    setCurrent('');
    setNext('');
    setConfirm('');
    toast(t('settings.passwordChanged'));
  };

  const user = session?.user;
  return (
    <div className="page-narrow">
      <PageHeader title={t('nav.settings')} description={t('settings.lead')} />
      <div className="stack">
        <Card title={t('settings.profile')}>
          <dl className="dl">
            <dt>{t('settings.name')}</dt>
            <dd>{user?.name}</dd>
            <dt>{t('settings.email')}</dt>
            <dd>{user?.email}</dd>
            <dt>{t('settings.role')}</dt>
            <dd>{t(`roles.${user?.role ?? 'VIEWER'}` as MessageKey)}</dd>
            <dt>{t('common.language')}</dt>
            <dd>
              <LanguageSwitch />
            </dd>
          </dl>
        </Card>
        <Card title={t('settings.changePassword')} description={t('settings.changePasswordLead')}>
          <form className="stack" onSubmit={submit} style={{ maxWidth: 420 }}>
            {error && <Alert tone="red">{error}</Alert>}
            <TextField label={t('settings.currentPassword')} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
            <TextField label={t('settings.newPassword')} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} hint={t('password.rule', { n: MIN_PASSWORD })} error={short ? t('password.tooShort', { n: MIN_PASSWORD }) : undefined} required />
            <TextField label={t('settings.confirmPassword')} type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={mismatch ? t('password.mismatch') : undefined} required />
            <div>
              <Button type="submit" variant="primary" loading={fetching} disabled={!current || next.length < MIN_PASSWORD || next !== confirm}>
                {t('settings.changePassword')}
              </Button>
            </div>
          </form>
        </Card>
      </div>
    </div>
  );
}
