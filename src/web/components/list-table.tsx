import type { ReactNode } from 'react';
import type { IconName } from './Icon.tsx';
import { Badge, Button, DataTable, EmptyState, LoadingBlock } from './ui.tsx';

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
        <th key={i} scope="col" className={c.right ? 'right' : undefined}>
          {c.label}
        </th>
      )
    ) : (
      <th key={i} scope="col">
        {c}
      </th>
    ),
  );
  return (
    <DataTable head={head} testId={testId} scroll={scroll}>
      {rows.map(row)}
    </DataTable>
  );
}

/**
 * A list's empty state; where the user may add the first item (`add`, a manager), its primary
 * button does.
 */
export function EmptyList({
  icon,
  title,
  add,
  children,
}: {
  icon: IconName;
  title: ReactNode;
  add?: { label: ReactNode; onClick: () => void } | false;
  children: ReactNode;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        add ? (
          <Button variant="primary" icon="plus" onClick={add.onClick}>
            {add.label}
          </Button>
        ) : undefined
      }
    >
      {children}
    </EmptyState>
  );
}

/** A row's state: green with a dot while active, grey once not. */
export function ActiveBadge({ active, on, off }: { active: boolean; on: ReactNode; off: ReactNode }) {
  return active ? (
    <Badge tone="green" dot>
      {on}
    </Badge>
  ) : (
    <Badge>{off}</Badge>
  );
}

/**
 * Where a page's list goes: the loading block until the first answer (`loading`), then `empty` in a
 * card when there is nothing to list, else the list (`children`).
 */
export function ListBody({ loading, empty, children }: { loading: boolean; empty: ReactNode; children: ReactNode }) {
  if (loading) return <LoadingBlock />;
  if (empty) return <div className="card">{empty}</div>;
  return <>{children}</>;
}
