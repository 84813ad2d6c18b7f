import { ZonedLead } from '../components/TimeZoneNote.tsx';
import { useTextInput } from '../lib/text-input.ts';
import { ListTable } from '../components/list-table.tsx';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Icon } from '../components/Icon.tsx';
import { FormDialog, OneTimeSecret } from '../components/forms.tsx';
import {
  Alert,
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  PageHeader,
  SecretBox,
  TextField,
  useToast,
} from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatRelative, useFormat } from '../lib/format.ts';
import { DeliveryBadge } from '../components/delivery.tsx';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useFormMutation, useOutcomeToast, useRedeliver } from '../lib/mutations.ts';
import { Link } from '../lib/router.tsx';
import { type Endpoint, EndpointDialog, EndpointPanel } from './webhook-endpoints.tsx';

const ApiKeysQuery = graphql(`
  query ApiKeys { apiKeys(includeRevoked: true) { id name prefix createdAt lastUsedAt revoked revokedAt } }
`);
const WebhookQuery = graphql(`
  query Webhook {
    webhookEndpoints {
      id url description eventTypes campaign { id name } ratePerSecond enabled disabledReason disabledAt failingSince
      previousSecretExpiresAt secretReadable replays { id status since total attempted succeeded failed createdAt finishedAt }
    }
    webhookDeliveries(first: 25) {
      edges {
        node {
          id eventType eventId status attemptCount createdAt completedAt nextAttemptAt
          call { id fileName customerPhone customerName }
          attempts { id at attemptNumber statusCode durationMs error manual responseExcerpt }
        }
      }
    }
  }
`);
const CreateApiKey = graphql(`
  mutation CreateApiKey($name: String!) {
    createApiKey(name: $name) { __typename ... on CreatedApiKey { key apiKey { id prefix name } } ... on Error { code message } }
  }
`);
const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) { __typename ... on ApiKey { id revoked revokedAt } ... on Error { code message } }
  }
`);
const SetWebhook = graphql(`
  mutation SetWebhook($url: String!) {
    setWebhookEndpoint(url: $url) { __typename ... on WebhookEndpointWithSecret { secret endpoint { id url enabled } } ... on Error { code message } }
  }
`);
const RedeliverDelivery = graphql(`
  mutation RedeliverDelivery($deliveryId: ID!) {
    redeliverWebhook(deliveryId: $deliveryId) { __typename ... on WebhookAttempt { id statusCode error } ... on Error { code message } }
  }
