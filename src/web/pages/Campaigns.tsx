import { ZonedLead } from '../components/TimeZoneNote.tsx';
import { useTextInput } from '../lib/text-input.ts';
import { ItemSelect, useLanguageItems } from '../components/item-select.tsx';
import { ActiveBadge, EmptyList, ListTable } from '../components/list-table.tsx';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useLanguageName } from '../components/call-bits.tsx';
import { FormDialog } from '../components/forms.tsx';
import { Alert, Button, Card, Checkbox, PageHeader, TextField } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useDialogSave, useOutcomeToast } from '../lib/mutations.ts';
import { Link } from '../lib/router.tsx';

const CampaignsQuery = graphql(`
  query Campaigns {
    campaigns(includeArchived: true) { id name language archived archivedAt createdAt template { id name } }
    templates { id name isDefault }
  }
`);
const CreateCampaign = graphql(`
  mutation CreateCampaign($input: CampaignInput!) {
    createCampaign(input: $input) { __typename ... on Campaign { id name } ... on Error { code message } }
  }
`);
const UpdateCampaign = graphql(`
  mutation UpdateCampaign($id: ID!, $input: CampaignPatch!) {
    updateCampaign(id: $id, input: $input) { __typename ... on Campaign { id name language template { id } } ... on Error { code message } }
  }
`);
const ArchiveCampaign = graphql(`
  mutation ArchiveCampaign($id: ID!) {
    archiveCampaign(id: $id) { __typename ... on Campaign { id archived } ... on Error { code message } }
  }
`);
const UnarchiveCampaign = graphql(`
  mutation UnarchiveCampaign($id: ID!) {
    unarchiveCampaign(id: $id) { __typename ... on Campaign { id archived } ... on Error { code message } }
  }
`);

type Campaign = ResultOf<typeof CampaignsQuery>['campaigns'][number];
type Template = ResultOf<typeof CampaignsQuery>['templates'][number];

export function CampaignsPage() {
  const i18n = useT();
  const { t } = i18n;
  const fmt = useFormat();
  const report = useOutcomeToast();
  const canManage = roleAtLeast(useRole(), 'ANALYST');
  const langName = useLanguageName();
  const [{ data, error }, refetch] = useQuery({ query: CampaignsQuery });
  const [showArchived, setShowArchived] = useState(false);
  const [editing, setEditing] = useState<Campaign | 'new' | null>(null);
  const [, archive] = useMutation(ArchiveCampaign);
  const [, unarchive] = useMutation(UnarchiveCampaign);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const all = data?.campaigns ?? [];
  const list = all.filter((c) => showArchived || !c.archived);
  const archivedCount = all.filter((c) => c.archived).length;
  const defaultTemplate = data?.templates.find((x) => x.isDefault);

  const toggle = async (c: Campaign) => {
    const out = c.archived
      ? outcome(await unarchive({ id: c.id }), 'unarchiveCampaign')
      : outcome(await archive({ id: c.id }), 'archiveCampaign');
    report(
      out,
      c.archived ? t('campaigns.restored', { name: c.name }) : t('campaigns.archivedToast', { name: c.name }),
    );
    reload();
  };

  return (
    <div className="page">
      <PageHeader
        title={t('nav.campaigns')}
        description={<ZonedLead>{t('campaigns.lead')}</ZonedLead>}
        actions={
          canManage && (
            <Button variant="primary" icon="plus" onClick={() => setEditing('new')} data-testid="new-campaign">
              {t('campaigns.new')}
            </Button>
          )
        }
      />
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      <Card
        bodyClass="tight"
        title={t('campaigns.listTitle', { n: list.length })}
        actions={
          archivedCount > 0 && (
            <Checkbox
              label={t('campaigns.showArchived', { n: archivedCount })}
              checked={showArchived}
              onChange={(e) => setShowArchived(e.target.checked)}
            />
          )
        }
      >
        <ListTable
          testId="campaigns-table"
          rows={list}
          loaded={data !== undefined}
          columns={[
            t('campaigns.name'),
            t('campaigns.language'),
            t('campaigns.template'),
            t('team.status'),
            t('campaigns.created'),
            { label: t('common.actions'), right: true, shown: canManage },
          ]}
          empty={
            <EmptyList
              icon="flag"
              title={t('campaigns.emptyTitle')}
              add={canManage && { label: t('campaigns.new'), onClick: () => setEditing('new') }}
            >
              {t('campaigns.emptyBody')}
            </EmptyList>
          }
          row={(c) => (
            <tr key={c.id} data-testid="campaign-row">
              <td className="strong">
                <Link to={`/calls?view=analyzed&campaign=${c.id}`} className="row-link" title={t('campaigns.seeCalls')}>
                  {c.name}
                </Link>
              </td>
              <td>{c.language ? langName(c.language) : <span className="muted">{t('campaigns.detect')}</span>}</td>
              <td>
                {c.template ? (
                  c.template.name
                ) : (
                  <span className="muted">
                    {defaultTemplate
                      ? t('campaigns.defaultIs', { name: defaultTemplate.name })
                      : t('campaigns.noDefault')}
                  </span>
                )}
              </td>
              <td>
                <ActiveBadge active={!c.archived} on={t('status.activeF')} off={t('campaigns.archived')} />
              </td>
              <td className="muted">{fmt.date(c.createdAt)}</td>
              {canManage && (
                <td className="right nowrap">
                  <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(c)}>
                    {t('common.edit')}
                  </Button>
                  <Button size="sm" variant="ghost" icon="archive" onClick={() => toggle(c)}>
                    {c.archived ? t('campaigns.unarchive') : t('campaigns.archive')}
                  </Button>
                </td>
              )}
            </tr>
          )}
        />
      </Card>
      {editing && (
        <CampaignDialog
          campaign={editing === 'new' ? null : editing}
          templates={data?.templates ?? []}
          onClose={() => setEditing(null)}
          onSaved={reload}
        />
      )}
    </div>
  );
}

