import { useEffect, useState } from 'react';
import { useTextInput } from '../lib/text-input.ts';
import { ItemSelect } from '../components/item-select.tsx';
import { useMutation, useQuery } from 'urql';
import { FormDialog } from '../components/forms.tsx';
import { useConfirm } from '../components/confirm.tsx';
import { Alert, Badge, Button, Checkbox, ProgressBar, TextField, useToast } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { type Outcome, outcome } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useDialogSave, useFormMutation, useOutcomeToast } from '../lib/mutations.ts';
import { Link } from '../lib/router.tsx';
import { type EventType, eventLabelKey, eventName, eventType, PICKER_EVENTS } from '../lib/webhook-events.ts';

/** Everything the Integrations page shows of an endpoint. */
export const EndpointFields = `
  id url description eventTypes campaign { id name } ratePerSecond enabled disabledReason disabledAt failingSince
  previousSecretExpiresAt secretReadable replays { id status since total attempted succeeded failed createdAt finishedAt }
`;

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: EventType[];
  campaign: { id: string; name: string } | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  /** False when the service cannot open the signing secret (sealed under another APP_SECRET). */
  secretReadable: boolean;
  replays: {
    id: string;
    status: 'RUNNING' | 'FINISHED' | 'STOPPED';
    since: string;
    total: number;
    attempted: number;
    succeeded: number;
    failed: number;
  }[];
}

const Reveal = graphql(`
  mutation RevealEndpointSecret($id: ID) { revealWebhookSecret(id: $id) { __typename ... on MutationRevealWebhookSecretSuccess { data } ... on Error { code message } } }
`);
const Rotate = graphql(`
  mutation RotateEndpointSecret($id: ID) { rotateWebhookSecret(id: $id) { __typename ... on WebhookEndpointWithSecret { secret endpoint { id previousSecretExpiresAt } } ... on Error { code message } } }
`);
const Reissue = graphql(`
  mutation ReissueEndpointSecret($id: ID!) { reissueWebhookSecret(id: $id) { __typename ... on WebhookEndpointWithSecret { secret endpoint { id secretReadable } } ... on Error { code message } } }
`);
const SendTest = graphql(`
  mutation SendEndpointTest($id: ID) { sendTestWebhook(id: $id) { __typename ... on WebhookDelivery { id status } ... on Error { code message } } }
`);
const Enable = graphql(`
  mutation EnableEndpoint($id: ID) { enableWebhookEndpoint(id: $id) { __typename ... on WebhookEndpoint { id enabled } ... on Error { code message } } }
`);
const Disable = graphql(`
  mutation DisableEndpoint($id: ID) { disableWebhookEndpoint(id: $id) { __typename ... on WebhookEndpoint { id enabled } ... on Error { code message } } }
`);
const Remove = graphql(`
  mutation RemoveEndpoint($id: ID) { removeWebhookEndpoint(id: $id) { __typename ... on MutationRemoveWebhookEndpointSuccess { data } ... on Error { code message } } }
`);
const Create = graphql(`
  mutation CreateEndpoint($input: WebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { __typename ... on WebhookEndpointWithSecret { secret endpoint { id } } ... on Error { code message } }
  }
`);
const Update = graphql(`
  mutation UpdateEndpoint($id: ID!, $input: WebhookEndpointPatch!) {
    updateWebhookEndpoint(id: $id, input: $input) { __typename ... on WebhookEndpoint { id } ... on Error { code message } }
  }
`);
const Replay = graphql(`
  mutation ReplayEndpoint($id: ID!, $since: DateTime!) {
    replayWebhookDeliveries(id: $id, since: $since) { __typename ... on WebhookReplay { id total status } ... on Error { code message } }
  }
`);
const Campaigns = graphql(`
  query WebhookCampaigns { campaigns { id name } }
`);
const DisabledEndpoints = graphql(`
  query DisabledWebhookEndpoints { webhookEndpoints { id url enabled disabledReason disabledAt } }
`);