`);

type ApiKey = ResultOf<typeof ApiKeysQuery>['apiKeys'][number];

export function IntegrationsPage() {
  const { t } = useT();
  const isAdmin = roleAtLeast(useRole(), 'ADMIN');
  return (
    <div className="page">
      <PageHeader title={t('nav.integrations')} description={<ZonedLead>{t('integrations.lead')}</ZonedLead>} />
      <div className="stack">
        {!isAdmin && <Alert tone="blue">{t('integrations.adminOnly')}</Alert>}
        {isAdmin && <ApiKeysCard />}
        {isAdmin && <WebhookCard />}
        <IntakeHelp />
      </div>
    </div>
  );
}

function ApiKeysCard() {
  const i18n = useT();
  const { t, locale } = i18n;
  const fmt = useFormat();
  const report = useOutcomeToast();
  const [{ data, error }, refetch] = useQuery({ query: ApiKeysQuery });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rs, revoke] = useMutation(RevokeApiKey);
  const keys = data?.apiKeys ?? [];
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <Card
      title={t('apiKeys.title')}
      description={t('apiKeys.lead')}
      actions={
        <Button variant="primary" icon="plus" onClick={() => setCreating(true)} data-testid="create-api-key">
          {t('apiKeys.create')}
        </Button>
      }
      bodyClass={keys.length ? 'tight' : undefined}
    >
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      <ListTable
        testId="api-keys-table"
        rows={keys}
        loaded={data !== undefined}
        columns={[
          t('apiKeys.name'),
          t('apiKeys.prefix'),
          t('apiKeys.created'),
          t('apiKeys.lastUsed'),
          t('team.status'),
          { label: t('common.actions'), right: true },
        ]}
        empty={
          <EmptyState icon="key" title={t('apiKeys.emptyTitle')}>
            {t('apiKeys.emptyBody')}
          </EmptyState>
        }
        row={(k) => (
          <tr key={k.id} data-testid="api-key-row" data-prefix={k.prefix}>
            <td className="strong">{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td className="muted">{fmt.date(k.createdAt)}</td>
            <td className="muted">{k.lastUsedAt ? formatRelative(k.lastUsedAt, locale) : t('apiKeys.never')}</td>
            <td>
              {k.revoked ? (
                <Badge tone="red">{t('apiKeys.revoked')}</Badge>
              ) : (
                <Badge tone="green" dot>
                  {t('status.activeF')}
                </Badge>
              )}
            </td>
            <td className="right">
              {!k.revoked && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-danger"
                  onClick={() => setRevoking(k)}
                  data-testid="revoke-key"
                >
                  {t('apiKeys.revoke')}
                </Button>
              )}
            </td>
          </tr>
        )}
      />
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} onCreated={reload} />}
      <ConfirmDialog
        open={!!revoking}
        onClose={() => setRevoking(null)}
        title={t('apiKeys.revokeTitle', { name: revoking?.name ?? '' })}
        confirmLabel={t('apiKeys.revoke')}
        danger
        loading={rs.fetching}
        onConfirm={async () => {
          if (!revoking) return;
          const out = outcome(await revoke({ id: revoking.id }), 'revokeApiKey');
          setRevoking(null);
          report(out, t('apiKeys.revokedToast'));
          reload();
        }}
      >
        <p>{t('apiKeys.revokeBody')}</p>
      </ConfirmDialog>
    </Card>
  );
}

function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const { t } = useT();
  const name = useTextInput();
  const [key, setKey] = useState<string | null>(null);
  const [, create] = useMutation(CreateApiKey);
  const form = useFormMutation(
    async () => outcome(await create({ name: name.value.trim() }), 'createApiKey'),
    (created) => {
      setKey(created.key);
      onCreated();
    },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={key ? t('apiKeys.createdTitle') : t('apiKeys.create')}
      description={key ? undefined : t('apiKeys.createLead')}
      form={form}
      done={
        key && (
          <OneTimeSecret
            value={key}
            tone="amber"
            title={t('apiKeys.onceTitle')}
            doneLabel={t('apiKeys.stored')}
            onDone={onClose}
            doneTestId="key-done"
          >
            {t('apiKeys.onceBody')}
          </OneTimeSecret>
        )
      }
      submitLabel={t('apiKeys.create')}
      canSubmit={!!name.value.trim()}
    >
      <TextField
        label={t('apiKeys.name')}
        {...name}
        placeholder={t('apiKeys.namePlaceholder')}
        hint={t('apiKeys.nameHint')}
        autoFocus
        required
        name="api-key-name"
      />
    </FormDialog>
  );
}

function WebhookCard() {
  const i18n = useT();
  const { t, locale } = i18n;
  const fmt = useFormat();
  const toast = useToast();
  const [{ data, error }, refetch] = useQuery({ query: WebhookQuery });
  const endpoints = (data?.webhookEndpoints ?? []) as Endpoint[];
  const endpoint = endpoints[0] ?? null;
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [ss, save] = useMutation(SetWebhook);
  const [, redeliver] = useMutation(RedeliverDelivery);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const { busy, run: redeliverOne } = useRedeliver(
    async (deliveryId) => outcome(await redeliver({ deliveryId }), 'redeliverWebhook'),
    reload,
  );
  const value = url ?? '';
  // A replay reports its progress as it goes.
  const replaying = endpoints.some((e) => e.replays[0]?.status === 'RUNNING');
  useEffect(() => {
    if (!replaying) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), 2000);
    return () => clearInterval(timer);
  }, [replaying, refetch]);

  const { error: formError, submit } = useFormMutation(
    async () => outcome(await save({ url: value.trim() }), 'setWebhookEndpoint'),
    (saved) => {
      if (saved.secret) setSecret(saved.secret);
      setUrl(null);
      toast(t('webhook.saved'));
      reload();
    },
  );
  const deliveries = data?.webhookDeliveries.edges.map((e) => e.node) ?? [];

  return (
    <>
      <Card
        title={t('webhook.title')}
        description={t('webhook.lead')}
        actions={
          endpoint && (
            <Button
              icon="plus"
              onClick={() => setAdding(true)}
              disabled={endpoints.length >= 10}
              data-testid="add-endpoint"
            >
              {t('webhook.add')}
            </Button>
          )
        }
      >
        <div className="stack">
          {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
          {!endpoint && (
            <form className="row" style={{ alignItems: 'flex-end' }} onSubmit={submit}>
              <TextField
                className="spacer"
                label={t('webhook.url')}
                type="url"
                placeholder="https://example.com/hooks/escucha"
                value={value}
                onChange={(e) => setUrl(e.target.value)}
                error={formError ?? undefined}
                name="webhook-url"
              />
              <Button type="submit" variant="primary" loading={ss.fetching} disabled={!value.trim()}>
                {t('webhook.save')}
              </Button>
            </form>
          )}
          {secret && (
            <div className="stack-sm">
              <span className="label">{t('webhook.secret')}</span>
              <SecretBox value={secret} />
              <span className="muted small">{t('webhook.secretHint')}</span>
            </div>
          )}
          {endpoints.map((e) => (
            <EndpointPanel key={e.id} endpoint={e} onSecret={setSecret} reload={reload} />
          ))}
        </div>
      </Card>
      {adding && <EndpointDialog onClose={() => setAdding(false)} onSaved={reload} onSecret={setSecret} />}
      <Card
        title={t('webhook.log')}
        description={t('webhook.logLead')}
        bodyClass={deliveries.length ? 'tight' : undefined}
        actions={
          <Button size="sm" variant="ghost" icon="refresh" onClick={reload}>
            {t('common.refresh')}
          </Button>
        }
      >
        <ListTable
          rows={deliveries}
          columns={[
            t('webhook.event'),
            t('team.status'),
            t('webhook.call'),
            t('webhook.lastAttempt'),
            t('webhook.when'),
            { label: t('common.actions'), right: true },
          ]}
          empty={<p className="muted small">{endpoint ? t('webhook.noDeliveries') : t('webhook.noEndpoint')}</p>}
          row={(d) => {
            const last = d.attempts[d.attempts.length - 1];
            return (
              <tr key={d.id} data-testid="delivery-row">
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td>
                  <DeliveryBadge status={d.status} attemptCount={d.attemptCount} />
                </td>
                <td className="truncate" style={{ maxWidth: 200 }}>
                  {d.call ? (
                    <Link to={`/calls/${d.call.id}`}>
                      {d.call.customerName || d.call.customerPhone || d.call.fileName}
                    </Link>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="small">
                  {last ? (
                    <span title={last.responseExcerpt ?? last.error ?? undefined}>
                      {last.statusCode != null ? `HTTP ${last.statusCode}` : (last.error ?? '—')} ·{' '}
                      {fmt.step(last.durationMs)}
                      <span className="muted"> · {t('webhook.attempts', { n: d.attemptCount })}</span>
                    </span>
                  ) : (
                    <span className="muted">{t('webhook.noAttempt')}</span>
                  )}
                </td>
                <td className="muted nowrap">{formatRelative(d.createdAt, locale)}</td>
                <td className="right">
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="send"
                    loading={busy === d.id}
                    onClick={() => redeliverOne(d.id)}
                  >
                    {t('webhook.redeliver')}
                  </Button>
                </td>
              </tr>
            );
          }}
        />
      </Card>
    </>
  );
}

function IntakeHelp() {
  const { t } = useT();
  const base = `${window.location.origin}/v1/calls`;
  const example = `curl ${base} \\\n  -H "Authorization: Bearer esk_…" \\\n  -F file=@call.wav \\\n  -F agent_code=AG-07 \\\n  -F external_id=crm-123`;
  return (
    <Card title={t('integrations.intakeTitle')} description={t('integrations.intakeLead')}>
      <div className="stack-sm">
        <div className="row">
          <Icon name="link" />
          <code>POST {base}</code>
        </div>
        <pre className="secret" style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
          <code>{example}</code>
        </pre>
      </div>
    </Card>
  );
}
