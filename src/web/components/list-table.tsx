import type { ReactNode } from 'react';
import { DataTable } from './ui.tsx';

/** A column heading; `right` aligns it (actions, numbers), `shown: false` leaves it out (a role without actions). */
export type ListColumn = ReactNode | { label: ReactNode; right?: boolean; shown?: boolean };

function isSpec(c: ListColumn): c is { label: ReactNode; right?: boolean; shown?: boolean } {
  return typeof c === 'object' && c !== null && 'label' in c;
}

/**
 * The app's list of things (campaigns, agents, users, invitations, API keys, templates): a table with
 * one heading per column and one row per item, or `empty` once the list is known to be empty
 * (`loaded`), so a page never flashes its empty state while it loads.
 */
export function ListTable<T>({
  rows,
  row,
  columns,
  empty,
  loaded = true,
  testId,
  scroll,
}: {
  rows: readonly T[];
  row: (item: T) => ReactNode;
  columns: readonly ListColumn[];
  empty: ReactNode;
  loaded?: boolean;
  testId?: string;
  scroll?: boolean;
}) {
  if (loaded && rows.length === 0) return <>{empty}</>;
  const head = columns.map((c, i) =>
    isSpec(c) ? (
      c.shown === false ? null : (
        <th key={i} className={c.right ? 'right' : undefined}>
          {c.label}
        </th>
      )
    ) : (
      <th key={i}>{c}</th>
    ),
  );
  return (
    <DataTable head={head} testId={testId} scroll={scroll}>
      {rows.map(row)}
    </DataTable>
  );
}