/** One endpoint: its settings, its state and every action on it. */
export function EndpointPanel({
  endpoint,
  onSecret,
  reload,
}: {
  endpoint: Endpoint;
  onSecret: (secret: string | null) => void;
  reload: () => void;
}) {
  const { t } = useT();
  const fmt = useFormat();
  const toast = useToast();
  const report = useOutcomeToast();
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [, reveal] = useMutation(Reveal);
  const [, rotate] = useMutation(Rotate);
  const [rs, reissue] = useMutation(Reissue);
  const [ts, sendTest] = useMutation(SendTest);
  const [testId, setTestId] = useState<string | null>(null);
  const [, enable] = useMutation(Enable);
  const [, disable] = useMutation(Disable);
  const [, remove] = useMutation(Remove);
  const id = { id: endpoint.id };
  const replay = endpoint.replays[0];
  /**
   * Rotating the secret and removing the endpoint ask first; once done, the panel shows the
   * `secret` the action leaves (rotate: the new one; remove: none).
   */
  const askTo = <V,>(kind: 'rotate' | 'remove', run: () => Promise<Outcome<V>>, secret: (done: V) => string | null) =>
    confirm.ask({
      title: t(`webhook.${kind}Title`),
      body: t(`webhook.${kind}Body`),
      confirmLabel: t(`webhook.${kind}`),
      danger: kind === 'remove',
      run: async () => {
        const out = await run();
        if (report(out)) {
          onSecret(secret(out.value));
          toast(t(kind === 'rotate' ? 'webhook.rotated' : 'webhook.removed'));
        }
        reload();
      },
    });

  return (
    <div
      className="stack-sm"
      data-testid="webhook-endpoint"
      style={{ borderTop: '1px solid var(--border)', paddingTop: 12 }}
    >
      <div className="row-wrap">
        <code className="strong truncate">{endpoint.url}</code>
        {endpoint.description && <span className="muted">{endpoint.description}</span>}
        <span className="spacer" />
        {endpoint.enabled ? (
          <Badge tone="green" dot>
            {t('team.active')}
          </Badge>
        ) : (
          <Badge tone="amber">{t('webhook.paused')}</Badge>
        )}
      </div>
      <div className="row-wrap small">
        {endpoint.eventTypes.map((e) => (
          <Badge key={e} tone="gray" title={t(eventLabelKey(eventName(e)))}>
            {eventName(e)}
          </Badge>
        ))}
        <span className="muted">
          {endpoint.campaign ? t('webhook.onlyCampaign', { name: endpoint.campaign.name }) : t('webhook.allCampaigns')}
        </span>
      </div>
      {!endpoint.enabled && (
        <Alert tone="amber" title={t('webhook.disabled')}>
          {endpoint.disabledReason ?? t('webhook.disabledBody')}
        </Alert>
      )}
      {!endpoint.secretReadable && (
        <Alert tone="red" title={t('webhook.unreadableTitle')}>
          <div className="stack-sm" data-testid="secret-unreadable">
            <span>{t('webhook.unreadableBody')}</span>
            <div>
              <Button
                variant="primary"
                loading={rs.fetching}
                onClick={async () => {
                  const out = outcome(await reissue({ id: endpoint.id }), 'reissueWebhookSecret');
                  if (report(out)) {
                    onSecret(out.value.secret ?? null);
                    toast(t('webhook.reissued'));
                  }
                  reload();
                }}
              >
                {t('webhook.reissue')}
              </Button>
            </div>
          </div>
        </Alert>
      )}
      {endpoint.enabled && endpoint.failingSince && (
        <span className="small" data-testid="failing-since">
          {t('webhook.failingSince', { at: fmt.dateTime(endpoint.failingSince) })}
        </span>
      )}
      {endpoint.previousSecretExpiresAt && (
        <span className="small muted" data-testid="secret-overlap">
          {t('webhook.overlapUntil', { at: fmt.dateTime(endpoint.previousSecretExpiresAt) })}
        </span>
      )}
      {replay && (
        <div className="stack-sm small" data-testid="replay-progress">
          <span>
            {t(replay.status === 'RUNNING' ? 'webhook.replayRunning' : 'webhook.replayDone', {
              since: fmt.dateTime(replay.since),
              done: replay.attempted,
              total: replay.total,
              ok: replay.succeeded,
              failed: replay.failed,
            })}
          </span>
          {replay.status === 'RUNNING' && replay.total > 0 && (
            <ProgressBar value={replay.attempted / replay.total} label={`${replay.attempted}/${replay.total}`} />
          )}
        </div>
      )}
      <div className="row-wrap">
        <Button
          icon="eye"
          onClick={async () => {
            const out = outcome(await reveal(id), 'revealWebhookSecret');
            if (report(out)) onSecret(out.value.data);
          }}
        >
          {t('webhook.reveal')}
        </Button>
        <Button
          icon="refresh"
          onClick={() =>
            askTo(
              'rotate',
              async () => outcome(await rotate(id), 'rotateWebhookSecret'),
              (done) => done.secret ?? null,
            )
          }
        >
          {t('webhook.rotate')}
        </Button>
        <Button
          icon="send"
          loading={ts.fetching}
          onClick={async () => {
            const out = outcome(await sendTest(id), 'sendTestWebhook');
            if (report(out)) setTestId(out.value.id);
            setTimeout(reload, 1500);
          }}
        >
          {t('webhook.sendTest')}
        </Button>
        <Button onClick={() => setReplaying(true)} disabled={!endpoint.enabled}>
          {t('webhook.replay')}
        </Button>
        <Button variant="ghost" onClick={() => setEditing(true)}>
          {t('common.edit')}
        </Button>
        <span className="spacer" />
        <Button
          variant="ghost"
          onClick={async () => {
            if (endpoint.enabled) report(outcome(await disable(id), 'disableWebhookEndpoint'));
            else report(outcome(await enable(id), 'enableWebhookEndpoint'));
            reload();
          }}
        >
          {endpoint.enabled ? t('webhook.disable') : t('webhook.enable')}
        </Button>
        <Button
          variant="ghost"
          className="btn-danger"
          icon="trash"
          onClick={() =>
            askTo(
              'remove',
              async () => outcome(await remove(id), 'removeWebhookEndpoint'),
              () => null,
            )
          }
        >
          {t('webhook.remove')}
        </Button>
      </div>
      {testId && <TestResult endpointId={endpoint.id} deliveryId={testId} />}
      {editing && <EndpointDialog endpoint={endpoint} onClose={() => setEditing(false)} onSaved={reload} />}
      {replaying && <ReplayDialog endpoint={endpoint} onClose={() => setReplaying(false)} onStarted={reload} />}
      {confirm.dialog}
    </div>
  );
}

