import { ZonedLead } from '../components/TimeZoneNote.tsx';
import { useTextInput } from '../lib/text-input.ts';
import { ItemSelect } from '../components/item-select.tsx';
import { ActiveBadge, EmptyList, ListTable } from '../components/list-table.tsx';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { initials } from '../components/Shell.tsx';
import { useConfirm } from '../components/confirm.tsx';
import { FormDialog, OneTimeSecret } from '../components/forms.tsx';
import { Alert, Badge, Button, Card, PageHeader, ProgressBar, TextField } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useAuth, type Role } from '../lib/auth.tsx';
import { describeError, outcome, type Outcome } from '../lib/errors.ts';
import { formatRelative, useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useDialogSave, useFormMutation, useOutcomeToast } from '../lib/mutations.ts';

const TeamQuery = graphql(`
  query Team {
    seats { used total available }
    agents(includeInactive: true) { id name telephonyCode active deactivatedAt createdAt }
    users { id name email role createdAt }
  }
`);
const InvitationsQuery = graphql(`
  query Invitations { invitations { id email role createdAt expiresAt invitedBy { id name } } }
`);

const CreateAgent = graphql(`
  mutation CreateAgent($input: AgentInput!) {
    createAgent(input: $input) { __typename ... on Agent { id name telephonyCode active } ... on Error { code message } }
  }
`);
const UpdateAgent = graphql(`
  mutation UpdateAgent($id: ID!, $input: AgentPatch!) {
    updateAgent(id: $id, input: $input) { __typename ... on Agent { id name telephonyCode active } ... on Error { code message } }
  }
`);
const DeactivateAgent = graphql(`
  mutation DeactivateAgent($id: ID!) {
    deactivateAgent(id: $id) { __typename ... on Agent { id active } ... on Error { code message } }
  }
`);
const ReactivateAgent = graphql(`
  mutation ReactivateAgent($id: ID!) {
    reactivateAgent(id: $id) { __typename ... on Agent { id active } ... on Error { code message } }
  }
`);
const InviteUser = graphql(`
  mutation InviteUser($email: String!, $role: UserRole!, $agentId: ID) {
    inviteUser(email: $email, role: $role, agentId: $agentId) { __typename ... on InvitationPayload { link invitation { id email role } } ... on Error { code message } }
  }
`);
const RevokeInvitation = graphql(`
  mutation RevokeInvitation($id: ID!) {
    revokeInvitation(id: $id) { __typename ... on Invitation { id revokedAt } ... on Error { code message } }
  }
`);
const ChangeRole = graphql(`
  mutation ChangeRole($userId: ID!, $role: UserRole!) {
    changeUserRole(userId: $userId, role: $role) { __typename ... on User { id role } ... on Error { code message } }
  }
`);
const RemoveUser = graphql(`
  mutation RemoveUser($userId: ID!) {
    removeUser(userId: $userId) { __typename ... on User { id removedAt } ... on Error { code message } }
  }
`);

type Agent = ResultOf<typeof TeamQuery>['agents'][number];
const ROLES: Role[] = ['AGENT', 'VIEWER', 'ANALYST', 'ADMIN', 'OWNER'];

