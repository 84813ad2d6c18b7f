// Deletion and retention in the app (issue 13.4–5): small pieces mounted by the call page, the calls
// list and Settings, so those pages change by a line each.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatNumber, useFormat } from '../lib/format.ts';
import { graphql, type VariablesOf } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { useSettingsForm } from '../lib/settings-form.ts';
import { Link, navigate } from '../lib/router.tsx';
import { SettingsCard } from './forms.tsx';
import { Alert, Button, Card, ConfirmDialog, TextField, useToast } from './ui.tsx';

const DeleteCall = graphql(`
  mutation DeleteCall($id: ID!) {
    deleteCall(id: $id) {
      __typename
      ... on DeletedCall { id externalId }
      ... on Error { code message }
    }
  }
`);

/** Owners and admins: "Delete" on the call page, with a confirmation; back to the list afterwards. */
export function DeleteCallButton({ callId }: { callId: string }) {
  const { t } = useT();
  const role = useRole();
  const report = useOutcomeToast();
  const [open, setOpen] = useState(false);
  const [{ fetching }, remove] = useMutation(DeleteCall);
  if (!roleAtLeast(role, 'ADMIN')) return null;
  const confirm = async () => {
    const ok = report(outcome(await remove({ id: callId }), 'deleteCall'), t('dataProtection.callDeleted'));
    setOpen(false);
    if (ok) navigate('/calls');
  };
  return (
    <>
      <Button variant="danger" icon="trash" onClick={() => setOpen(true)} data-testid="delete-call">
        {t('common.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        onConfirm={confirm}
        title={t('dataProtection.deleteCallTitle')}
        confirmLabel={t('dataProtection.deleteCallConfirm')}
        danger
        loading={fetching}
      >
        <p>{t('dataProtection.deleteCallBody')}</p>
      </ConfirmDialog>
    </>
  );
}

const RetentionState = graphql(`
  query CallRetentionState($id: ID!) {
    call(id: $id) { id recordingDeletedAt transcriptDeletedAt }
  }
`);

/** On the call page: what retention already removed from this call, and when. */
export function RetentionNotice({ callId }: { callId: string }) {
  const { t } = useT();
  const fmt = useFormat();
  const [{ data }] = useQuery({ query: RetentionState, variables: { id: callId } });
  const call = data?.call;
  if (!call || (!call.recordingDeletedAt && !call.transcriptDeletedAt)) return null;
  return (
    <Alert tone="blue" icon="archive">
      <span data-testid="retention-notice">
        {call.recordingDeletedAt &&
          t('dataProtection.recordingDeletedOn', { date: fmt.date(String(call.recordingDeletedAt)) })}
        {call.recordingDeletedAt && call.transcriptDeletedAt && ' '}
        {call.transcriptDeletedAt &&
          t('dataProtection.transcriptDeletedOn', { date: fmt.date(String(call.transcriptDeletedAt)) })}
      </span>
    </Alert>
  );
}

const CountToDelete = graphql(`
  query CallsToDeleteCount($filter: CallFilter) { callsToDeleteCount(filter: $filter) }
`);

const DeleteCalls = graphql(`
  mutation DeleteCalls($filter: CallFilter, $expectedCount: Int!) {
    deleteCalls(filter: $filter, expectedCount: $expectedCount) {
      __typename
      ... on BulkDeletion { count queued }
      ... on Error { code message }
    }
  }
`);

type CallFilterInput = NonNullable<VariablesOf<typeof DeleteCalls>['filter']>;

/**
 * Owners and admins, in the calls list's toolbar: delete every call the current filter shows. The
 * dialog shows the count first; the deletion is confirmed for that count (the server refuses if it
 * changed meanwhile, and the dialog shows the new count).
 */
export function BulkDeleteButton({ filter, onDeleted }: { filter: CallFilterInput; onDeleted?: () => void }) {
  const i18n = useT();
  const { t, locale } = i18n;
  const role = useRole();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [{ data, fetching: counting }, recount] = useQuery({
    query: CountToDelete,
    variables: { filter },
    pause: !open,
    requestPolicy: 'network-only',
  });
  const [{ fetching }, remove] = useMutation(DeleteCalls);
  if (!roleAtLeast(role, 'ADMIN')) return null;
  const count = data?.callsToDeleteCount ?? null;
  const confirm = async () => {
    if (count == null) return;
    if (count === 0) return setOpen(false);
    setError(null);
    const out = outcome(await remove({ filter, expectedCount: count }), 'deleteCalls');
    if (!out.ok) {
      setError(describeError(i18n, out.error));
      if (out.error.code === 'count_changed') recount({ requestPolicy: 'network-only' });
      return;
    }
    setOpen(false);
    toast(
      out.value.queued
        ? t('dataProtection.bulkQueued', { n: out.value.count })
        : t('dataProtection.bulkDeleted', { n: out.value.count }),
    );
    onDeleted?.();
  };
  return (
    <>
      <Button variant="danger" icon="trash" onClick={() => setOpen(true)} data-testid="bulk-delete">
        {t('dataProtection.bulkDelete')}
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
        onConfirm={confirm}
        title={t('dataProtection.bulkTitle')}
        confirmLabel={
          count == null ? t('common.loading') : t('dataProtection.bulkConfirm', { n: formatNumber(count, locale) })
        }
        danger
        loading={fetching || counting || count == null}
      >
        <div className="stack">
          {error && <Alert tone="red">{error}</Alert>}
          <p data-testid="bulk-delete-count">
            {count == null
              ? t('common.loading')
              : t('dataProtection.bulkBody', { n: count, count: formatNumber(count, locale) })}
          </p>
        </div>
      </ConfirmDialog>
    </>
  );
}

const RetentionQuery = graphql(`
  query Retention { account { id retentionRecordingDays retentionTranscriptDays } }
`);

const UpdateRetention = graphql(`
  mutation UpdateRetention($recordingDays: Int, $transcriptDays: Int) {
    updateRetention(recordingDays: $recordingDays, transcriptDays: $transcriptDays) {
      __typename
      ... on Account { id retentionRecordingDays retentionTranscriptDays }
      ... on Error { code message }
    }
  }
`);

/** The retention card's two fields, in order: what is kept, and its label. */
const RETENTION_FIELDS = [
  ['recording', 'dataProtection.recordingDays'],
  ['transcript', 'dataProtection.transcriptDays'],
] as const;

const days = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

/** Settings (owners and admins): how many days recordings and transcripts are kept; empty keeps them. */
export function RetentionCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: RetentionQuery });
  const [, update] = useMutation(UpdateRetention);
  const saved = data?.account;
  const form = useSettingsForm({
    initial: { recording: '', transcript: '' },
    saved: saved && {
      recording: saved.retentionRecordingDays?.toString() ?? '',
      transcript: saved.retentionTranscriptDays?.toString() ?? '',
    },
    save: async (v) =>
      outcome(
        await update({ recordingDays: days(v.recording), transcriptDays: days(v.transcript) }),
        'updateRetention',
      ),
    savedMessage: t('dataProtection.retentionSaved'),
  });
  return (
    <SettingsCard
      title={t('dataProtection.retention')}
      description={t('dataProtection.retentionLead')}
      form={form}
      testId="retention-form"
    >
      {RETENTION_FIELDS.map(([field, label]) => (
        <TextField
          key={field}
          label={t(label)}
          hint={t('dataProtection.daysHint')}
          inputMode="numeric"
          {...form.field(field)}
          disabled={!form.ready}
          data-testid={`retention-${field}`}
        />
      ))}
    </SettingsCard>
  );
}

/** Settings (owners): the way to the audit log. */
export function AuditLogCard() {
  const { t } = useT();
  return (
    <Card title={t('audit.title')} description={t('audit.lead')}>
      <Link className="btn" to="/settings/audit" data-testid="audit-link">
        {t('audit.open')}
      </Link>
    </Card>
  );
}
