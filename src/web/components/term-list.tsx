import { Fragment, type ReactNode } from 'react';
import { type MessageKey, useT } from '../i18n/index.tsx';

/** One term of a list: its name (a message key), its value, and a test id for the value when a test reads it. */
export type Term = readonly [name: MessageKey, value: ReactNode, testId?: string];

/**
 * A list of named values. `metrics` (a call's figures, its sentiment): two columns of name … value
 * pairs, each underlined. `details` (a call's details, the user's profile): names on the left,
 * values on the right.
 */
export function TermList({
  terms,
  kind,
  testId,
}: {
  terms: readonly Term[];
  kind: 'metrics' | 'details';
  testId?: string;
}) {
  const { t } = useT();
  // The metrics' CSS lays out each pair as one box; the details' grid takes dt and dd as its cells.
  const Pair = kind === 'metrics' ? 'div' : Fragment;
  return (
    <dl className={kind === 'metrics' ? 'metric-list' : 'dl'} data-testid={testId}>
      {terms.map(([name, value, valueTestId]) => (
        <Pair key={name}>
          <dt>{t(name)}</dt>
          <dd data-testid={valueTestId}>{value}</dd>
        </Pair>
      ))}
    </dl>
  );
}