export function TeamPage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const fmt = useFormat();
  const notify = useOutcomeToast();
  const { session } = useAuth();
  const role = session?.user.role;
  const isAdmin = roleAtLeast(role, 'ADMIN');
  const [{ data, error }, refetch] = useQuery({ query: TeamQuery });
  const [inv, refetchInv] = useQuery({ query: InvitationsQuery, pause: !isAdmin });
  const [editing, setEditing] = useState<Agent | 'new' | null>(null);
  const [inviting, setInviting] = useState(false);
  const confirm = useConfirm();
  const [, deactivate] = useMutation(DeactivateAgent);
  const [, reactivate] = useMutation(ReactivateAgent);
  const [, revokeInv] = useMutation(RevokeInvitation);
  const [, changeRole] = useMutation(ChangeRole);
  const [, removeUser] = useMutation(RemoveUser);
  const reload = () => {
    refetch({ requestPolicy: 'network-only' });
    if (isAdmin) refetchInv({ requestPolicy: 'network-only' });
  };
  const report = (res: Outcome<unknown>, success: string) => {
    notify(res, success);
    reload();
  };
  /** Deactivating an agent and removing a user ask first; confirming runs it and reports it. */
  const askTo = (kind: 'deactivate' | 'remove', { id, name }: { id: string; name: string }) =>
    confirm.ask({
      title: t(`team.${kind}Title`, { name }),
      body: t(`team.${kind}Body`),
      confirmLabel: t(`team.${kind}`),
      danger: true,
      run: async () =>
        kind === 'deactivate'
          ? report(outcome(await deactivate({ id }), 'deactivateAgent'), t('team.deactivated', { name }))
          : report(outcome(await removeUser({ userId: id }), 'removeUser'), t('team.removed', { name })),
    });

  const seats = data?.seats;
  const agents = data?.agents ?? [];
  const active = agents.filter((a) => a.active);
  const inactive = agents.filter((a) => !a.active);

  return (
    <div className="page">
      <PageHeader
        title={t('nav.team')}
        description={<ZonedLead>{t('team.lead')}</ZonedLead>}
        actions={
          isAdmin && (
            <>
              <Button icon="mail" onClick={() => setInviting(true)}>
                {t('team.inviteUser')}
              </Button>
              <Button
                variant="primary"
                icon="plus"
                onClick={() => setEditing('new')}
                disabled={seats ? seats.available <= 0 : false}
                data-testid="add-agent"
              >
                {t('team.addAgent')}
              </Button>
            </>
          )
        }
      />
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      <div className="stack">
        <div className="grid-3">
          <div className="card stat">
            <div className="label">{t('team.seatsUsed')}</div>
            <div className="value" data-testid="seats">
              {seats ? `${seats.used} / ${seats.total}` : '—'}
            </div>
            {seats && (
              <ProgressBar
                value={seats.total ? seats.used / seats.total : 1}
                tone={seats.available <= 0 ? 'red' : undefined}
                label={t('team.seatsUsed')}
              />
            )}
            <div className="sub" style={{ marginTop: 8 }}>
              {seats && (seats.available > 0 ? t('team.seatsFree', { n: seats.available }) : t('team.seatsFull'))}
            </div>
          </div>
          <div className="card stat">
            <div className="label">{t('team.activeAgents')}</div>
            <div className="value">{active.length}</div>
            <div className="sub">{t('team.inactiveCount', { n: inactive.length })}</div>
          </div>
          <div className="card stat">
            <div className="label">{t('team.members')}</div>
            <div className="value">{data?.users.length ?? '—'}</div>
            <div className="sub">
              {isAdmin && inv.data ? t('team.pendingInvites', { n: inv.data.invitations.length }) : ' '}
            </div>
          </div>
        </div>

        <Card title={t('team.agents')} description={t('team.agentsLead')} bodyClass="tight">
          <ListTable
            testId="agents-table"
            rows={[...active, ...inactive]}
            columns={[
              t('team.name'),
              t('team.code'),
              t('team.status'),
              t('team.since'),
              { label: t('common.actions'), right: true, shown: isAdmin },
            ]}
            empty={
              <EmptyList
                icon="users"
                title={t('team.noAgentsTitle')}
                add={isAdmin && { label: t('team.addAgent'), onClick: () => setEditing('new') }}
              >
                {t('team.noAgentsBody')}
              </EmptyList>
            }
            row={(a) => (
              <tr key={a.id} data-testid="agent-row">
                <td className="strong">{a.name}</td>
                <td>
                  {a.telephonyCode ? <code>{a.telephonyCode}</code> : <span className="muted">{t('team.noCode')}</span>}
                </td>
                <td>
                  <ActiveBadge active={a.active} on={t('team.active')} off={t('team.inactive')} />
                </td>
                <td className="muted">{fmt.date(a.active ? a.createdAt : a.deactivatedAt)}</td>
                {isAdmin && (
                  <td className="right nowrap">
                    <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(a)}>
                      {t('common.edit')}
                    </Button>
                    {a.active ? (
                      <Button size="sm" variant="ghost" onClick={() => askTo('deactivate', a)}>
                        {t('team.deactivate')}
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={async () =>
                          report(
                            outcome(await reactivate({ id: a.id }), 'reactivateAgent'),
                            t('team.reactivated', { name: a.name }),
                          )
                        }
                      >
                        {t('team.reactivate')}
                      </Button>
                    )}
                  </td>
                )}
              </tr>
            )}
          />
        </Card>

        <Card title={t('team.users')} description={t('team.usersLead')} bodyClass="tight">
          <ListTable
            rows={data?.users ?? []}
            loaded={data !== undefined}
            columns={[
              t('team.name'),
              t('settings.email'),
              t('settings.role'),
              t('team.since'),
              { label: t('common.actions'), right: true, shown: isAdmin },
            ]}
            empty={null}
            row={(u) => {
              const self = u.id === session?.user.id;
              const canEdit = isAdmin && !self && (role === 'OWNER' || u.role !== 'OWNER');
              return (
                <tr key={u.id}>
                  <td>
                    <span className="row">
                      <span className="avatar" aria-hidden="true">
                        {initials(u.name)}
                      </span>
                      <span className="strong">{u.name}</span>
                      {self && <Badge tone="accent">{t('team.you')}</Badge>}
                    </span>
                  </td>
                  <td className="cell-break">{u.email}</td>
                  <td>
                    {canEdit ? (
                      <select
                        className="select select-sm"
                        aria-label={t('team.roleOf', { name: u.name })}
                        value={u.role}
                        onChange={async (e) =>
                          report(
                            outcome(await changeRole({ userId: u.id, role: e.target.value as Role }), 'changeUserRole'),
                            t('team.roleChanged', { name: u.name }),
                          )
                        }
                        style={{ width: '100%', maxWidth: 150, minWidth: 110 }}
                      >
                        {ROLES.filter(
                          (r) => (r !== 'OWNER' || role === 'OWNER') && (r !== 'AGENT' || u.role === 'AGENT'),
                        ).map((r) => (
                          <option key={r} value={r}>
                            {t(`roles.${r}` as MessageKey)}
                          </option>
                        ))}
                      </select>
                    ) : (
                      t(`roles.${u.role}` as MessageKey)
                    )}
                  </td>
                  <td className="muted">{fmt.date(u.createdAt)}</td>
                  {isAdmin && (
                    <td className="right">
                      {canEdit && (
                        <Button size="sm" variant="ghost" className="btn-danger" onClick={() => askTo('remove', u)}>
                          {t('team.remove')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              );
            }}
          />
        </Card>

        {isAdmin && (
          <Card
            title={t('team.invitations')}
            description={t('team.invitationsLead')}
            bodyClass={inv.data?.invitations.length ? 'tight' : undefined}
          >
            <ListTable
              scroll={false}
              rows={inv.data?.invitations ?? []}
              columns={[
                t('settings.email'),
                t('settings.role'),
                t('team.invitedBy'),
                t('team.expires'),
                { label: t('common.actions'), right: true },
              ]}
              empty={<p className="muted small">{t('team.noInvitations')}</p>}
              row={(i) => (
                <tr key={i.id}>
                  <td className="cell-break">{i.email}</td>
                  <td>{t(`roles.${i.role}` as MessageKey)}</td>
                  <td className="muted">{i.invitedBy?.name ?? '—'}</td>
                  <td className="muted">{formatRelative(i.expiresAt, locale)}</td>
                  <td className="right">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={async () =>
                        report(outcome(await revokeInv({ id: i.id }), 'revokeInvitation'), t('team.invitationRevoked'))
                      }
                    >
                      {t('team.revoke')}
                    </Button>
                  </td>
                </tr>
              )}
            />
          </Card>
        )}
      </div>

      {editing && (
        <AgentDialog agent={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} />
      )}
      {inviting && (
        <InviteDialog onClose={() => setInviting(false)} onSaved={reload} canInviteOwner={role === 'OWNER'} />
      )}
      {confirm.dialog}
    </div>
  );
}

function AgentDialog({ agent, onClose, onSaved }: { agent: Agent | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const name = useTextInput(agent?.name ?? '');
  const code = useTextInput(agent?.telephonyCode ?? '');
  const [, create] = useMutation(CreateAgent);
  const [, update] = useMutation(UpdateAgent);
  const input = { name: name.value.trim(), telephonyCode: code.value.trim() || null };
  const form = useDialogSave(
    async () =>
      agent
        ? outcome(await update({ id: agent.id, input }), 'updateAgent')
        : outcome(await create({ input }), 'createAgent'),
    agent ? t('team.agentSaved', { name: input.name }) : t('team.agentAdded', { name: input.name }),
    { onSaved, onClose },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={agent ? t('team.editAgent') : t('team.addAgent')}
      description={agent ? undefined : t('team.addAgentLead')}
      form={form}
      submitLabel={agent ? t('common.save') : t('team.addAgent')}
      canSubmit={!!name.value.trim()}
      id="agent-form"
    >
      <TextField label={t('team.name')} {...name} required autoFocus name="agent-name" />
      <TextField label={t('team.code')} {...code} hint={t('team.codeHint')} name="agent-code" />
    </FormDialog>
  );
}

function InviteDialog({
  onClose,
  onSaved,
  canInviteOwner,
}: {
  onClose: () => void;
  onSaved: () => void;
  canInviteOwner: boolean;
}) {
  const { t } = useT();
  const email = useTextInput();
  const [role, setRole] = useState<Role>('ANALYST');
  const [agentId, setAgentId] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const [, invite] = useMutation(InviteUser);
  const form = useFormMutation(
    async () =>
      outcome(
        await invite({ email: email.value.trim(), role, agentId: role === 'AGENT' ? agentId || null : null }),
        'inviteUser',
      ),
    (created) => {
      setLink(created.link);
      onSaved();
    },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={t('team.inviteUser')}
      description={link ? undefined : t('team.inviteLead')}
      form={form}
      done={
        link && (
          <OneTimeSecret
            value={link}
            tone="green"
            title={t('team.inviteCreated', { email: email.value })}
            doneLabel={t('common.done')}
            onDone={onClose}
          >
            {t('team.inviteLinkOnce')}
          </OneTimeSecret>
        )
      }
      submitLabel={t('team.sendInvite')}
      canSubmit={email.value.includes('@') && (role !== 'AGENT' || !!agentId)}
    >
      <TextField label={t('settings.email')} type="email" {...email} required autoFocus />
      <ItemSelect
        label={t('settings.role')}
        value={role}
        onValue={(r) => setRole(r as Role)}
        hint={t(`roles.${role}_hint` as MessageKey)}
        items={ROLES.filter((r) => r !== 'OWNER' || canInviteOwner).map((r) => ({
          id: r,
          name: t(`roles.${r}` as MessageKey),
        }))}
      />
      {role === 'AGENT' && <AgentPicker value={agentId} onChange={setAgentId} />}
    </FormDialog>
  );
}

const TeamAgentsQuery = graphql(`
  query TeamAgents { agents { id name telephonyCode } }
`);

/** Role AGENT: which agent of the team the invited person is (they will see only that agent's calls). */
function AgentPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { t } = useT();
  const [{ data }] = useQuery({ query: TeamAgentsQuery });
  return (
    <ItemSelect
      label={t('team.agentLink')}
      value={value}
      onValue={onChange}
      hint={t('team.agentLinkHint')}
      none={t('team.agentLinkChoose')}
      items={(data?.agents ?? []).map((a) => ({
        id: a.id,
        name: a.telephonyCode ? `${a.name} (${a.telephonyCode})` : a.name,
      }))}
    />
  );
}
