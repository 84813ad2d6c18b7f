/**
 * Bulk re-analysis (issue 10.6): count first, confirm, then progress with a stop button. Used from
 * the calls list (every call of the current filter) and after saving a template (its calls of the
 * last 30 days). The work runs in the worker below new calls' priority; this only watches it.
 */
import { useEffect, useState } from 'react';
import { useClient, useMutation } from 'urql';
import { useT } from '../i18n/index.tsx';
import { addDays, dayIn } from '../lib/account-days.ts';
import type { GqlCallFilter } from '../lib/call-filters.ts';
import { outcome } from '../lib/errors.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { Button, Dialog, ProgressBar } from './ui.tsx';

export const BulkReanalysisCountQuery = graphql(`
  query BulkReanalysisCount($filter: CallFilter, $templateId: ID) {
    bulkReanalysisCount(filter: $filter, templateId: $templateId) {
      __typename
      ... on BulkReanalysisCount { count }
      ... on Error { code message }
    }
  }
`);
export const StartBulkReanalysis = graphql(`
  mutation StartBulkReanalysis($filter: CallFilter, $templateId: ID) {
    startBulkReanalysis(filter: $filter, templateId: $templateId) {
      __typename
      ... on BulkReanalysis { id status total requested skipped outcomes { analyzed failed waiting } }
      ... on Error { code message }
    }
  }
`);
export const BulkReanalysisProgressQuery = graphql(`
  query BulkReanalysisProgress($id: ID!) { bulkReanalysis(id: $id) { id status total requested skipped outcomes { analyzed failed waiting } } }
`);
export const CancelBulkReanalysis = graphql(`
  mutation CancelBulkReanalysis($id: ID!) {
    cancelBulkReanalysis(id: $id) {
      __typename
      ... on BulkReanalysis { id status total requested skipped outcomes { analyzed failed waiting } }
      ... on Error { code message }
    }
  }
`);

type Bulk = NonNullable<ResultOf<typeof BulkReanalysisProgressQuery>['bulkReanalysis']>;

/** Counts the calls a bulk re-analysis of this scope would cover (null while unknown or on error). */
export function useBulkCount(filter: GqlCallFilter, templateId: string | null, enabled: boolean) {
  const client = useClient();
  const [count, setCount] = useState<number | null>(null);
  const key = JSON.stringify([filter, templateId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for filter and templateId.
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setCount(null);
    client
      .query(BulkReanalysisCountQuery, { filter, templateId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        const v = r.data?.bulkReanalysisCount;
        if (live && v?.__typename === 'BulkReanalysisCount') setCount(v.count);
      });
    return () => {
      live = false;
    };
  }, [client, key, enabled]);
  return count;
}

/**
 * The dialog: asks with the count, then shows the progress (polled every second) and a stop button
 * until it is finished or stopped. `question` overrides the confirmation text (the template offer).
 */
export function BulkReanalysisDialog({
  open,
  onClose,
  filter,
  templateId = null,
  title,
  question,
}: {
  open: boolean;
  onClose: () => void;
  filter: GqlCallFilter;
  templateId?: string | null;
  title?: string;
  question?: (n: number) => string;
}) {
  const { t } = useT();
  const client = useClient();
  const report = useOutcomeToast();
  const count = useBulkCount(filter, templateId, open);
  const [bulk, setBulk] = useState<Bulk | null>(null);
  const [, start] = useMutation(StartBulkReanalysis);
  const [, cancel] = useMutation(CancelBulkReanalysis);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) setBulk(null);
  }, [open]);

  const running = bulk?.status === 'RUNNING';
  // Polled until every requested call is analyzed (or failed), not only until all are queued.
  const analysing = running || (bulk?.outcomes.waiting ?? 0) > 0;
  useEffect(() => {
    if (!bulk || !analysing) return;
    const timer = setInterval(async () => {
      const r = await client
        .query(BulkReanalysisProgressQuery, { id: bulk.id }, { requestPolicy: 'network-only' })
        .toPromise();
      if (r.data?.bulkReanalysis) setBulk(r.data.bulkReanalysis);
    }, 1000);
    return () => clearInterval(timer);
  }, [client, bulk, analysing]);

  const run = async () => {
    setBusy(true);
    const out = outcome(await start({ filter, templateId }), 'startBulkReanalysis');
    setBusy(false);
    if (report(out)) setBulk(out.value as Bulk);
  };
  const stop = async () => {
    if (!bulk) return;
    const out = outcome(await cancel({ id: bulk.id }), 'cancelBulkReanalysis');
    if (report(out, t('bulk.cancelled'))) setBulk(out.value as Bulk);
  };

  // The bar is what is analyzed (or settled: failed, skipped), never what is merely queued.
  const settled = bulk ? bulk.outcomes.analyzed + bulk.outcomes.failed + bulk.skipped : 0;
  const allDone = bulk?.status === 'FINISHED' && bulk.outcomes.waiting === 0;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title ?? t('bulk.title')}
      footer={
        bulk ? (
          <>
            {running && (
              <Button variant="danger-solid" onClick={stop} data-testid="bulk-cancel">
                {t('bulk.stop')}
              </Button>
            )}
            <Button onClick={onClose}>{running ? t('bulk.hide') : t('common.close')}</Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button variant="primary" onClick={run} loading={busy} disabled={!count} data-testid="bulk-confirm">
              {t('bulk.confirm', { n: count ?? 0 })}
            </Button>
          </>
        )
      }
    >
      <div data-testid="bulk-dialog">
        {!bulk && count == null && <p className="muted">{t('bulk.counting')}</p>}
        {!bulk && count === 0 && <p>{t('bulk.none')}</p>}
        {!bulk && !!count && (
          <p data-testid="bulk-question">{question ? question(count) : t('bulk.question', { n: count })}</p>
        )}
        {!bulk && !!count && <p className="muted small">{t('bulk.priorityNote')}</p>}
        {bulk && (
          <div className="stack-sm" data-testid="bulk-progress" data-status={bulk.status}>
            <ProgressBar value={bulk.total ? settled / bulk.total : 1} label={t('bulk.title')} />
            <p data-testid="bulk-counts">
              {t('bulk.counts', {
                analyzed: bulk.outcomes.analyzed,
                total: bulk.total,
                waiting: bulk.outcomes.waiting,
                queued: bulk.requested,
              })}
            </p>
            {bulk.outcomes.failed > 0 && <p className="muted small">{t('bulk.failed', { n: bulk.outcomes.failed })}</p>}
            {bulk.skipped > 0 && <p className="muted small">{t('bulk.skipped', { n: bulk.skipped })}</p>}
            {allDone && <p className="strong">{t('bulk.finished')}</p>}
            {bulk.status === 'CANCELLED' && <p className="strong">{t('bulk.cancelled')}</p>}
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** The calls list's "Re-analyze all" button for the current filter. */
export function BulkReanalyzeButton({ filter }: { filter: GqlCallFilter }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon="refresh" onClick={() => setOpen(true)} data-testid="bulk-reanalyze">
        {t('bulk.button')}
      </Button>
      <BulkReanalysisDialog open={open} onClose={() => setOpen(false)} filter={filter} />
    </>
  );
}

/** The template offer's "last 30 days": from the day 30 days before today, in the account's zone. */
export function lastThirtyDays(timeZone: string | null, now = new Date()): GqlCallFilter {
  return { dayFrom: addDays(dayIn(now, timeZone), -30) };
}
