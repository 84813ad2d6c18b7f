import { ZonedLead } from '../components/TimeZoneNote.tsx';
import { ItemSelect, useLanguageItems } from '../components/item-select.tsx';
import { LinkButton } from '../components/link-button.tsx';
import { CriterionHead } from '../components/review/Criteria.tsx';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { TemplateQaCard, TemplateReanalysisOffer } from '../components/template-qa.tsx';
import { callTitle, humanizeKey, scoreClass, useScoreBands } from '../components/call-bits.tsx';
import { Icon } from '../components/Icon.tsx';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  EmptyState,
  LoadingBlock,
  PageHeader,
  SelectField,
  TextArea,
  TextField,
  useToast,
} from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome, type ApiError } from '../lib/errors.ts';
import { formatClock, formatScore, useFormat } from '../lib/format.ts';
import { criterionReason } from '../lib/criterion-reason.ts';
import { useDocumentTitle } from '../lib/page-title.ts';
import { graphql } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { Link, navigate, setNavigationGuard } from '../lib/router.tsx';
import {
  definitionToDraft,
  draftToDefinition,
  KINDS,
  METRICS,
  newCriterion,
  newTopic,
  OPS,
  parseIssuePath,
  phraseRows,
  RATIO_METRICS,
  slugify,
  SPEAKERS,
  starterDraft,
  type CriterionDraft,
  type Kind,
  type TemplateDraft,
  type TopicDraft,
} from '../lib/template-draft.ts';
import { SetDefaultTemplate } from './Templates.tsx';
import { MachineAgreementFlag } from '../components/machine-agreement.tsx';

const TemplateQuery = graphql(`
  query Template($id: ID!) { template(id: $id) { id name isDefault deleted definition updatedAt } }
`);
const PreviewCallsQuery = graphql(`
  query PreviewCalls($language: String) {
    calls(first: 30, filter: { view: ANALYZED, language: $language }) {
      edges { node { id fileName customerName customerPhone startedAt agent { name } } }
    }
  }
`);
const CreateTemplate = graphql(`
  mutation CreateTemplate($name: String!, $definition: JSON!) {
    createTemplate(name: $name, definition: $definition) { __typename ... on Template { id name } ... on Error { code message } ... on ValidationError { issues { path message } } }
  }
`);
const UpdateTemplate = graphql(`
  mutation UpdateTemplate($id: ID!, $name: String, $definition: JSON) {
    updateTemplate(id: $id, name: $name, definition: $definition) { __typename ... on Template { id name definition updatedAt } ... on Error { code message } ... on ValidationError { issues { path message } } }
  }
`);
const DeleteTemplate = graphql(`
  mutation DeleteTemplate($id: ID!) {
    deleteTemplate(id: $id) { __typename ... on Template { id deleted } ... on Error { code message } }
  }
`);
const PreviewTemplate = graphql(`
  mutation PreviewTemplate($callId: ID!, $definition: JSON!) {
    previewTemplate(callId: $callId, definition: $definition) {
      __typename
      ... on AnalysisPreview {
        score topic topicLabel summary
        criteria { key label kind result points maxPoints critical reason reasonCode reasonParams evidence { quote start } }
      }
      ... on Error { code message }
      ... on ValidationError { issues { path message } }
    }
  }
`);

/** A criterion's weight: one to ten. */
const WEIGHTS = Array.from({ length: 10 }, (_, k) => ({ id: String(k + 1), name: k + 1 }));

/** The colour of a kind's share of the score (the others: the accent). */
const KIND_COLOR: Partial<Record<Kind, string>> = {
  forbidden: 'var(--red)',
  metric: 'var(--customer)',
  llm: 'var(--violet)',
};

export function TemplateEditorPage({ id }: { id: string | null }) {
  const { t, lang } = useT();
  const [{ data, fetching, error }] = useQuery({ query: TemplateQuery, variables: { id: id ?? '' }, pause: !id });
  const i18n = useT();
  // The tab names the template being edited (its saved name), or says it is a new one.
  useDocumentTitle(id ? (data?.template?.name ?? null) : t('templates.new'));
  if (id && fetching && !data) return <LoadingBlock />;
  if (id && error) return <Alert tone="red">{describeError(i18n, error)}</Alert>;
  if (id && data && !data.template)
    return (
      <div className="page card">
        <EmptyState
          icon="clipboard"
          title={t('templates.notFound')}
          action={<LinkButton to="/templates">{t('nav.templates')}</LinkButton>}
        />
      </div>
    );
  const tpl = data?.template ?? null;
  return (
    <Editor
      key={tpl?.id ?? 'new'}
      id={tpl?.id ?? null}
      isDefault={tpl?.isDefault ?? false}
      initial={tpl ? definitionToDraft(tpl.name, tpl.definition) : starterDraft(lang)}
    />
  );
}

