import { ListTable } from '../components/list-table.tsx';
import { LinkButton } from '../components/link-button.tsx';
import { useMutation, useQuery } from 'urql';
import { useLanguageName } from '../components/call-bits.tsx';
import { Alert, Badge, Button, Card, EmptyState, PageHeader } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatRelative } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { Link, navigate } from '../lib/router.tsx';

const TemplatesQuery = graphql(`
  query Templates { templates { id name isDefault updatedAt definition language defaultForLanguages warnings { criterionKey } } }
`);
export const SetDefaultTemplate = graphql(`
  mutation SetDefaultTemplate($id: ID) {
    setDefaultTemplate(id: $id) { __typename ... on Account { id defaultTemplate { id } } ... on Error { code message } }
  }
`);

export function TemplatesPage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const report = useOutcomeToast();
  const canManage = roleAtLeast(useRole(), 'ANALYST');
  const langName = useLanguageName();
  const [{ data, error }, refetch] = useQuery({ query: TemplatesQuery });
  const [, setDefault] = useMutation(SetDefaultTemplate);
  const templates = data?.templates ?? [];
  const hasDefault = templates.some((x) => x.isDefault);

  const makeDefault = async (id: string, name: string) => {
    report(outcome(await setDefault({ id }), 'setDefaultTemplate'), t('templates.nowDefault', { name }));
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <div className="page">
      <PageHeader
        title={t('nav.templates')}
        description={t('templates.lead')}
        actions={
          canManage && (
            <LinkButton to="/templates/new" variant="primary" testId="new-template">
              {t('templates.new')}
            </LinkButton>
          )
        }
      />
      <div className="stack">
        {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
        {data && templates.length > 0 && !hasDefault && (
          <Alert tone="amber" title={t('templates.noDefaultTitle')}>
            {t('templates.noDefaultBody')}
          </Alert>
        )}
        <Card bodyClass="tight">
          <ListTable
            testId="templates-table"
            rows={templates}
            loaded={data !== undefined}
            columns={[
              t('templates.name'),
              t('templates.language'),
              t('templates.criteria'),
              t('templates.topics'),
              t('templates.updated'),
              { label: t('common.actions'), right: true },
            ]}
            empty={
              <EmptyState
                icon="clipboard"
                title={t('templates.emptyTitle')}
                action={
                  canManage ? (
                    <LinkButton to="/templates/new" variant="primary">
                      {t('templates.createFirst')}
                    </LinkButton>
                  ) : undefined
                }
              >
                {t('templates.emptyBody')}
              </EmptyState>
            }
            row={(x) => {
              const def = (x.definition ?? {}) as { criteria?: { critical?: boolean }[]; topics?: unknown[] };
              const crit = def.criteria ?? [];
              return (
                <tr key={x.id} className="clickable" onClick={() => navigate(`/templates/${x.id}`)}>
                  <td>
                    <span className="row">
                      <Link to={`/templates/${x.id}`} className="row-link" onClick={(e) => e.stopPropagation()}>
                        {x.name}
                      </Link>
                      {x.isDefault && <Badge tone="accent">{t('templates.default')}</Badge>}
                      {x.warnings.length > 0 && (
                        <Badge tone="amber" title={t('templates.warningsTitle', { n: x.warnings.length })}>
                          {t('templates.warningsBadge', { n: x.warnings.length })}
                        </Badge>
                      )}
                    </span>
                  </td>
                  <td data-testid="template-language">
                    {x.language ? langName(x.language) : <span className="muted">{t('templates.anyLanguage')}</span>}
                    {x.defaultForLanguages.length > 0 && (
                      <span className="muted small">
                        {' '}
                        · {t('templates.defaultFor', { langs: x.defaultForLanguages.map(langName).join(', ') })}
                      </span>
                    )}
                  </td>
                  <td>
                    {crit.length}
                    {crit.some((c) => c.critical) && (
                      <span className="muted small">
                        {' '}
                        · {t('templates.criticalCount', { n: crit.filter((c) => c.critical).length })}
                      </span>
                    )}
                  </td>
                  <td>{def.topics?.length ?? 0}</td>
                  <td className="muted">{formatRelative(x.updatedAt, locale)}</td>
                  <td className="right" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                    {canManage && !x.isDefault && (
                      <Button size="sm" variant="ghost" icon="star" onClick={() => makeDefault(x.id, x.name)}>
                        {t('templates.setDefault')}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            }}
          />
        </Card>
      </div>
    </div>
  );
}
