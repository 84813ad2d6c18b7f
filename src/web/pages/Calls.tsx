import { CheckedFilterNote } from '../components/machine-agreement.tsx';
import { BulkDeleteButton } from '../components/data-protection.tsx';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useQuery, useSubscription } from 'urql';
import { callTitle, humanizeKey, StatusBadge, useFailureText, useLanguageName } from '../components/call-bits.tsx';
import { Icon } from '../components/Icon.tsx';
import { BulkReanalyzeButton } from '../components/bulk-reanalysis.tsx';
import { QaScore } from '../components/qa-badges.tsx';
import { DateRangeField } from '../components/DateRange.tsx';
import { FilterSelect } from '../components/filter-field.tsx';
import { ColumnPicker } from '../components/ColumnPicker.tsx';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  EmptyState,
  onTabListKeyDown,
  PageHeader,
  Skeleton,
} from '../components/ui.tsx';
import { MultiSelect } from '../components/MultiSelect.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import {
  activeFilterCount,
  clearFilters,
  drillDownOn,
  exportUrl,
  idList,
  PAGE_SIZES,
  pageCount,
  pagingOf,
  parseCallsQuery,
  serializeCallsQuery,
  toCallFilter,
  updateCallsQuery,
  VIEWS,
  type CallsQuery,
  type SortField,
  type View,
} from '../lib/call-filters.ts';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError } from '../lib/errors.ts';
import { formatClock, formatDuration, formatNumber, formatRelative, useFormat } from '../lib/format.ts';
import { rememberCallList } from '../lib/call-nav.ts';
import { columnAttributes, useColumnChoice } from '../lib/call-columns.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { Link, navigate, useLocation } from '../lib/router.tsx';

export const PAGE_SIZE = 25;

/**
 * Score first among what a narrow screen keeps: these columns go, in this order, as the width shrinks
 * (styles.css), unless the user picked them in "Columns" (lib/call-columns.ts).
 */
const COL = { campaign: 'col-campaign', language: 'col-language', topic: 'col-topic' } as const;

const CallsListQuery = graphql(`
  query CallsList($filter: CallFilter, $first: Int, $last: Int, $after: String, $before: String, $sort: CallSortField, $order: SortOrder) {
    calls(filter: $filter, first: $first, last: $last, after: $after, before: $before, sort: $sort, order: $order) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges {
        node {
          id status startedAt createdAt updatedAt durationSeconds direction language detectedLanguage score topic criticalFailed
          coverage needsReview languageMismatch reviewedAt
          failureReason failureDetail customerPhone customerName fileName
          agent { id name }
          campaign { id name }
        }
        snippet { text start speaker highlights { start end } }
      }
    }
  }
`);

const CallCountsQuery = graphql(`
  query CallCounts($inProgress: CallFilter, $analyzed: CallFilter, $failed: CallFilter) {
    inProgress: calls(filter: $inProgress, first: 1) { totalCount }
    analyzed: calls(filter: $analyzed, first: 1) { totalCount }
    failed: calls(filter: $failed, first: 1) { totalCount }
  }
`);

const FilterOptionsQuery = graphql(`
  query CallFilterOptions {
    agents(includeInactive: true) { id name active }
    campaigns(includeArchived: true) { id name archived }
    callFilterOptions { languages topicGroups { labels } criteria { key label } }
    account { id defaultTemplate { id } }
    templates { id }
  }
`);

const CallUpdatedSubscription = graphql(`
  subscription CallsLive { callUpdated { id status score } }
`);

function useCallsQueryState(): [CallsQuery, (patch: Partial<CallsQuery>, opts?: { replace?: boolean }) => void] {
  const { search } = useLocation();
  const state = useMemo(() => parseCallsQuery(search), [search]);
  const set = useCallback((patch: Partial<CallsQuery>, opts: { replace?: boolean } = {}) => {
    const next = serializeCallsQuery(updateCallsQuery(parseCallsQuery(window.location.search), patch));
    navigate(`/calls${next ? `?${next}` : ''}`, opts);
  }, []);
  return [state, set];
}