/** Adding an endpoint (its secret is shown once created) or changing one. */
export function EndpointDialog({
  endpoint,
  onClose,
  onSaved,
  onSecret,
}: {
  endpoint?: Endpoint;
  onClose: () => void;
  onSaved: () => void;
  onSecret?: (secret: string) => void;
}) {
  const { t } = useT();
  const [{ data }] = useQuery({ query: Campaigns });
  const url = useTextInput(endpoint?.url ?? '');
  const description = useTextInput(endpoint?.description ?? '');
  const [events, setEvents] = useState<EventType[]>(endpoint?.eventTypes ?? ['CALL_ANALYZED']);
  const [campaignId, setCampaignId] = useState(endpoint?.campaign?.id ?? '');
  const [, create] = useMutation(Create);
  const [, update] = useMutation(Update);
  const input = {
    url: url.value.trim(),
    description: description.value.trim() || null,
    eventTypes: events,
    campaignId: campaignId || null,
  };
  const form = useFormMutation(
    async (): Promise<Outcome<{ secret: string | null }>> => {
      if (!endpoint) return outcome(await create({ input }), 'createWebhookEndpoint');
      const out = outcome(await update({ id: endpoint.id, input }), 'updateWebhookEndpoint');
      return out.ok ? { ok: true, value: { secret: null } } : out;
    },
    (saved) => {
      if (saved.secret) onSecret?.(saved.secret);
      onSaved();
      onClose();
    },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={endpoint ? t('webhook.editTitle') : t('webhook.addTitle')}
      form={form}
      submitLabel={endpoint ? t('common.save') : t('webhook.add')}
      canSubmit={!!url.value.trim() && events.length > 0}
    >
      <TextField
        label={t('webhook.url')}
        type="url"
        {...url}
        placeholder="https://example.com/hooks/escucha"
        required
        autoFocus
        name="endpoint-url"
      />
      <TextField
        label={t('webhook.description')}
        {...description}
        placeholder={t('webhook.descriptionPlaceholder')}
        name="endpoint-description"
      />
      <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="label">{t('webhook.events')}</legend>
        {PICKER_EVENTS.map((name) => {
          const e = eventType(name);
          return (
            <Checkbox
              key={name}
              label={
                <>
                  {t(eventLabelKey(name))} <code>{name}</code>
                </>
              }
              checked={events.includes(e)}
              onChange={(ev) => setEvents(ev.target.checked ? [...events, e] : events.filter((x) => x !== e))}
            />
          );
        })}
      </fieldset>
      <ItemSelect
        label={t('webhook.campaign')}
        value={campaignId}
        onValue={setCampaignId}
        none={t('webhook.allCampaigns')}
        items={data?.campaigns ?? []}
      />
    </FormDialog>
  );
}

