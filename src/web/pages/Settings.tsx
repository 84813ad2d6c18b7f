import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { LanguageSwitch } from '../components/Shell.tsx';
import { TermList } from '../components/term-list.tsx';
import { SettingsCard } from '../components/forms.tsx';
import { NewPasswordFields, useNewPassword } from '../components/new-password.tsx';
import {
  Button,
  Card,
  NumberField,
  PageHeader,
  PasswordField,
  SelectField,
  TextField,
  useToast,
} from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useAuth } from '../lib/auth.tsx';
import { useFormMutation } from '../lib/mutations.ts';
import { useSettingsForm } from '../lib/settings-form.ts';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { VocabularyCard } from './settings-vocabulary.tsx';
import { AuditLogCard, RetentionCard } from '../components/data-protection.tsx';
import { RedactionCard } from './settings-redaction.tsx';

const ChangePassword = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) { __typename ... on MutationChangePasswordSuccess { data } ... on Error { code message } }
  }
`);

type MonoSpeakers = 'OFF' | 'FIRST_SPEAKER' | 'GREETING';

const AccountSettingsQuery = graphql(`
  query AccountSettings {
    account { id agentChannel timeZone disputeWindowDays monoSpeakers }
  }
`);

const UpdateAccountSettings = graphql(`
  mutation UpdateAccountSettings(
    $agentChannel: AgentChannel
    $timeZone: String
    $disputeWindowDays: Int
    $monoSpeakers: MonoSpeakers
  ) {
    updateAccountSettings(
      agentChannel: $agentChannel
      timeZone: $timeZone
      disputeWindowDays: $disputeWindowDays
      monoSpeakers: $monoSpeakers
    ) { __typename ... on Account { id agentChannel timeZone disputeWindowDays monoSpeakers } ... on Error { code message } }
  }
`);

interface AccountValues {
  channel: 'LEFT' | 'RIGHT';
  timeZone: string;
  windowDays: string;
  mono: MonoSpeakers;
}

/** Admins: which stereo channel is the agent, the account's time zone, and the agents' dispute window. */
function AccountSettingsCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: AccountSettingsQuery });
  const [, update] = useMutation(UpdateAccountSettings);
  const saved = data?.account;
  // The fields open only once they hold the saved values (`ready`).
  const form = useSettingsForm<AccountValues, unknown>({
    initial: { channel: 'LEFT', timeZone: '', windowDays: '7', mono: 'FIRST_SPEAKER' },
    saved: saved && {
      channel: saved.agentChannel === 'right' ? 'RIGHT' : 'LEFT',
      timeZone: saved.timeZone,
      windowDays: String(saved.disputeWindowDays),
      mono: saved.monoSpeakers,
    },
    save: async (v) =>
      outcome(
        await update({
          agentChannel: v.channel,
          timeZone: v.timeZone.trim(),
          disputeWindowDays: Number(v.windowDays),
          monoSpeakers: v.mono,
        }),
        'updateAccountSettings',
      ),
    savedMessage: t('settings.accountSaved'),
  });
  const { values, set, ready } = form;
  return (
    <SettingsCard title={t('settings.account')} description={t('settings.accountLead')} form={form}>
      <SelectField
        label={t('settings.agentChannel')}
        hint={t('settings.agentChannelHint')}
        value={values.channel}
        onChange={(e) => set({ channel: e.target.value as 'LEFT' | 'RIGHT' })}
        disabled={!ready}
      >
        <option value="LEFT">{t('settings.channelLeft')}</option>
        <option value="RIGHT">{t('settings.channelRight')}</option>
      </SelectField>
      <SelectField
        label={t('settings.monoSpeakers')}
        hint={t('settings.monoSpeakersHint')}
        value={values.mono}
        onChange={(e) => set({ mono: e.target.value as MonoSpeakers })}
        disabled={!ready}
      >
        <option value="FIRST_SPEAKER">{t('settings.monoFirstSpeaker')}</option>
        <option value="GREETING">{t('settings.monoGreeting')}</option>
        <option value="OFF">{t('settings.monoOff')}</option>
      </SelectField>
      <TextField
        label={t('settings.timeZone')}
        hint={t('settings.timeZoneHint')}
        {...form.field('timeZone')}
        disabled={!ready}
        required
      />
      <NumberField
        label={t('settings.disputeWindow')}
        hint={t('settings.disputeWindowHint')}
        min={1}
        max={365}
        {...form.field('windowDays')}
        disabled={!ready}
        required
      />
    </SettingsCard>
  );
}

const ScoreBandsQuery = graphql(`
  query ScoreBandsSettings { account { id scoreBands { good fair } } }
