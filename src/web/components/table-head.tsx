import type { ReactNode } from 'react';
import { type MessageKey, useT } from '../i18n/index.tsx';

/**
 * A column's heading: a message key (its text), the same with a class of its own (`key`), a heading
 * that is not a message (`label`: a name), or none (`false`).
 */
export type HeadColumn =
  | MessageKey
  | { key: MessageKey; className: string }
  | { label: ReactNode; className?: string }
  | false;

/**
 * The header cells of a report's table (DataTable's `head`): `first` as it is (the rows' name), then
 * one cell per column with `className` (`num` for figures); `scope="col"` where the rows have a
 * row header. Columns that are `false` are left out (a column only some sessions have).
 */
export function HeadCells({
  first,
  columns,
  className,
  scope,
}: {
  first?: ReactNode;
  columns: readonly HeadColumn[];
  className?: string;
  scope?: 'col';
}) {
  const { t } = useT();
  return (
    <>
      {first !== undefined && <th scope={scope}>{first}</th>}
      {columns.map((c, i) =>
        c === false ? null : (
          <th key={i} className={typeof c === 'string' ? className : (c.className ?? className)} scope={scope}>
            {typeof c === 'string' ? t(c) : 'key' in c ? t(c.key) : c.label}
          </th>
        ),
      )}
    </>
  );
}