/** "Redeliver every failed delivery since…": starts the replay job; progress shows on the endpoint. */
function ReplayDialog({
  endpoint,
  onClose,
  onStarted,
}: {
  endpoint: Endpoint;
  onClose: () => void;
  onStarted: () => void;
}) {
  const { t } = useT();
  const yesterday = new Date(Date.now() - 86_400_000 - new Date().getTimezoneOffset() * 60_000);
  const [since, setSince] = useState(yesterday.toISOString().slice(0, 16));
  const [, replay] = useMutation(Replay);
  const form = useDialogSave(
    async () =>
      outcome(await replay({ id: endpoint.id, since: new Date(since).toISOString() }), 'replayWebhookDeliveries'),
    (started) => t('webhook.replayStarted', { n: started.total }),
    { onSaved: onStarted, onClose },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={t('webhook.replayTitle')}
      description={t('webhook.replayLead')}
      form={form}
      submitLabel={t('webhook.replay')}
      canSubmit={!!since}
    >
      <TextField
        label={t('webhook.replaySince')}
        type="datetime-local"
        value={since}
        onChange={(e) => setSince(e.target.value)}
        required
        name="replay-since"
      />
    </FormDialog>
  );
}

/**
 * Shown to admins on every page while an endpoint stands disabled for a reason other than a
 * user pausing it (410 Gone, or failing for days).
 */
export function WebhookDisabledBanner() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: DisabledEndpoints, requestPolicy: 'cache-and-network' });
  const down = (data?.webhookEndpoints ?? []).filter(
    (e) => !e.enabled && e.disabledReason && e.disabledReason !== 'Disabled by a user',
  );
  if (down.length === 0) return null;
  return (
    <div style={{ padding: '12px 24px 0' }} data-testid="webhook-disabled-banner">
      {down.map((e) => (
        <Alert key={e.id} tone="red" title={t('webhook.bannerTitle', { url: e.url })}>
          {e.disabledReason} <Link to="/integrations">{t('webhook.bannerAction')}</Link>
        </Alert>
      ))}
    </div>
  );
}

export type DisabledEndpoint = ResultOf<typeof DisabledEndpoints>['webhookEndpoints'][number];

const TestDelivery = graphql(`
  query TestDelivery($endpointId: ID!) {
    webhookDeliveries(endpointId: $endpointId, first: 5) {
      edges { node { id status attempts { statusCode durationMs error } } }
    }
  }
`);

/**
 * What became of "Send test event" (issue 26: it gave no visible result): waiting, then what the
 * endpoint answered, read again every second until the delivery is settled.
 */
function TestResult({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const { t } = useT();
  const fmt = useFormat();
  const [{ data }, refetch] = useQuery({
    query: TestDelivery,
    variables: { endpointId },
    requestPolicy: 'network-only',
  });
  const delivery = data?.webhookDeliveries.edges.map((e) => e.node).find((d) => d.id === deliveryId);
  const last = delivery?.attempts[delivery.attempts.length - 1];
  const settled = !!last || (delivery && delivery.status !== 'PENDING');
  // biome-ignore lint/correctness/useExhaustiveDependencies: every answer (data) schedules the next read.
  useEffect(() => {
    if (settled) return;
    const timer = setTimeout(() => refetch({ requestPolicy: 'network-only' }), 1000);
    return () => clearTimeout(timer);
  }, [settled, data, refetch]);
  const ok = delivery?.status === 'SUCCEEDED';
  return (
    <div
      role="status"
      className="small"
      data-testid="test-result"
      data-state={settled ? (ok ? 'ok' : 'failed') : 'waiting'}
    >
      {!settled ? (
        <span className="muted">{t('webhook.testWaiting')}</span>
      ) : ok ? (
        <Badge tone="green">
          {t('webhook.testOk', { status: last?.statusCode ?? '—', time: fmt.step(last?.durationMs ?? null) })}
        </Badge>
      ) : (
        <Badge tone="red" wrap>
          {t('webhook.testFailed', {
            reason: last?.statusCode != null ? `HTTP ${last.statusCode}` : (last?.error ?? '—'),
          })}
        </Badge>
      )}
    </div>
  );
}