`);

const UpdateScoreBands = graphql(`
  mutation UpdateScoreBands($scoreGood: Int, $scoreFair: Int) {
    updateAccountSettings(scoreGood: $scoreGood, scoreFair: $scoreFair) { __typename ... on Account { id scoreBands { good fair } } ... on Error { code message } }
  }
`);

/** Admins: where scores turn green, amber and red for everyone in the account. */
function ScoreBandsCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: ScoreBandsQuery });
  const [, update] = useMutation(UpdateScoreBands);
  const bands = data?.account.scoreBands;
  const form = useSettingsForm({
    initial: { good: '80', fair: '60' },
    saved: bands && { good: String(bands.good), fair: String(bands.fair) },
    save: async (v) =>
      outcome(await update({ scoreGood: Number(v.good), scoreFair: Number(v.fair) }), 'updateAccountSettings'),
    savedMessage: t('settings.scoreBandsSaved'),
  });
  return (
    <SettingsCard
      title={t('settings.scoreBands')}
      description={t('settings.scoreBandsLead')}
      form={form}
      testId="score-bands"
    >
      <div className="form-grid">
        <NumberField label={t('settings.scoreGood')} min={1} max={100} {...form.field('good')} required />
        <NumberField label={t('settings.scoreFair')} min={0} max={99} {...form.field('fair')} required />
      </div>
      <p className="muted small">{t('settings.scoreBandsHint')}</p>
    </SettingsCard>
  );
}

const UpdateMyProfile = graphql(`
  mutation UpdateMyProfile($name: String!) {
    updateMyProfile(name: $name) { __typename ... on User { id name } ... on Error { code message } }
  }
`);

/** The signed-in user's own display name (the first owner starts as "Owner"). */
function DisplayNameForm({ name }: { name: string }) {
  const { t } = useT();
  const toast = useToast();
  const { renamed } = useAuth();
  const [value, setValue] = useState(name);
  const [, update] = useMutation(UpdateMyProfile);
  useEffect(() => setValue(name), [name]);
  const { submit, error, pending } = useFormMutation(
    async () => outcome(await update({ name: value }), 'updateMyProfile'),
    (user) => {
      renamed(user.name);
      toast(t('settings.nameSaved'));
    },
  );
  return (
    <form className="row-wrap" onSubmit={submit} style={{ alignItems: 'flex-end', marginBottom: 14 }}>
      <TextField
        label={t('settings.name')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={error ?? undefined}
        maxLength={200}
        autoComplete="name"
        name="display-name"
        style={{ minWidth: 260 }}
      />
      <Button type="submit" loading={pending} disabled={!value.trim() || value.trim() === name} data-testid="save-name">
        {t('common.save')}
      </Button>
    </form>
  );
}

export function SettingsPage() {
  const { t } = useT();
  const toast = useToast();
  const { session } = useAuth();
  const [current, setCurrent] = useState('');
  const pw = useNewPassword();
  const [, change] = useMutation(ChangePassword);
  const form = useFormMutation(
    async () => outcome(await change({ currentPassword: current, newPassword: pw.password }), 'changePassword'),
    () => {
      setCurrent('');
      pw.clear();
      toast(t('settings.passwordChanged'));
    },
  );
  const submit = pw.guard(form.submit);

  const user = session?.user;
  return (
    <div className="page-narrow">
      <PageHeader title={t('nav.settings')} description={t('settings.lead')} />
      <div className="stack">
        <Card title={t('settings.profile')}>
          {user && <DisplayNameForm name={user.name} />}
          <TermList
            kind="details"
            terms={[
              ['settings.email', user?.email],
              ['settings.role', t(`roles.${user?.role ?? 'VIEWER'}` as MessageKey)],
              ['common.language', <LanguageSwitch key="language" />],
            ]}
          />
        </Card>
        {roleAtLeast(user?.role, 'ADMIN') && <AccountSettingsCard />}
        {roleAtLeast(user?.role, 'ADMIN') && <ScoreBandsCard />}
        {roleAtLeast(user?.role, 'ADMIN') && <VocabularyCard />}
        {roleAtLeast(user?.role, 'ADMIN') && <RetentionCard />}
        {user?.role === 'OWNER' && <AuditLogCard />}
        {roleAtLeast(user?.role, 'ADMIN') && <RedactionCard />}
        <SettingsCard
          title={t('settings.changePassword')}
          description={t('settings.changePasswordLead')}
          form={{ ...form, submit }}
          canSave={!!current && pw.complete}
          submitLabel={t('settings.changePassword')}
        >
          <PasswordField label={t('settings.currentPassword')} value={current} onValue={setCurrent} />
          <NewPasswordFields pw={pw} label={t('settings.newPassword')} confirmLabel={t('settings.confirmPassword')} />
        </SettingsCard>
      </div>
    </div>
  );
}
