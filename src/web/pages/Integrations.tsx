import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Icon } from '../components/Icon.tsx';
import { Alert, Badge, Button, Card, ConfirmDialog, Dialog, EmptyState, PageHeader, SecretBox, TextField, useToast } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatDateTime, formatRelative, formatStep } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';
import { deliveryTone } from './CallDetail.tsx';

const ApiKeysQuery = graphql(`
  query ApiKeys { apiKeys(includeRevoked: true) { id name prefix createdAt lastUsedAt revoked revokedAt } }
`);
const WebhookQuery = graphql(`
  query Webhook {
    webhookEndpoint { id url enabled disabledReason createdAt updatedAt }
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
const RevealSecret = graphql(`
  mutation RevealSecret { revealWebhookSecret { __typename ... on MutationRevealWebhookSecretSuccess { data } ... on Error { code message } } }
`);
const RotateSecret = graphql(`
  mutation RotateSecret { rotateWebhookSecret { __typename ... on WebhookEndpointWithSecret { secret endpoint { id } } ... on Error { code message } } }
`);
const SendTest = graphql(`
  mutation SendTestWebhook { sendTestWebhook { __typename ... on WebhookDelivery { id status } ... on Error { code message } } }
`);
const EnableWebhook = graphql(`
  mutation EnableWebhook { enableWebhookEndpoint { __typename ... on WebhookEndpoint { id enabled } ... on Error { code message } } }
`);
const DisableWebhook = graphql(`
  mutation DisableWebhook { disableWebhookEndpoint { __typename ... on WebhookEndpoint { id enabled } ... on Error { code message } } }
`);
const RemoveWebhook = graphql(`
  mutation RemoveWebhook { removeWebhookEndpoint { __typename ... on MutationRemoveWebhookEndpointSuccess { data } ... on Error { code message } } }
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
      <PageHeader title={t('nav.integrations')} description={t('integrations.lead')} />
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
  const toast = useToast();
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
      {data && keys.length === 0 ? (
        <EmptyState icon="key" title={t('apiKeys.emptyTitle')}>
          {t('apiKeys.emptyBody')}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="api-keys-table">
            <thead>
              <tr>
                <th>{t('apiKeys.name')}</th>
                <th>{t('apiKeys.prefix')}</th>
                <th>{t('apiKeys.created')}</th>
                <th>{t('apiKeys.lastUsed')}</th>
                <th>{t('team.status')}</th>
                <th className="right">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-testid="api-key-row" data-prefix={k.prefix}>
                  <td className="strong">{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td className="muted">{formatDateTime(k.createdAt, locale, { dateStyle: 'medium' })}</td>
                  <td className="muted">{k.lastUsedAt ? formatRelative(k.lastUsedAt, locale) : t('apiKeys.never')}</td>
                  <td>{k.revoked ? <Badge tone="red">{t('apiKeys.revoked')}</Badge> : <Badge tone="green" dot>{t('team.active')}</Badge>}</td>
                  <td className="right">
                    {!k.revoked && (
                      <Button size="sm" variant="ghost" className="btn-danger" onClick={() => setRevoking(k)} data-testid="revoke-key">
                        {t('apiKeys.revoke')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
          if (!out.ok) toast(describeError(i18n, out.error), 'error');
          else toast(t('apiKeys.revokedToast'));
          reload();
        }}
      >
        <p>{t('apiKeys.revokeBody')}</p>
      </ConfirmDialog>
    </Card>
  );
}

function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const i18n = useT();
  const { t } = i18n;
  const [name, setName] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, create] = useMutation(CreateApiKey);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const out = outcome(await create({ name: name.trim() }), 'createApiKey');
    if (!out.ok) {
      setError(describeError(i18n, out.error));
      return;
    }
    setKey(out.value.key);
    onCreated();
  };
  return (
    <Dialog open onClose={onClose} title={key ? t('apiKeys.createdTitle') : t('apiKeys.create')} description={key ? undefined : t('apiKeys.createLead')}>
      {key ? (
        <div className="stack">
          <Alert tone="amber" title={t('apiKeys.onceTitle')}>
            {t('apiKeys.onceBody')}
          </Alert>
          <SecretBox value={key} />
          <div className="form-actions">
            <Button variant="primary" onClick={onClose} data-testid="key-done">
              {t('apiKeys.stored')}
            </Button>
          </div>
        </div>
      ) : (
        <form className="stack" onSubmit={submit}>
          {error && <Alert tone="red">{error}</Alert>}
          <TextField label={t('apiKeys.name')} value={name} onChange={(e) => setName(e.target.value)} placeholder={t('apiKeys.namePlaceholder')} hint={t('apiKeys.nameHint')} autoFocus required name="api-key-name" />
          <div className="form-actions">
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" variant="primary" loading={fetching} disabled={!name.trim()}>
              {t('apiKeys.create')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function WebhookCard() {
  const i18n = useT();
  const { t, locale } = i18n;
  const toast = useToast();
  const [{ data, error }, refetch] = useQuery({ query: WebhookQuery });
  const endpoint = data?.webhookEndpoint ?? null;
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'remove' | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [ss, save] = useMutation(SetWebhook);
  const [, reveal] = useMutation(RevealSecret);
  const [, rotate] = useMutation(RotateSecret);
  const [ts, sendTest] = useMutation(SendTest);
  const [, enable] = useMutation(EnableWebhook);
  const [, disable] = useMutation(DisableWebhook);
  const [, remove] = useMutation(RemoveWebhook);
  const [, redeliver] = useMutation(RedeliverDelivery);
  const [busy, setBusy] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const value = url ?? endpoint?.url ?? '';
  const fail = (e: Parameters<typeof describeError>[1]) => toast(describeError(i18n, e), 'error');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const out = outcome(await save({ url: value.trim() }), 'setWebhookEndpoint');
    if (!out.ok) {
      setFormError(describeError(i18n, out.error));
      return;
    }
    if (out.value.secret) setSecret(out.value.secret);
    setUrl(null);
    toast(t('webhook.saved'));
    reload();
  };
  const deliveries = data?.webhookDeliveries.edges.map((e) => e.node) ?? [];

  return (
    <>
      <Card title={t('webhook.title')} description={t('webhook.lead')}>
        <div className="stack">
          {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
          {endpoint && !endpoint.enabled && (
            <Alert tone="amber" title={t('webhook.disabled')}>
              {endpoint.disabledReason ?? t('webhook.disabledBody')}
            </Alert>
          )}
          <form className="row" style={{ alignItems: 'flex-end' }} onSubmit={submit}>
            <TextField className="spacer" label={t('webhook.url')} type="url" placeholder="https://example.com/hooks/escucha" value={value} onChange={(e) => setUrl(e.target.value)} error={formError ?? undefined} name="webhook-url" />
            <Button type="submit" variant="primary" loading={ss.fetching} disabled={!value.trim() || value === endpoint?.url}>
              {endpoint ? t('webhook.update') : t('webhook.save')}
            </Button>
          </form>
          {secret && (
            <div className="stack-sm">
              <span className="label">{t('webhook.secret')}</span>
              <SecretBox value={secret} />
              <span className="muted small">{t('webhook.secretHint')}</span>
            </div>
          )}
          {endpoint && (
            <div className="row-wrap">
              {!secret && (
                <Button
                  icon="eye"
                  onClick={async () => {
                    const out = outcome(await reveal({}), 'revealWebhookSecret');
                    if (!out.ok) fail(out.error);
                    else setSecret(out.value.data);
                  }}
                >
                  {t('webhook.reveal')}
                </Button>
              )}
              <Button icon="refresh" onClick={() => setConfirm('rotate')}>
                {t('webhook.rotate')}
              </Button>
              <Button
                icon="send"
                loading={ts.fetching}
                onClick={async () => {
                  const out = outcome(await sendTest({}), 'sendTestWebhook');
                  if (!out.ok) fail(out.error);
                  else toast(t('webhook.testQueued'));
                  setTimeout(reload, 1500);
                }}
              >
                {t('webhook.sendTest')}
              </Button>
              <span className="spacer" />
              {endpoint.enabled ? (
                <Button variant="ghost" onClick={async () => { const o = outcome(await disable({}), 'disableWebhookEndpoint'); if (!o.ok) fail(o.error); reload(); }}>
                  {t('webhook.disable')}
                </Button>
              ) : (
                <Button variant="ghost" onClick={async () => { const o = outcome(await enable({}), 'enableWebhookEndpoint'); if (!o.ok) fail(o.error); reload(); }}>
                  {t('webhook.enable')}
                </Button>
              )}
              <Button variant="ghost" className="btn-danger" icon="trash" onClick={() => setConfirm('remove')}>
                {t('webhook.remove')}
              </Button>
            </div>
          )}
        </div>
      </Card>
      <Card title={t('webhook.log')} description={t('webhook.logLead')} bodyClass={deliveries.length ? 'tight' : undefined} actions={<Button size="sm" variant="ghost" icon="refresh" onClick={reload}>{t('common.refresh')}</Button>}>
        {deliveries.length === 0 ? (
          <p className="muted small">{endpoint ? t('webhook.noDeliveries') : t('webhook.noEndpoint')}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{t('webhook.event')}</th>
                  <th>{t('team.status')}</th>
                  <th>{t('webhook.call')}</th>
                  <th>{t('webhook.lastAttempt')}</th>
                  <th>{t('webhook.when')}</th>
                  <th className="right">{t('common.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => {
                  const last = d.attempts[d.attempts.length - 1];
                  return (
                    <tr key={d.id} data-testid="delivery-row">
                      <td>
                        <code>{d.eventType}</code>
                      </td>
                      <td>
                        <Badge tone={deliveryTone(d.status)} dot>
                          {t(`delivery.${d.status}` as MessageKey)}
                        </Badge>
                      </td>
                      <td className="truncate" style={{ maxWidth: 200 }}>
                        {d.call ? <Link to={`/calls/${d.call.id}`}>{d.call.customerName || d.call.customerPhone || d.call.fileName}</Link> : <span className="muted">—</span>}
                      </td>
                      <td className="small">
                        {last ? (
                          <span title={last.responseExcerpt ?? last.error ?? undefined}>
                            {last.statusCode != null ? `HTTP ${last.statusCode}` : (last.error ?? '—')} · {formatStep(last.durationMs)}
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
                          onClick={async () => {
                            setBusy(d.id);
                            const out = outcome(await redeliver({ deliveryId: d.id }), 'redeliverWebhook');
                            setBusy(null);
                            if (!out.ok) fail(out.error);
                            else if (out.value.statusCode && out.value.statusCode < 300) toast(t('webhook.redelivered', { status: out.value.statusCode }));
                            else toast(t('webhook.redeliverFailed', { reason: out.value.error ?? String(out.value.statusCode ?? '') }), 'error');
                            reload();
                          }}
                        >
                          {t('webhook.redeliver')}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <ConfirmDialog
        open={confirm === 'rotate'}
        onClose={() => setConfirm(null)}
        title={t('webhook.rotateTitle')}
        confirmLabel={t('webhook.rotate')}
        danger
        onConfirm={async () => {
          setConfirm(null);
          const out = outcome(await rotate({}), 'rotateWebhookSecret');
          if (!out.ok) fail(out.error);
          else {
            setSecret(out.value.secret ?? null);
            toast(t('webhook.rotated'));
          }
        }}
      >
        <p>{t('webhook.rotateBody')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'remove'}
        onClose={() => setConfirm(null)}
        title={t('webhook.removeTitle')}
        confirmLabel={t('webhook.remove')}
        danger
        onConfirm={async () => {
          setConfirm(null);
          const out = outcome(await remove({}), 'removeWebhookEndpoint');
          if (!out.ok) fail(out.error);
          else {
            setSecret(null);
            setUrl(null);
            toast(t('webhook.removed'));
          }
          reload();
        }}
      >
        <p>{t('webhook.removeBody')}</p>
      </ConfirmDialog>
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
