/**
 * The template editor's QA parts (issue 10.1–2, 10.6): which languages the template is the default
 * for, the minimum coverage, warnings about criteria that cannot be evaluated here, and the offer
 * to re-analyze its recent calls after a save.
 */
import { useEffect, useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { useT } from '../i18n/index.tsx';
import { outcome } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { BulkReanalysisCountQuery, BulkReanalysisDialog, lastThirtyDays } from './bulk-reanalysis.tsx';
import { LANGUAGE_CODES, useLanguageName } from './call-bits.tsx';
import { Icon } from './Icon.tsx';
import { Alert, Badge, Button, Card, SelectField, TextField } from './ui.tsx';

export const TemplateQaQuery = graphql(`
  query TemplateQa($id: ID!) {
    template(id: $id) { id language defaultForLanguages warnings { criterionKey code message } }
  }
`);
export const SetLanguageDefault = graphql(`
  mutation SetLanguageDefault($language: String!, $id: ID) {
    setLanguageDefaultTemplate(language: $language, id: $id) {
      __typename
      ... on Account { id languageDefaults { language template { id name } } }
      ... on Error { code message }
    }
  }
`);

type Warning = { criterionKey: string; code: string; message: string };

/** Warnings in the UI language: the criterion's label and why it is N/A on every call. */
export function TemplateWarnings({ warnings, labels }: { warnings: readonly Warning[]; labels?: Map<string, string> }) {
  const { t } = useT();
  if (!warnings.length) return null;
  return (
    <Alert tone="amber" title={t('templates.warningsTitle', { n: warnings.length })}>
      <ul className="issues" data-testid="template-warnings">
        {warnings.map((w) => (
          <li key={w.criterionKey}>
            {w.code === 'llm_not_configured'
              ? t('templates.warningLlm', { label: labels?.get(w.criterionKey) ?? w.criterionKey })
              : w.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

export function TemplateQaCard({
  id,
  language,
  minCoverage,
  onMinCoverage,
  canEdit,
  labels,
  savedAt,
}: {
  id: string | null;
  /** The draft's language ('' = any). */
  language: string;
  minCoverage: string;
  onMinCoverage: (v: string) => void;
  canEdit: boolean;
  labels: Map<string, string>;
  /** Changes on every save, to refresh the warnings. */
  savedAt: number;
}) {
  const { t } = useT();
  const langName = useLanguageName();
  const report = useOutcomeToast();
  const [{ data }, refetch] = useQuery({ query: TemplateQaQuery, variables: { id: id ?? '' }, pause: !id });
  const [, setLanguageDefault] = useMutation(SetLanguageDefault);
  const [pick, setPick] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: refetch after each save.
  useEffect(() => {
    if (id) refetch({ requestPolicy: 'network-only' });
  }, [savedAt]);
  const tpl = data?.template;
  const defaults = tpl?.defaultForLanguages ?? [];

  const setDefault = async (lang: string, on: boolean) => {
    const out = outcome(await setLanguageDefault({ language: lang, id: on ? id : null }), 'setLanguageDefaultTemplate');
    if (report(out, on ? t('templates.languageDefaultSet', { lang: langName(lang) }) : undefined)) {
      refetch({ requestPolicy: 'network-only' });
    }
  };
  const candidates = (
    language ? [language] : ['es', 'en', ...LANGUAGE_CODES.filter((c) => c !== 'es' && c !== 'en')]
  ).filter((c) => !defaults.includes(c));

  return (
    <Card title={t('templates.qaTitle')} description={t('templates.qaLead')}>
      <div className="stack">
        {tpl && <TemplateWarnings warnings={tpl.warnings} labels={labels} />}
        <TextField
          label={t('templates.minCoverage')}
          hint={t('templates.minCoverageHint')}
          inputMode="decimal"
          value={minCoverage}
          onChange={(e) => onMinCoverage(e.target.value)}
          name="template-min-coverage"
          disabled={!canEdit}
        />
        <div className="stack-sm" data-testid="language-defaults">
          <span className="label">{t('templates.languageDefaults')}</span>
          {!id && <p className="muted small">{t('templates.saveFirst')}</p>}
          {id && defaults.length === 0 && <p className="muted small">{t('templates.noLanguageDefaults')}</p>}
          {defaults.length > 0 && (
            <div className="row">
              {defaults.map((l) => (
                <Badge key={l} tone="accent">
                  {langName(l)}
                  {canEdit && (
                    <button
                      type="button"
                      className="badge-x"
                      aria-label={t('templates.removeLanguageDefault', { lang: langName(l) })}
                      onClick={() => setDefault(l, false)}
                    >
                      <Icon name="x" size={10} />
                    </button>
                  )}
                </Badge>
              ))}
            </div>
          )}
          {id && canEdit && candidates.length > 0 && (
            <div className="row">
              <SelectField
                label={t('templates.defaultForLanguage')}
                value={pick || candidates[0]!}
                onChange={(e) => setPick(e.target.value)}
              >
                {candidates.map((c) => (
                  <option key={c} value={c}>
                    {langName(c)}
                  </option>
                ))}
              </SelectField>
              <Button
                icon="star"
                onClick={() => setDefault(pick || candidates[0]!, true)}
                data-testid="set-language-default"
              >
                {t('templates.makeLanguageDefault')}
              </Button>
            </div>
          )}
        </div>
      </div>
    </Card>
  );
}

/**
 * After a save: "Apply to the N calls of the last 30 days scored with this template?" — asked only
 * when there are such calls. `savedAt` changes on every save.
 */
export function TemplateReanalysisOffer({ templateId, savedAt }: { templateId: string | null; savedAt: number }) {
  const { t } = useT();
  const client = useClient();
  const [open, setOpen] = useState(false);
  const { timeZone } = useFormat();
  const [filter, setFilter] = useState(() => lastThirtyDays(timeZone));
  useEffect(() => {
    if (!templateId || !savedAt) return;
    let live = true;
    const f = lastThirtyDays(timeZone);
    client
      .query(BulkReanalysisCountQuery, { filter: f, templateId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        const v = r.data?.bulkReanalysisCount;
        if (live && v?.__typename === 'BulkReanalysisCount' && v.count > 0) {
          setFilter(f);
          setOpen(true);
        }
      });
    return () => {
      live = false;
    };
  }, [client, templateId, savedAt, timeZone]);
  if (!templateId) return null;
  return (
    <BulkReanalysisDialog
      open={open}
      onClose={() => setOpen(false)}
      filter={filter}
      templateId={templateId}
      title={t('bulk.offerTitle')}
      question={(n) => t('bulk.offer', { n })}
    />
  );
}