function CampaignDialog({
  campaign,
  templates,
  onClose,
  onSaved,
}: {
  campaign: Campaign | null;
  templates: Template[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useT();
  const languages = useLanguageItems();
  const name = useTextInput(campaign?.name ?? '');
  const [language, setLanguage] = useState(campaign?.language ?? '');
  const [templateId, setTemplateId] = useState(campaign?.template?.id ?? '');
  const [, create] = useMutation(CreateCampaign);
  const [, update] = useMutation(UpdateCampaign);
  const def = templates.find((x) => x.isDefault);
  const input = { name: name.value.trim(), language: language || null, templateId: templateId || null };
  const form = useDialogSave(
    async () =>
      campaign
        ? outcome(await update({ id: campaign.id, input }), 'updateCampaign')
        : outcome(await create({ input }), 'createCampaign'),
    campaign ? t('campaigns.saved', { name: input.name }) : t('campaigns.created_toast', { name: input.name }),
    { onSaved, onClose },
  );
  return (
    <FormDialog
      onClose={onClose}
      title={campaign ? t('campaigns.edit') : t('campaigns.new')}
      description={t('campaigns.dialogLead')}
      form={form}
      submitLabel={campaign ? t('common.save') : t('campaigns.create')}
      canSubmit={!!name.value.trim()}
    >
      <TextField
        label={t('campaigns.name')}
        {...name}
        required
        autoFocus
        name="campaign-name"
        hint={t('campaigns.nameHint')}
      />
      <ItemSelect
        label={t('campaigns.language')}
        value={language}
        onValue={setLanguage}
        hint={t('campaigns.languageHint')}
        name="campaign-language"
        none={t('campaigns.detect')}
        items={languages}
      />
      <ItemSelect
        label={t('campaigns.template')}
        value={templateId}
        onValue={setTemplateId}
        name="campaign-template"
        hint={templates.length ? undefined : t('campaigns.noTemplatesHint')}
        none={def ? t('campaigns.useDefault', { name: def.name }) : t('campaigns.useDefaultNone')}
        items={templates}
      />
    </FormDialog>
  );
}