const VIEW_LABEL: Record<View, MessageKey> = {
  in_progress: 'calls.view.in_progress',
  analyzed: 'calls.view.analyzed',
  failed: 'calls.view.failed',
};

/** Viewers read; uploading is for analysts and above (POST /api/uploads refuses viewers). */
function useCanUpload(): boolean {
  return roleAtLeast(useRole(), 'ANALYST');
}

/** A sortable column header; clicking the active one flips the order. */
function SortHeader({
  field,
  label,
  align,
  className,
  sort,
  order,
  onSort,
}: {
  field: SortField;
  label: string;
  align?: 'right';
  className?: string;
  sort: SortField;
  order: 'asc' | 'desc';
  onSort: (field: SortField) => void;
}) {
  const active = sort === field;
  return (
    <th
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={[align, className].filter(Boolean).join(' ') || undefined}
    >
      <button type="button" className="sort-btn" data-active={active} onClick={() => onSort(field)}>
        {label}
        <Icon name={active ? (order === 'asc' ? 'arrowUp' : 'arrowDown') : 'sort'} size={12} />
      </button>
    </th>
  );
}

export function CallsPage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const canUpload = useCanUpload();
  const [q, setQ] = useCallsQueryState();
  const langName = useLanguageName();
  const failureText = useFailureText();
  const [live, setLive] = useState(true);
  const [flash, setFlash] = useState<Set<string>>(new Set());

  const filter = useMemo(() => toCallFilter(q), [q]);
  const countFilters = useMemo(() => {
    const base = toCallFilter(q, false);
    return {
      inProgress: { ...base, view: 'IN_PROGRESS' as const },
      analyzed: { ...base, view: 'ANALYZED' as const },
      failed: { ...base, view: 'FAILED' as const },
    };
  }, [q]);
  const paging = pagingOf(q);
  const [list, refetchList] = useQuery({
    query: CallsListQuery,
    variables: {
      filter,
      ...paging,
      sort: q.sort.toUpperCase() as 'STARTED_AT' | 'SCORE' | 'DURATION',
      order: q.order.toUpperCase() as 'ASC' | 'DESC',
    },
  });
  const [counts, refetchCounts] = useQuery({ query: CallCountsQuery, variables: countFilters });
  const [options] = useQuery({ query: FilterOptionsQuery });

  // Live updates: any change of a call of the account refreshes the list and the counts (debounced),
  // so a call moves from "in progress" to "analyzed" by itself.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<Set<string>>(new Set());
  const onUpdate = useCallback(
    (_prev: unknown, event: { callUpdated: { id: string } | null }) => {
      if (event.callUpdated) pending.current.add(event.callUpdated.id);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        refetchList({ requestPolicy: 'network-only' });
        refetchCounts({ requestPolicy: 'network-only' });
        setFlash(new Set(pending.current));
        pending.current = new Set();
      }, 250);
      return event;
    },
    [refetchList, refetchCounts],
  );
  const [sub] = useSubscription({ query: CallUpdatedSubscription, pause: !live }, onUpdate);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const data = list.data?.calls;
  const rows = data?.edges.map((e) => e.node) ?? [];
  // While searching, each row shows the transcript line that matched under it.
  const snippets = new Map((data?.edges ?? []).map((e) => [e.node.id, e.snippet]));
  const fmt = useFormat();
  const columns = useColumnChoice();
  // The call page's previous/next (N/P) walk this page of this list.
  const { search: listSearch } = useLocation();
  useEffect(() => {
    if (data) rememberCallList({ ids: data.edges.map((e) => e.node.id), search: listSearch });
  }, [data, listSearch]);
  const countOf = (v: View) =>
    v === 'in_progress'
      ? counts.data?.inProgress.totalCount
      : v === 'analyzed'
        ? counts.data?.analyzed.totalCount
        : counts.data?.failed.totalCount;
  const totalAll = counts.data
    ? counts.data.inProgress.totalCount + counts.data.analyzed.totalCount + counts.data.failed.totalCount
    : null;
  const filtersOn = activeFilterCount(q);
  const noTemplate = options.data && !options.data.account.defaultTemplate;

  const sortBy = (field: SortField) => {
    if (q.sort === field) setQ({ order: q.order === 'desc' ? 'asc' : 'desc' });
    else setQ({ sort: field, order: 'desc' });
  };
  const sorting = { sort: q.sort, order: q.order, onSort: sortBy };

  const detailHref = (id: string) => `/calls/${id}${q.q ? `?q=${encodeURIComponent(q.q)}` : ''}`;
  const openRow = (id: string) => navigate(detailHref(id));
  const rowKey = (e: KeyboardEvent<HTMLTableRowElement>, id: string) => {
    if (e.key === 'Enter' && e.target === e.currentTarget) openRow(id);
  };

  return (
    <div className="page">
      <PageHeader
        title={t('nav.calls')}
        description={t('calls.lead')}
        actions={
          <>
            <span className={`live${sub.error || !live ? ' off' : ''}`} title={t('calls.liveHint')}>
              <span className="dot" aria-hidden="true" />
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-pressed={live}
                onClick={() => setLive((l) => !l)}
              >
                {live && !sub.error ? t('calls.live') : t('calls.paused')}
              </button>
            </span>
            {q.view === 'analyzed' && (
              <a className="btn" href={exportUrl(q)} download data-testid="export-csv" title={t('calls.exportHint')}>
                <Icon name="download" /> {t('calls.export')}
              </a>
            )}
            <BulkDeleteButton filter={filter} />
            {canUpload && q.view === 'analyzed' && <BulkReanalyzeButton filter={filter} />}
            {canUpload && (
              <Link className="btn btn-primary" to="/upload">
                <Icon name="upload" /> {t('calls.upload')}
              </Link>
            )}
          </>
        }
      />

      {noTemplate && (
        <div style={{ marginBottom: 16 }}>
          <Alert
            tone="amber"
            title={t('calls.noTemplateTitle')}
            action={
              <Link className="btn btn-sm" to={options.data!.templates.length ? '/templates' : '/templates/new'}>
                {t(options.data!.templates.length ? 'calls.noTemplateChoose' : 'calls.noTemplateCreate')}
              </Link>
            }
          >
            {t('calls.noTemplateBody')}
          </Alert>
        </div>
      )}

      {drillDownOn(q) && (
        <div style={{ marginBottom: 16 }} data-testid="drill-down-note">
          <Alert
            tone="blue"
            title={t('drill.noteTitle')}
            action={
              <Link className="btn btn-sm" to={`/calls?${serializeCallsQuery(clearFilters(q))}`}>
                {t('drill.clear')}
              </Link>
            }
          >
            {t('drill.noteBody')}
          </Alert>
        </div>
      )}

      <div className="tabs" role="tablist" aria-label={t('calls.views')} onKeyDown={onTabListKeyDown}>
        {VIEWS.map((v) => (
          <Link
            key={v}
            to={`/calls?${serializeCallsQuery(updateCallsQuery(q, { view: v }))}`}
            role="tab"
            className="tab"
            aria-selected={q.view === v}
            tabIndex={q.view === v ? 0 : -1}
            data-testid={`tab-${v}`}
          >
            {t(VIEW_LABEL[v])}
            <span className="count" data-testid={`count-${v}`}>
              {countOf(v) ?? '·'}
            </span>
          </Link>
        ))}
      </div>

      <CheckedFilterNote q={q} setQ={setQ} />
      <Card bodyClass="tight">
        <Filters
          q={q}
          setQ={setQ}
          options={options.data}
          langName={langName}
          tools={
            <ColumnPicker
              columns={q.view === 'analyzed' ? ['campaign', 'language', 'topic'] : ['campaign', 'language']}
              choice={columns.choice}
              width={columns.width}
              onChange={columns.setColumn}
              onReset={columns.reset}
            />
          }
        />
        {list.error && (
          <div style={{ padding: 14 }}>
            <Alert tone="red">{describeError(i18n, list.error)}</Alert>
          </div>
        )}
        <div className="table-wrap">
          <table className="table" data-testid="calls-table" {...columnAttributes(columns.choice)}>
            <caption className="sr-only">{t(VIEW_LABEL[q.view])}</caption>
            <thead>
              <tr>
                <SortHeader {...sorting} field="started_at" label={t('calls.col.started')} />
                <th>{t('calls.col.call')}</th>
                <th>{t('calls.col.agent')}</th>
                <th className={COL.campaign}>{t('calls.col.campaign')}</th>
                <SortHeader {...sorting} field="duration" label={t('calls.col.duration')} align="right" />
                <th className={COL.language}>{t('calls.col.language')}</th>
                {q.view === 'failed' ? (
                  <th>{t('calls.col.reason')}</th>
                ) : q.view === 'in_progress' ? (
                  <th>{t('calls.col.status')}</th>
                ) : (
                  <>
                    <th className={COL.topic}>{t('calls.col.topic')}</th>
                    <SortHeader
                      {...sorting}
                      field="score"
                      label={t('calls.col.score')}
                      align="right"
                      className="col-score"
                    />
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {!data &&
                list.fetching &&
                Array.from({ length: 6 }, (_, i) => (
                  <tr key={i}>
                    {Array.from({ length: q.view === 'analyzed' ? 8 : 7 }, (_, j) => (
                      <td
                        key={j}
                        className={
                          j === 3
                            ? COL.campaign
                            : j === 5
                              ? COL.language
                              : j === 6 && q.view === 'analyzed'
                                ? COL.topic
                                : undefined
                        }
                      >
                        <Skeleton width={j === 1 ? 140 : 70} />
                      </td>
                    ))}
                  </tr>
                ))}
              {rows.map((c) => (
                <Fragment key={c.id}>
                  <tr
                    className={['clickable', flash.has(c.id) && 'flash'].filter(Boolean).join(' ')}
                    onClick={() => openRow(c.id)}
                    onKeyDown={(e) => rowKey(e, c.id)}
                    data-testid="call-row"
                    data-call-id={c.id}
                    data-status={c.status}
                  >
                    <td
                      className="nowrap"
                      title={`${fmt.dateTime(c.startedAt, { dateStyle: 'full', timeStyle: 'medium' })} · ${fmt.zone()}`}
                    >
                      <div>
                        {fmt.dateTime(c.startedAt, {
                          month: 'short',
                          day: 'numeric',
                          hour: '2-digit',
                          minute: '2-digit',
                        })}
                      </div>
                      <div className="muted small">{formatRelative(c.startedAt, locale)}</div>
                    </td>
                    <td>
                      <div className="call-cell">
                        {c.direction ? (
                          <span
                            className="dir"
                            title={t(c.direction === 'INBOUND' ? 'direction.inbound' : 'direction.outbound')}
                          >
                            <Icon name={c.direction === 'INBOUND' ? 'arrowIn' : 'arrowOut'} size={13} />
                            <span className="sr-only">
                              {t(c.direction === 'INBOUND' ? 'direction.inbound' : 'direction.outbound')}
                            </span>
                          </span>
                        ) : (
                          <span className="dir none" aria-hidden="true" />
                        )}
                        <div style={{ minWidth: 0 }}>
                          <Link
                            className="row-link truncate"
                            style={{ display: 'block' }}
                            to={detailHref(c.id)}
                            onClick={(e) => e.stopPropagation()}
                          >
                            {callTitle(c)}
                          </Link>
                          {(c.customerName || c.customerPhone) && (
                            <div className="muted small truncate">{c.fileName}</div>
                          )}
                        </div>
                      </div>
                    </td>
                    <td>
                      <span className="cell-trunc" title={c.agent.name}>
                        {c.agent.name}
                      </span>
                    </td>
                    <td className={COL.campaign}>
                      {c.campaign ? (
                        <span className="cell-trunc" title={c.campaign.name}>
                          {c.campaign.name}
                        </span>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td className="right num nowrap">{formatDuration(c.durationSeconds, locale)}</td>
                    <td className={`nowrap ${COL.language}`}>{langName(c.language ?? c.detectedLanguage)}</td>
                    {q.view === 'failed' ? (
                      <td>
                        <span className="row" style={{ gap: 6 }}>
                          <Icon name="alert" size={14} style={{ color: 'var(--red)', flex: 'none' }} />
                          <span data-testid="failure-reason">{failureText(c.failureReason, c.failureDetail)}</span>
                        </span>
                      </td>
                    ) : q.view === 'in_progress' ? (
                      <td>
                        <StatusBadge status={c.status} />
                      </td>
                    ) : (
                      <>
                        <td className={COL.topic}>
                          {c.topic ? (
                            <span className="cell-trunc" title={humanizeKey(c.topic)}>
                              {humanizeKey(c.topic)}
                            </span>
                          ) : (
                            <span className="muted">—</span>
                          )}
                        </td>
                        <td className="right col-score">
                          {c.status === 'TRANSCRIBED' ? <StatusBadge status="TRANSCRIBED" /> : <QaScore {...c} />}
                        </td>
                      </>
                    )}
                  </tr>
                  {q.q && snippets.get(c.id) && (
                    <tr className="snippet-row" data-testid="call-snippet">
                      <td colSpan={q.view === 'analyzed' ? 8 : 7}>
                        <CallSnippet snippet={snippets.get(c.id)!} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
        {data && rows.length === 0 && (
          <CallsEmpty
            view={q.view}
            filtersOn={filtersOn > 0}
            totalAll={totalAll}
            onClear={() => setQ(clearFilters(q))}
          />
        )}
        {data && (rows.length > 0 || data.pageInfo.hasPreviousPage) && (
          <Pager q={q} setQ={setQ} total={data.totalCount} pageInfo={data.pageInfo} />
        )}
      </Card>
    </div>
  );
}

const FIRST_PAGE: Partial<CallsQuery> = { after: null, before: null, tail: false, page: 1 };

/**
 * Page sizes and page numbers over cursor paging: the number is carried in the URL as the pager
 * moves (first, previous, next, last), so "page 3 of 12" stays true without offset queries.
 */
function Pager({
  q,
  setQ,
  total,
  pageInfo,
}: {
  q: CallsQuery;
  setQ: (p: Partial<CallsQuery>, o?: { replace?: boolean }) => void;
  total: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null };
}) {
  const { t, locale } = useT();
  const fmt = useFormat();
  const pages = pageCount(total, q.size);
  const page = q.tail ? pages : Math.min(q.page, pages);
  // The server knows whether there is more either way; the page number is only what it looks like.
  const first = !pageInfo.hasPreviousPage;
  const last = !pageInfo.hasNextPage;
  // The first and the last page: icons, named for screen readers and in the tooltip.
  const edge = (icon: 'chevronsLeft' | 'chevronsRight', name: string, disabled: boolean, go: Partial<CallsQuery>) => (
    <Button
      size="sm"
      iconOnly
      icon={icon}
      aria-label={name}
      title={name}
      disabled={disabled}
      onClick={() => setQ(go)}
    />
  );
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <span className="row-wrap">
        <span className="num" data-testid="calls-total">
          {t('calls.total', { n: formatNumber(total, locale) })}
        </span>
        {fmt.timeZone && (
          <span className="muted small" data-testid="time-zone">
            {t('format.timeZone', { zone: fmt.zone() })}
          </span>
        )}
      </span>
      <div className="row-wrap">
        <label className="row small" htmlFor="page-size">
          {t('pager.size')}
          <select
            id="page-size"
            className="select select-sm pager-size"
            value={q.size}
            onChange={(e) => setQ({ size: Number(e.target.value) })}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        {edge('chevronsLeft', t('pager.first'), first, FIRST_PAGE)}
        <Button
          size="sm"
          icon="chevronLeft"
          disabled={first}
          onClick={() =>
            page <= 2
              ? setQ(FIRST_PAGE)
              : setQ({ before: pageInfo.startCursor ?? null, after: null, tail: false, page: page - 1 })
          }
        >
          {t('common.previous')}
        </Button>
        <span className="num small" data-testid="page-of">
          {t('pager.pageOf', { page: formatNumber(page, locale), pages: formatNumber(pages, locale) })}
        </span>
        <Button
          size="sm"
          disabled={last}
          onClick={() => setQ({ after: pageInfo.endCursor ?? null, before: null, tail: false, page: page + 1 })}
        >
          {t('common.next')} <Icon name="chevronRight" size={14} />
        </Button>
        {edge('chevronsRight', t('pager.last'), last, { after: null, before: null, tail: true, page: pages })}
      </div>
    </nav>
  );
}

function CallsEmpty({
  view,
  filtersOn,
  totalAll,
  onClear,
}: {
  view: View;
  filtersOn: boolean;
  totalAll: number | null;
  onClear: () => void;
}) {
  const { t } = useT();
  const canUpload = useCanUpload();
  if (filtersOn)
    return (
      <EmptyState
        icon="filter"
        title={t('calls.empty.filteredTitle')}
        action={<Button onClick={onClear}>{t('calls.clearFilters')}</Button>}
      >
        {t('calls.empty.filteredBody')}
      </EmptyState>
    );
  if (totalAll === 0)
    return (
      <EmptyState
        icon="phone"
        title={t('calls.empty.noneTitle')}
        action={
          <div className="row" style={{ marginTop: 8 }}>
            {canUpload && (
              <Link className="btn btn-primary" to="/upload">
                {t('calls.upload')}
              </Link>
            )}
            <Link className="btn" to="/integrations">
              {t('calls.empty.connectApi')}
            </Link>
          </div>
        }
      >
        {t('calls.empty.noneBody')}
      </EmptyState>
    );
  const key = view === 'in_progress' ? 'inProgress' : view;
  return (
    <EmptyState
      icon={view === 'failed' ? 'check' : view === 'in_progress' ? 'clock' : 'phone'}
      title={t(`calls.empty.${key}Title` as MessageKey)}
    >
      {t(`calls.empty.${key}Body` as MessageKey)}
    </EmptyState>
  );
}

type FilterOptions = ResultOf<typeof FilterOptionsQuery>;

function Filters({
  q,
  setQ,
  options,
  langName,
  tools,
}: {
  q: CallsQuery;
  setQ: (p: Partial<CallsQuery>, o?: { replace?: boolean }) => void;
  options: FilterOptions | undefined;
  langName: (c: string) => string;
  /** Shown at the end of the filter bar's foot (the column picker). */
  tools?: ReactNode;
}) {
  const { t } = useT();
  const [search, setSearch] = useState(q.q ?? '');
  const [scoreMin, setScoreMin] = useState(q.scoreMin?.toString() ?? '');
  const [scoreMax, setScoreMax] = useState(q.scoreMax?.toString() ?? '');
  const [more, setMore] = useState(
    () =>
      q.scoreMin != null ||
      q.scoreMax != null ||
      !!q.topic ||
      !!q.language ||
      !!q.direction ||
      !!q.failed ||
      q.critical,
  );
  // Follow the URL (back button, "clear filters") without undoing what is being typed.
  useEffect(() => setSearch((cur) => ((cur.trim() || null) === q.q ? cur : (q.q ?? ''))), [q.q]);
  useEffect(() => setScoreMin(q.scoreMin?.toString() ?? ''), [q.scoreMin]);
  useEffect(() => setScoreMax(q.scoreMax?.toString() ?? ''), [q.scoreMax]);

  // Typing in the search box updates the URL (and the list) after a short pause.
  useEffect(() => {
    const value = search.trim() || null;
    if (value === q.q) return;
    const h = setTimeout(() => setQ({ q: value }, { replace: true }), 350);
    return () => clearTimeout(h);
  }, [search, q.q, setQ]);

  const commitScore = (which: 'scoreMin' | 'scoreMax', raw: string) => {
    const n = raw.trim() === '' ? null : Number(raw);
    if (n != null && (!Number.isFinite(n) || n < 0 || n > 100)) return;
    if (n !== q[which]) setQ({ [which]: n }, { replace: true });
  };

  // Agents and campaigns: several at once (a comma-separated list in the URL); gone ones still listed, marked.
  const pickers = [
    {
      key: 'agent',
      all: 'calls.allAgents',
      count: 'calls.nAgents',
      options: (options?.agents ?? []).map((a) => ({
        value: a.id,
        label: a.active ? a.name : `${a.name} (${t('team.inactive')})`,
      })),
    },
    {
      key: 'campaign',
      all: 'calls.allCampaigns',
      count: 'calls.nCampaigns',
      options: (options?.campaigns ?? []).map((c) => ({
        value: c.id,
        label: c.archived ? `${c.name} (${t('campaigns.archived')})` : c.name,
      })),
    },
  ] as const;
  // One entry per topic: the same topic key's labels in each template language together.
  const topicGroups = options?.callFilterOptions.topicGroups ?? [];
  const topicValue = q.topic ? (topicGroups.find((g) => g.labels.includes(q.topic!))?.labels[0] ?? q.topic) : '';
  const criteria = options?.callFilterOptions.criteria ?? [];
  // Only the languages the account's calls use (the intake accepts ~40), and the chosen one if any.
  const used = options?.callFilterOptions.languages ?? [];
  const languages = q.language && !used.includes(q.language) ? [...used, q.language] : used;
  const n = activeFilterCount(q);
  // A list of "more filters": its field (`f-<key>`), its "any" (no filter), and the URL's value.
  const listFilter = (key: 'direction' | 'topic' | 'language' | 'failed', label: MessageKey, all: MessageKey) => ({
    id: `f-${key}`,
    label: t(label),
    all: t(all),
    value: q[key] ?? '',
    onChange: (v: string) => setQ({ [key]: v || null }),
  });

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet in every browser the app supports.
    <div style={{ borderBottom: '1px solid var(--border)' }} role="search" aria-label={t('calls.filters')}>
      <div className="filters">
        <div className="field">
          <label htmlFor="f-search">{t('calls.searchLabel')}</label>
          <div className="input-icon">
            <Icon name="search" />
            <input
              id="f-search"
              className="input"
              type="search"
              placeholder={t('calls.searchPlaceholder')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') setQ({ q: search.trim() || null }, { replace: true });
              }}
            />
          </div>
        </div>
        <DateRangeField from={q.from} to={q.to} onChange={(r) => setQ(r, { replace: true })} />
        {pickers.map((p) => (
          <MultiSelect
            key={p.key}
            id={`f-${p.key}`}
            label={t(`calls.col.${p.key}`)}
            allLabel={t(p.all)}
            countLabel={(n) => t(p.count, { n })}
            options={p.options}
            value={idList(q[p.key])}
            onChange={(ids) => setQ({ [p.key]: ids.join(',') || null })}
            disabled={!options}
          />
        ))}
      </div>
      {more && (
        <div className="filters more">
          <FilterSelect
            {...listFilter('direction', 'calls.col.direction', 'calls.anyDirection')}
            options={DIRECTIONS.map((d) => ({ id: d, name: t(`direction.${d}`) }))}
          />
          <div className="field">
            <span className="label" id="f-score-label">
              {t('calls.scoreRange')}
            </span>
            {/* biome-ignore lint/a11y/useSemanticElements: two inputs of one range; a fieldset would bring its own border and legend. */}
            <div className="range" role="group" aria-labelledby="f-score-label">
              <ScoreEnd which="scoreMin" placeholder="0" value={scoreMin} onChange={setScoreMin} commit={commitScore} />
              <span className="muted">–</span>
              <ScoreEnd
                which="scoreMax"
                placeholder="100"
                value={scoreMax}
                onChange={setScoreMax}
                commit={commitScore}
              />
            </div>
          </div>
          <FilterSelect
            {...listFilter('topic', 'calls.col.topic', 'calls.anyTopic')}
            value={topicValue}
            options={[
              ...topicGroups.map((g) => ({ id: g.labels[0]!, name: g.labels.map(humanizeKey).join(' / ') })),
              ...orphan(q.topic, (v) => topicGroups.some((g) => g.labels.includes(v))),
            ]}
          />
          <FilterSelect
            {...listFilter('language', 'calls.col.language', 'calls.anyLanguage')}
            options={languages.map((c) => ({ id: c, name: langName(c) }))}
          />
          <FilterSelect
            {...listFilter('failed', 'calls.failedCriterion', 'calls.anyCriterion')}
            options={[
              ...criteria.map((c) => ({ id: c.key, name: c.label })),
              ...orphan(q.failed, (v) => criteria.some((c) => c.key === v)),
            ]}
          />
          <div className="field" style={{ justifyContent: 'flex-end', paddingBottom: 6 }}>
            <Checkbox
              label={t('calls.criticalOnly')}
              checked={q.critical}
              onChange={(e) => setQ({ critical: e.target.checked })}
              data-testid="f-critical"
            />
          </div>
        </div>
      )}
      <div className="filter-bar-foot">
        <Button size="sm" variant="ghost" icon="filter" aria-expanded={more} onClick={() => setMore((m) => !m)}>
          {more ? t('calls.fewerFilters') : t('calls.moreFilters')}
        </Button>
        {n > 0 && (
          <Button size="sm" variant="ghost" icon="x" onClick={() => setQ(clearFilters(q))}>
            {t('calls.clearFiltersN', { n })}
          </Button>
        )}
        <span className="spacer" />
        {tools}
      </div>
    </div>
  );
}

const DIRECTIONS = ['inbound', 'outbound'] as const;

/** A chosen value the options no longer list (a link from elsewhere): still shown, so the list says what filters. */
function orphan(value: string | null, listed: (v: string) => boolean) {
  return value && !listed(value) ? [{ id: value, name: humanizeKey(value) }] : [];
}

/** One end of the score range: typed freely, applied on leaving the field or on Enter (0–100, empty for none). */
function ScoreEnd({
  which,
  placeholder,
  value,
  onChange,
  commit,
}: {
  which: 'scoreMin' | 'scoreMax';
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  commit: (which: 'scoreMin' | 'scoreMax', raw: string) => void;
}) {
  const { t } = useT();
  return (
    <input
      aria-label={t(`calls.${which}`)}
      className="input"
      type="number"
      min={0}
      max={100}
      inputMode="numeric"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => commit(which, e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && commit(which, value)}
    />
  );
}

type Snippet = NonNullable<ResultOf<typeof CallsListQuery>['calls']['edges'][number]['snippet']>;

/** The matching transcript line: who said it, when, and the searched words marked. */
function CallSnippet({ snippet }: { snippet: Snippet }) {
  const { t } = useT();
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const h of [...snippet.highlights].sort((a, b) => a.start - b.start)) {
    if (h.start < at) continue;
    if (h.start > at) parts.push({ text: snippet.text.slice(at, h.start), hit: false });
    parts.push({ text: snippet.text.slice(h.start, h.end), hit: true });
    at = h.end;
  }
  if (at < snippet.text.length) parts.push({ text: snippet.text.slice(at), hit: false });
  const who =
    snippet.speaker === 'agent'
      ? t('speaker.agent')
      : snippet.speaker === 'customer'
        ? t('speaker.customer')
        : t('speaker.speaker');
  return (
    <div className="call-snippet">
      <span className="num">{formatClock(snippet.start)}</span>
      <span className="strong small nowrap">{who}</span>
      <span className="truncate">
        {parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
      </span>
    </div>
  );
}