function Editor({ id, isDefault, initial }: { id: string | null; isDefault: boolean; initial: TemplateDraft }) {
  const i18n = useT();
  const { t } = i18n;
  const fmt = useFormat();
  const toast = useToast();
  const report = useOutcomeToast();
  const canEdit = roleAtLeast(useRole(), 'ANALYST');
  const languages = useLanguageItems();
  const [draft, setDraft] = useState<TemplateDraft>(initial);
  const [dirty, setDirtyState] = useState(false);
  // Read by the navigation guard, which must see a save's "clean" before React re-renders.
  const dirtyRef = useRef(false);
  const setDirty = (v: boolean) => {
    dirtyRef.current = v;
    setDirtyState(v);
  };
  // Criteria and topics show as one-line rows; these are the ones open for editing.
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const toggle = (uid: string, on?: boolean) =>
    setOpen((o) => {
      const n = new Set(o);
      if (on ?? !n.has(uid)) n.add(uid);
      else n.delete(uid);
      return n;
    });
  const [error, setError] = useState<ApiError | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [savedAt, setSavedAt] = useState(0);
  const [cs, create] = useMutation(CreateTemplate);
  const [us, update] = useMutation(UpdateTemplate);
  const [, del] = useMutation(DeleteTemplate);
  const [, setDefault] = useMutation(SetDefaultTemplate);

  const change = (p: Partial<TemplateDraft>) => {
    setDraft((d) => ({ ...d, ...p }));
    setDirty(true);
  };
  const setCriterion = (uid: string, p: Partial<CriterionDraft>) =>
    change({ criteria: draft.criteria.map((c) => (c.uid === uid ? { ...c, ...p } : c)) });
  const setTopic = (uid: string, p: Partial<TopicDraft>) =>
    change({ topics: draft.topics.map((c) => (c.uid === uid ? { ...c, ...p } : c)) });
  const move = (i: number, by: number) => {
    const xs = [...draft.criteria];
    const j = i + by;
    if (j < 0 || j >= xs.length) return;
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    change({ criteria: xs });
  };

  // Ask before leaving with unsaved changes: closing or reloading the tab (the browser's own
  // question), and any link, sidebar entry or back button inside the app (the router's guard).
  useEffect(() => {
    if (!dirty) return;
    const h = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', h);
    const unguard = setNavigationGuard(() => !dirtyRef.current || window.confirm(t('templates.leaveConfirm')));
    return () => {
      window.removeEventListener('beforeunload', h);
      unguard();
    };
  }, [dirty, t]);

  const definition = useMemo(() => draftToDefinition(draft), [draft]);
  const totalWeight = draft.criteria.reduce((s, c) => s + c.weight, 0);
  const issues = new Map<string, string>();
  for (const is of error?.issues ?? []) issues.set(is.path, is.message);
  const issueFor = (section: 'criteria' | 'topics', index: number, field: string) =>
    issues.get(`${section}[${index}].${field}`);

  const save = async () => {
    setError(null);
    const name = draft.name.trim();
    if (!name) {
      setError({ code: 'invalid_name', message: t('templates.nameRequired') });
      return;
    }
    const out = id
      ? outcome(await update({ id, name, definition }), 'updateTemplate')
      : outcome(await create({ name, definition }), 'createTemplate');
    if (!out.ok) {
      setError(out.error);
      window.scrollTo({ top: 0, behavior: 'smooth' });
      return;
    }
    setDirty(false);
    if (id) setSavedAt(Date.now());
    toast(t('templates.saved', { name }));
    if (!id) navigate(`/templates/${out.value.id}`, { replace: true });
  };

  const describeIssue = (path: string) => {
    const p = parseIssuePath(path);
    if (p.section === 'criteria' && p.index != null) {
      const c = draft.criteria[p.index];
      return `${t('templates.criterionN', { n: p.index + 1 })}${c?.label ? ` “${c.label}”` : ''}${p.field ? ` · ${p.field}` : ''}`;
    }
    if (p.section === 'topics' && p.index != null) {
      const c = draft.topics[p.index];
      return `${t('templates.topicN', { n: p.index + 1 })}${c?.label ? ` “${c.label}”` : ''}${p.field ? ` · ${p.field}` : ''}`;
    }
    return path;
  };

  return (
    <div className="page template-editor">
      <PageHeader
        back={
          <Link to="/templates" className="breadcrumb">
            <Icon name="chevronLeft" size={14} /> {t('nav.templates')}
          </Link>
        }
        title={
          <span className="row">
            {id ? draft.name || t('templates.untitled') : t('templates.new')}
            {isDefault && <Badge tone="accent">{t('templates.default')}</Badge>}
            {dirty && <Badge tone="amber">{t('templates.unsaved')}</Badge>}
          </span>
        }
        description={t('templates.editorLead')}
        actions={
          canEdit && (
            <>
              {id && !isDefault && (
                <Button
                  icon="star"
                  onClick={async () => {
                    if (
                      report(
                        outcome(await setDefault({ id }), 'setDefaultTemplate'),
                        t('templates.nowDefault', { name: draft.name }),
                      )
                    ) {
                      navigate(`/templates/${id}`, { replace: true });
                    }
                  }}
                >
                  {t('templates.setDefault')}
                </Button>
              )}
              {id && (
                <Button variant="ghost" className="btn-danger" icon="trash" onClick={() => setConfirmDelete(true)}>
                  {t('common.delete')}
                </Button>
              )}
              <Button
                variant="primary"
                icon="check"
                onClick={save}
                loading={cs.fetching || us.fetching}
                // Nothing to save until something changed (issue 26).
                disabled={!dirty}
                data-testid="save-template"
              >
                {id ? t('common.save') : t('templates.create')}
              </Button>
            </>
          )
        }
      />
      {error && (
        <div style={{ marginBottom: 16 }}>
          <Alert tone="red" title={error.issues?.length ? t('templates.fixIssues') : describeError(i18n, error)}>
            {error.issues?.length ? (
              <ul className="issues">
                {error.issues.map((is, k) => (
                  <li key={k}>
                    <strong>{describeIssue(is.path)}</strong>: {is.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        </div>
      )}
      <div className="detail-grid editor-grid">
        <div className="stack">
          <Card title={t('templates.general')}>
            <div className="form-grid">
              <TextField
                label={t('templates.name')}
                value={draft.name}
                onChange={(e) => change({ name: e.target.value })}
                placeholder={t('templates.namePlaceholder')}
                name="template-name"
                disabled={!canEdit}
              />
              <ItemSelect
                label={t('templates.language')}
                value={draft.language}
                onValue={(language) => change({ language })}
                hint={t('templates.languageHint')}
                disabled={!canEdit}
                none={t('templates.languageCall')}
                items={languages}
              />
            </div>
          </Card>
          <TemplateQaCard
            id={id}
            language={draft.language}
            minCoverage={draft.minCoverage}
            onMinCoverage={(v) => change({ minCoverage: v })}
            canEdit={canEdit}
            labels={new Map(draft.criteria.map((c) => [c.key, c.label]))}
            savedAt={savedAt}
          />
          <TemplateReanalysisOffer templateId={id} savedAt={savedAt} />

          <section className="stack-sm" aria-labelledby="criteria-h">
            <div className="row">
              <h2 id="criteria-h">{t('templates.criteria')}</h2>
              <span className="muted small">{t('templates.criteriaHint')}</span>
            </div>
            {draft.criteria.length === 0 && <Alert tone="amber">{t('templates.noCriteria')}</Alert>}
            {id && <MachineAgreementFlag keys={draft.criteria.map((c) => c.key)} />}
            {draft.criteria.map((c, i) => (
              <CriterionEditor
                key={c.uid}
                open={
                  open.has(c.uid) ||
                  [
                    'label',
                    'key',
                    'weight',
                    'phrases',
                    'window.seconds',
                    'minCount',
                    'value',
                    'min',
                    'max',
                    'question',
                  ].some((f) => !!issueFor('criteria', i, f))
                }
                onToggle={() => toggle(c.uid)}
                c={c}
                index={i}
                count={draft.criteria.length}
                share={totalWeight ? c.weight / totalWeight : 0}
                onChange={(p) => setCriterion(c.uid, p)}
                onRemove={() => change({ criteria: draft.criteria.filter((x) => x.uid !== c.uid) })}
                onMove={(by) => move(i, by)}
                issue={(field) => issueFor('criteria', i, field)}
                disabled={!canEdit}
              />
            ))}
            {canEdit && (
              <div className="row-wrap">
                {KINDS.map((k) => (
                  <Button
                    key={k}
                    size="sm"
                    icon="plus"
                    onClick={() => {
                      const c = newCriterion(k);
                      toggle(c.uid, true);
                      change({ criteria: [...draft.criteria, c] });
                    }}
                    data-testid={`add-${k}`}
                  >
                    {t(`kind.${k}` as MessageKey)}
                  </Button>
                ))}
              </div>
            )}
          </section>

          <section className="stack-sm" aria-labelledby="topics-h">
            <div className="row">
              <h2 id="topics-h">{t('templates.topics')}</h2>
              <span className="muted small">{t('templates.topicsHint')}</span>
            </div>
            {draft.topics.map((x, i) => (
              <Collapsible
                key={x.uid}
                testid="topic-editor"
                open={open.has(x.uid) || ['label', 'key', 'phrases'].some((f) => !!issueFor('topics', i, f))}
                onToggle={() => toggle(x.uid)}
                summary={
                  <>
                    <Badge tone="blue">{t('templates.topicN', { n: i + 1 })}</Badge>
                    <span className="strong truncate">{x.label || '—'}</span>
                    <PhraseCount text={x.phrases} />
                  </>
                }
                actions={
                  canEdit && (
                    <Button
                      size="sm"
                      variant="ghost"
                      iconOnly
                      icon="trash"
                      aria-label={t('templates.removeTopic')}
                      onClick={() => change({ topics: draft.topics.filter((y) => y.uid !== x.uid) })}
                    />
                  )
                }
              >
                <div className="crit-card-body">
                  <TextField
                    className="span-2"
                    label={t('templates.label')}
                    value={x.label}
                    onChange={(e) =>
                      setTopic(x.uid, { label: e.target.value, key: x.keyEdited ? x.key : slugify(e.target.value) })
                    }
                    error={issueFor('topics', i, 'label')}
                    disabled={!canEdit}
                  />
                  <TextField
                    className="span-2"
                    label={t('templates.key')}
                    value={x.keyEdited ? x.key : slugify(x.label)}
                    onChange={(e) => setTopic(x.uid, { key: e.target.value, keyEdited: true })}
                    hint={t('templates.keyHint')}
                    error={issueFor('topics', i, 'key')}
                    disabled={!canEdit}
                  />
                  <TextArea
                    className="span-4"
                    label={t('templates.phrases')}
                    value={x.phrases}
                    onChange={(e) => setTopic(x.uid, { phrases: e.target.value })}
                    hint={t('templates.phrasesHint')}
                    error={issueFor('topics', i, 'phrases')}
                    rows={phraseRows(x.phrases)}
                    disabled={!canEdit}
                    data-testid="phrases"
                  />
                </div>
              </Collapsible>
            ))}
            {canEdit && (
              <div>
                <Button
                  size="sm"
                  icon="plus"
                  onClick={() => {
                    const x = newTopic();
                    toggle(x.uid, true);
                    change({ topics: [...draft.topics, x] });
                  }}
                >
                  {t('templates.addTopic')}
                </Button>
              </div>
            )}
          </section>
        </div>
        <div className="stack" style={{ position: 'sticky', top: 16 }}>
          <PreviewPanel
            definition={definition}
            canRun={canEdit && draft.criteria.length > 0}
            language={draft.language}
          />
          <Card title={t('templates.weights')}>
            {draft.criteria.length === 0 ? (
              <p className="muted small">{t('templates.noCriteria')}</p>
            ) : (
              <div className="stack-sm">
                {draft.criteria.map((c) => (
                  <div key={c.uid}>
                    <div className="row small">
                      <span className="truncate">{c.label || '—'}</span>
                      <span className="spacer" />
                      {c.critical && <Badge tone="red">{t('templates.critical')}</Badge>}
                      <span className="num muted">{fmt.percent(c.weight / (totalWeight || 1))}</span>
                    </div>
                    <div className="meter" style={{ marginTop: 4 }}>
                      <span
                        style={{
                          width: `${(c.weight / (totalWeight || 1)) * 100}%`,
                          background: KIND_COLOR[c.kind] ?? 'var(--accent)',
                        }}
                      />
                    </div>
                  </div>
                ))}
              </div>
            )}
          </Card>
        </div>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t('templates.deleteTitle', { name: draft.name })}
        confirmLabel={t('common.delete')}
        danger
        onConfirm={async () => {
          setConfirmDelete(false);
          if (!id) return;
          if (report(outcome(await del({ id }), 'deleteTemplate'), t('templates.deleted_toast', { name: draft.name })))
            navigate('/templates', { force: true });
        }}
      >
        <p>{t('templates.deleteBody')}</p>
      </ConfirmDialog>
    </div>
  );
}

function CriterionEditor({
  open,
  onToggle,
  c,
  index,
  count,
  share,
  onChange,
  onRemove,
  onMove,
  issue,
  disabled,
}: {
  open: boolean;
  onToggle: () => void;
  c: CriterionDraft;
  index: number;
  count: number;
  share: number;
  onChange: (p: Partial<CriterionDraft>) => void;
  onRemove: () => void;
  onMove: (by: number) => void;
  issue: (field: string) => string | undefined;
  disabled: boolean;
}) {
  const { t } = useT();
  const fmt = useFormat();
  const ratio = RATIO_METRICS.has(c.metric);
  const unit = ratio
    ? '%'
    : c.metric === 'longest_silence' || c.metric === 'duration'
      ? t('templates.seconds')
      : c.metric === 'words_per_minute'
        ? t('templates.wpm')
        : '';
  return (
    <Collapsible
      testid="criterion-editor"
      open={open}
      onToggle={onToggle}
      summary={
        <>
          <Badge
            tone={c.kind === 'forbidden' ? 'red' : c.kind === 'metric' ? 'green' : c.kind === 'llm' ? 'blue' : 'accent'}
          >
            {t(`kind.${c.kind}` as MessageKey)}
          </Badge>
          <span className="strong truncate">{c.label || t('templates.criterionN', { n: index + 1 })}</span>
          {c.critical && <Badge tone="red">{t('templates.critical')}</Badge>}
          {(c.kind === 'phrase' || c.kind === 'forbidden') && <PhraseCount text={c.phrases} />}
          <span className="muted small num crit-share">{fmt.percent(share)}</span>
        </>
      }
      actions={
        !disabled && (
          <>
            <Button
              size="sm"
              variant="ghost"
              iconOnly
              icon="arrowUp"
              aria-label={t('templates.moveUp')}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            />
            <Button
              size="sm"
              variant="ghost"
              iconOnly
              icon="arrowDown"
              aria-label={t('templates.moveDown')}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            />
            <Button
              size="sm"
              variant="ghost"
              iconOnly
              icon="trash"
              aria-label={t('templates.removeCriterion')}
              onClick={onRemove}
            />
          </>
        )
      }
    >
      <fieldset className="crit-card-body" disabled={disabled} style={{ border: 'none', margin: 0 }}>
        <legend className="sr-only">{t('templates.criterionN', { n: index + 1 })}</legend>
        <TextField
          className="span-2"
          label={t('templates.label')}
          value={c.label}
          onChange={(e) => onChange({ label: e.target.value, key: c.keyEdited ? c.key : slugify(e.target.value) })}
          error={issue('label')}
          name={`criterion-${index}-label`}
        />
        <ItemSelect
          label={t('templates.kind')}
          value={c.kind}
          onValue={(kind) => onChange({ kind: kind as Kind })}
          items={KINDS.map((k) => ({ id: k, name: t(`kind.${k}` as MessageKey) }))}
        />
        <ItemSelect
          label={t('templates.speaker')}
          value={c.speaker}
          onValue={(speaker) => onChange({ speaker: speaker as CriterionDraft['speaker'] })}
          items={SPEAKERS.map((s) => ({ id: s, name: t(`templates.speaker_${s}` as MessageKey) }))}
        />
        <ItemSelect
          label={t('templates.weight')}
          value={String(c.weight)}
          onValue={(weight) => onChange({ weight: Number(weight) })}
          error={issue('weight')}
          items={WEIGHTS}
        />
        <TextField
          label={t('templates.key')}
          value={c.keyEdited ? c.key : slugify(c.label)}
          onChange={(e) => onChange({ key: e.target.value, keyEdited: true })}
          error={issue('key')}
        />
        <div className="field span-2" style={{ justifyContent: 'flex-end', paddingBottom: 6 }}>
          <Checkbox
            label={t('templates.criticalLabel')}
            checked={c.critical}
            onChange={(e) => onChange({ critical: e.target.checked })}
          />
        </div>
        {(c.kind === 'phrase' || c.kind === 'forbidden') && (
          <TextArea
            className="span-4"
            label={c.kind === 'forbidden' ? t('templates.forbiddenPhrases') : t('templates.phrases')}
            value={c.phrases}
            onChange={(e) => onChange({ phrases: e.target.value })}
            hint={t('templates.phrasesHint')}
            error={issue('phrases')}
            rows={phraseRows(c.phrases)}
            name={`criterion-${index}-phrases`}
            data-testid="phrases"
          />
        )}
        {c.kind === 'phrase' && (
          <>
            <SelectField
              className="span-2"
              label={t('templates.window')}
              value={c.windowFrom}
              onChange={(e) => onChange({ windowFrom: e.target.value as CriterionDraft['windowFrom'] })}
            >
              <option value="">{t('templates.windowAny')}</option>
              <option value="start">{t('templates.windowStart')}</option>
              <option value="end">{t('templates.windowEnd')}</option>
            </SelectField>
            <TextField
              label={t('templates.windowSeconds')}
              type="number"
              min={1}
              value={c.windowSeconds}
              onChange={(e) => onChange({ windowSeconds: e.target.value })}
              disabled={!c.windowFrom}
              error={issue('window.seconds')}
            />
            <TextField
              label={t('templates.minCount')}
              type="number"
              min={1}
              value={c.minCount}
              onChange={(e) => onChange({ minCount: e.target.value })}
              error={issue('minCount')}
            />
          </>
        )}
        {c.kind === 'metric' && (
          <>
            <ItemSelect
              className="span-2"
              label={t('templates.metric')}
              value={c.metric}
              onValue={(metric) => onChange({ metric: metric as CriterionDraft['metric'] })}
              items={METRICS.map((m) => ({ id: m, name: t(`metric.${m}` as MessageKey) }))}
            />
            <ItemSelect
              label={t('templates.op')}
              value={c.op}
              onValue={(op) => onChange({ op: op as CriterionDraft['op'] })}
              items={OPS.map((o) => ({ id: o, name: t(`op.${o}` as MessageKey) }))}
            />
            {c.op === 'between' ? (
              <div className="field">
                <span className="label">{t('templates.range', { unit })}</span>
                <div className="range">
                  <input
                    className="input"
                    type="number"
                    aria-label={t('templates.min')}
                    value={c.min}
                    onChange={(e) => onChange({ min: e.target.value })}
                    aria-invalid={issue('min') ? true : undefined}
                  />
                  <span className="muted">–</span>
                  <input
                    className="input"
                    type="number"
                    aria-label={t('templates.max')}
                    value={c.max}
                    onChange={(e) => onChange({ max: e.target.value })}
                    aria-invalid={issue('max') ? true : undefined}
                  />
                </div>
                {(issue('min') || issue('max')) && <span className="error-text">{issue('min') ?? issue('max')}</span>}
              </div>
            ) : (
              <TextField
                label={t('templates.value', { unit })}
                type="number"
                min={0}
                value={c.value}
                onChange={(e) => onChange({ value: e.target.value })}
                error={issue('value')}
              />
            )}
            <p className="muted small span-4">{t(`metric.${c.metric}_hint` as MessageKey)}</p>
          </>
        )}
        {c.kind === 'llm' && (
          <TextArea
            className="span-4"
            label={t('templates.question')}
            value={c.question}
            onChange={(e) => onChange({ question: e.target.value })}
            hint={t('templates.questionHint')}
            error={issue('question')}
            rows={2}
          />
        )}
      </fieldset>
    </Collapsible>
  );
}

function PhraseCount({ text }: { text: string }) {
  const { t } = useT();
  const n = text.split('\n').filter((l) => l.trim()).length;
  return <span className="muted small nowrap">{t('templates.phraseCount', { n })}</span>;
}

/**
 * One criterion or topic as a one-line summary that opens to edit it: eight criteria fit on a
 * screen, and the row's button says (aria-expanded) whether its fields are shown.
 */
function Collapsible({
  open,
  onToggle,
  summary,
  actions,
  children,
  testid,
}: {
  open: boolean;
  onToggle: () => void;
  summary: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testid: string;
}) {
  const { t } = useT();
  const bodyId = useId();
  return (
    <div className="crit-card" data-testid={testid} data-open={open}>
      <div className={`crit-card-head${open ? '' : ' closed'}`}>
        <button
          type="button"
          className="crit-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
          title={open ? t('templates.collapse') : t('templates.expand')}
        >
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
          {summary}
        </button>
        {actions}
      </div>
      <div id={bodyId} hidden={!open}>
        {children}
      </div>
    </div>
  );
}

function PreviewPanel({
  definition,
  canRun,
  language,
}: {
  definition: Record<string, unknown>;
  canRun: boolean;
  /** The template's language: only calls in it are offered ('' = a template for any language). */
  language: string;
}) {
  const i18n = useT();
  const { t, locale } = i18n;
  const fmt = useFormat();
  const bands = useScoreBands();
  const [{ data }] = useQuery({ query: PreviewCallsQuery, variables: { language: language || null } });
  const [callId, setCallId] = useState('');
  const [{ data: result, fetching }, preview] = useMutation(PreviewTemplate);
  const [error, setError] = useState<ApiError | null>(null);
  const calls = data?.calls.edges.map((e) => e.node) ?? [];
  useEffect(() => {
    if (!callId && calls[0]) setCallId(calls[0].id);
  }, [calls, callId]);
  const run = async () => {
    setError(null);
    const out = outcome(await preview({ callId, definition }), 'previewTemplate');
    if (!out.ok) setError(out.error);
  };
  const p =
    result?.previewTemplate && result.previewTemplate.__typename === 'AnalysisPreview' && !error
      ? result.previewTemplate
      : null;
  return (
    <Card
      title={t('templates.preview')}
      description={<ZonedLead>{t('templates.previewLead')}</ZonedLead>}
      bodyClass="tight"
    >
      <div className="card-body stack-sm">
        {calls.length === 0 ? (
          <p className="muted small">{t('templates.previewNoCalls')}</p>
        ) : (
          <>
            <ItemSelect
              label={t('templates.previewCall')}
              value={callId}
              onValue={setCallId}
              items={calls.map((c) => ({
                id: c.id,
                name: `${callTitle(c)} · ${c.agent.name} · ${fmt.dateTime(c.startedAt, { dateStyle: 'short', timeStyle: 'short' })}`,
              }))}
            />
            <Button
              icon="play"
              onClick={run}
              loading={fetching}
              disabled={!callId || !canRun}
              data-testid="run-preview"
            >
              {t('templates.runPreview')}
            </Button>
          </>
        )}
        {error && (
          <Alert tone="red">
            {error.issues?.length ? (
              <ul className="issues">
                {error.issues.map((is, k) => (
                  <li key={k}>
                    {is.path}: {is.message}
                  </li>
                ))}
              </ul>
            ) : (
              describeError(i18n, error)
            )}
          </Alert>
        )}
      </div>
      {p && (
        <div data-testid="preview-result">
          <div className="card-body" style={{ borderTop: '1px solid var(--border)' }}>
            <div className="row">
              <span
                className={`score ${scoreClass(p.score, bands)}`}
                style={{ fontSize: 18, height: 34, minWidth: 60 }}
              >
                {formatScore(p.score, locale)}
              </span>
              <div className="stack-sm" style={{ gap: 0 }}>
                <span className="small muted">{t('calls.col.topic')}</span>
                <span className="strong">{p.topicLabel ?? (p.topic ? humanizeKey(p.topic) : '—')}</span>
              </div>
            </div>
          </div>
          <ul className="criteria">
            {p.criteria.map((c) => (
              <li key={c.key} className="criterion">
                <CriterionHead c={c} />
                {c.reason && <p className="reason">{criterionReason(c, t, locale)}</p>}
                {c.evidence.slice(0, 2).map((e, k) => (
                  <p key={k} className="reason">
                    <span className="num">{formatClock(e.start)}</span> “{e.quote}”
                  </p>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
