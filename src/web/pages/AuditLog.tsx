import { ZonedLead } from '../components/TimeZoneNote.tsx';
// Settings → Audit log (owners, issue 13.6): who did what and when, filtered by action and dates,
// newest first, "Load more" by keyset cursor, CSV export of the same filter.
import { DayFields } from '../components/DateRange.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Button, Card, DataTable, EmptyState, LoadingBlock, PageHeader } from '../components/ui.tsx';
import { Icon } from '../components/Icon.tsx';
import { hasKey, useT, type MessageKey } from '../i18n/index.tsx';
import { useRole } from '../lib/auth.tsx';
import { dayRangeInstants } from '../lib/account-days.ts';
import { describeError, queryError } from '../lib/errors.ts';
import { formatBytes, formatNumber, useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';

const AuditLogQuery = graphql(`
  query AuditLog($actions: [String!], $from: DateTime, $to: DateTime, $after: String) {
    auditLog(actions: $actions, from: $from, to: $to, first: 50, after: $after) {
      edges { node { id action targetType targetId detail createdAt actor { id name email } objects { kind id name gone callId } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const AuditActions = graphql(`
  query AuditActions { auditActions }
`);

type Entry = ResultOf<typeof AuditLogQuery>['auditLog']['edges'][number]['node'];
type AuditObject = Entry['objects'][number];

/** Keys that only carry ids: the entry's named objects link what they point at. */
const HIDDEN_DETAIL = new Set(['dispute_id']);

/**
 * What the action reads as. An endpoint's creation and removal were once stored as URL changes from
 * or to nothing ("Webhook URL changed … → —"): they read as what they were.
 */
export function auditActionKey(action: string, detail: unknown): string {
  if (action === 'webhook.url_changed' && detail && typeof detail === 'object') {
    const d = detail as { from?: unknown; to?: unknown };
    if (d.to == null) return 'webhook.endpoint_removed';
    if (d.from == null) return 'webhook.endpoint_created';
  }
  return action;
}

/** Where an object is looked at in the app; null when there is no page for it (or it is gone). */
function objectHref(o: AuditObject): string | null {
  switch (o.kind) {
    case 'call':
      // A deleted call's page says deleted, when and by whom.
      return o.id ? `/calls/${o.id}` : null;
    case 'dispute':
      return o.callId ? `/calls/${o.callId}` : null;
    case 'template':
      return o.id && !o.gone ? `/templates/${o.id}` : null;
    case 'webhook_endpoint':
    case 'api_key':
      return '/integrations';
    case 'user':
    case 'invitation':
      return '/team';
    case 'settings':
      return '/settings';
    default:
      return null;
  }
}

/** "Call: Late Greeting", "Template: Soporte (deleted)" — linked where the app has a page for it. */
function AuditObjectLine({ o }: { o: AuditObject }) {
  const { t } = useT();
  const kindKey = `audit.object.${o.kind}`;
  if (!hasKey(kindKey)) return null;
  const href = objectHref(o);
  const name = o.name ?? (o.kind === 'settings' ? null : t('audit.unnamed'));
  const gone = o.gone ? ` (${t(o.kind === 'call' ? 'audit.deleted' : 'audit.gone')})` : '';
  const label = name ? `${name}${gone}` : t(kindKey as MessageKey);
  return (
    <div className="small" data-testid="audit-object" data-kind={o.kind}>
      {name && <span className="muted">{t(kindKey as MessageKey)}: </span>}
      {href ? (
        <Link to={href} className="strong">
          {label}
        </Link>
      ) : (
        <span className="strong">{label}</span>
      )}
    </div>
  );
}

/**
 * The entry's details in one line, in the UI language: a top-level change as "from → to", other
 * changes as "Label: from → to", the rest as "Label: value". Labels and known values (roles, who
 * acted when no person did) are translated; a key the app does not know yet shows as stored.
 */
export function describeDetail(
  detail: unknown,
  i18n: { t: (k: MessageKey) => string; locale: string },
  /** Keys the entry's named object already says (a template's name beside the template's link). */
  named: readonly string[] = [],
): string {
  if (!detail || typeof detail !== 'object') return '';
  const { t, locale } = i18n;
  const label = (k: string) => (hasKey(`audit.detail.${k}`) ? t(`audit.detail.${k}` as MessageKey) : k);
  const value = (k: string, v: unknown): string => {
    if (v == null || v === '') return '—';
    if (typeof v === 'number') return k === 'bytesFreed' ? formatBytes(v, locale) : formatNumber(v, locale, 1);
    if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
    if (Array.isArray(v)) return v.map((x) => value(k, x)).join(', ');
    if (typeof v === 'object') return JSON.stringify(v);
    const s = String(v);
    const role = `roles.${s.toUpperCase()}`;
    if ((k === 'role' || k === 'from' || k === 'to') && hasKey(role)) return t(role);
    // An override's from/to: a criterion's result ('passed', 'failed', 'na').
    const result = `result.${s.toUpperCase()}`;
    if ((k === 'from' || k === 'to') && hasKey(result)) return t(result);
    if (k === 'by' && hasKey(`audit.by.${s}`)) return t(`audit.by.${s}` as MessageKey);
    // Stored setting values (redaction mode and detectors, mono speakers, channel) in words.
    const up = s.toUpperCase();
    if (k === 'mode' && hasKey(`redaction.mode.${up}`)) return t(`redaction.mode.${up}` as MessageKey);
    if (k === 'kinds' && hasKey(`redaction.kind.${up}`)) return t(`redaction.kind.${up}` as MessageKey);
    if (hasKey(`audit.value.${s}`)) return t(`audit.value.${s}` as MessageKey);
    return s;
  };
  const d = detail as Record<string, unknown>;
  const parts: string[] = [];
  if ('from' in d || 'to' in d) parts.push(`${value('from', d.from)} → ${value('to', d.to)}`);
  for (const [k, v] of Object.entries(d)) {
    if (k === 'from' || k === 'to' || HIDDEN_DETAIL.has(k) || named.includes(k)) continue;
    // The criterion's key beside its label says nothing more.
    if (k === 'criterion' && 'criterion_label' in d) continue;
    if (v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (v && typeof v === 'object' && 'from' in v && 'to' in v) {
      const { from, to } = v as { from: unknown; to: unknown };
      parts.push(`${label(k)}: ${value(k, from)} → ${value(k, to)}`);
    } else parts.push(`${label(k)}: ${value(k, v)}`);
  }
  return parts.join(' · ');
}

function exportHref(actions: string[], range: { from: string | null; to: string | null }): string {
  const q = new URLSearchParams();
  for (const a of actions) q.append('action', a);
  if (range.from) q.set('from', range.from);
  if (range.to) q.set('to', range.to);
  const s = q.toString();
  return `/api/audit-log.csv${s ? `?${s}` : ''}`;
}

export function AuditLogPage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t } = i18n;
  const role = useRole();
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const actions = action ? [action] : null;
  // The chosen days are the account's (as the times below are written), whatever the browser's zone.
  const range = dayRangeInstants(from, to, fmt.timeZone);
  const vars = { actions, ...range };
  const reset = () => setPages([null]);
  const actionLabel = (a: string) => {
    const key = `audit.action.${a}`;
    return hasKey(key) ? t(key as MessageKey) : a;
  };

  if (role !== 'OWNER')
    return (
      <div className="page">
        <EmptyState icon="lock" title={t('audit.ownersOnly')}>
          {null}
        </EmptyState>
      </div>
    );
  return (
    <div className="page">
      <PageHeader
        title={t('audit.title')}
        description={<ZonedLead>{t('audit.lead')}</ZonedLead>}
        back={
          <Link to="/settings" className="breadcrumb">
            <Icon name="chevronLeft" size={14} /> {t('nav.settings')}
          </Link>
        }
        actions={
          <a className="btn" href={exportHref(actions ?? [], range)} download data-testid="audit-export">
            <Icon name="download" /> {t('audit.export')}
          </a>
        }
      />
      <Card>
        <div className="filters more">
          <AuditActionSelect
            value={action}
            label={t('audit.action')}
            allLabel={t('audit.allActions')}
            actionLabel={actionLabel}
            onChange={(v) => {
              setAction(v);
              reset();
            }}
          />
          <DayFields
            from={from}
            to={to}
            labels={[t('audit.from'), t('audit.to')]}
            onFrom={(day) => {
              setFrom(day);
              reset();
            }}
            onTo={(day) => {
              setTo(day);
              reset();
            }}
          />
        </div>
      </Card>
      <Card bodyClass="tight">
        <DataTable
          testId="audit-table"
          head={
            <>
              <th>{t('audit.when')}</th>
              <th>{t('audit.who')}</th>
              <th>{t('audit.action')}</th>
              <th>{t('audit.details')}</th>
            </>
          }
        >
          {pages.map((after, i) => (
            <AuditPage
              key={after ?? 'first'}
              vars={{ ...vars, after }}
              last={i === pages.length - 1}
              onMore={(cursor) => setPages((p) => [...p, cursor])}
              render={(e) => (
                <tr key={e.id}>
                  <td className="nowrap">{fmt.dateTime(String(e.createdAt))}</td>
                  <td>{e.actor ? `${e.actor.name} (${e.actor.email})` : t('audit.system')}</td>
                  <td>
                    <div>{actionLabel(auditActionKey(e.action, e.detail))}</div>
                    {e.objects.map((o, i) => (
                      <AuditObjectLine key={i} o={o} />
                    ))}
                  </td>
                  <td className="muted">
                    {describeDetail(e.detail, i18n, e.objects.some((o) => o.kind === 'template') ? ['template'] : [])}
                  </td>
                </tr>
              )}
              describe={(err) => describeError(i18n, err)}
              moreLabel={t('audit.more')}
              emptyLabel={t('audit.empty')}
            />
          ))}
        </DataTable>
      </Card>
    </div>
  );
}

function AuditActionSelect(props: {
  value: string;
  label: string;
  allLabel: string;
  actionLabel: (a: string) => string;
  onChange: (v: string) => void;
}) {
  const [{ data }] = useQuery({ query: AuditActions });
  return (
    <ItemSelect
      label={props.label}
      value={props.value}
      onValue={props.onChange}
      data-testid="audit-action"
      none={props.allLabel}
      items={(data?.auditActions ?? []).map((a) => ({ id: a, name: props.actionLabel(a) }))}
    />
  );
}

function AuditPage(props: {
  vars: { actions: string[] | null; from: string | null; to: string | null; after: string | null };
  last: boolean;
  onMore: (cursor: string) => void;
  render: (e: Entry) => React.ReactNode;
  describe: (e: NonNullable<ReturnType<typeof queryError>>) => string;
  moreLabel: string;
  emptyLabel: string;
}) {
  const [{ data, fetching, error }] = useQuery({
    query: AuditLogQuery,
    variables: props.vars,
    requestPolicy: 'cache-and-network',
  });
  const err = queryError(error);
  if (err)
    return (
      <tr>
        <td colSpan={4}>{props.describe(err)}</td>
      </tr>
    );
  if (!data)
    return (
      <tr>
        <td colSpan={4}>{fetching && <LoadingBlock />}</td>
      </tr>
    );
  const { edges, pageInfo } = data.auditLog;
  return (
    <>
      {edges.length === 0 && props.vars.after === null && (
        <tr>
          <td colSpan={4} className="muted">
            {props.emptyLabel}
          </td>
        </tr>
      )}
      {edges.map((e) => props.render(e.node))}
      {props.last && pageInfo.hasNextPage && pageInfo.endCursor && (
        <tr>
          <td colSpan={4}>
            <Button size="sm" onClick={() => props.onMore(pageInfo.endCursor!)} data-testid="audit-more">
              {props.moreLabel}
            </Button>
          </td>
        </tr>
      )}
    </>
  );
}
