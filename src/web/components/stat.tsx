import type { ReactNode } from 'react';

/**
 * A figure of a page's row of stats (dashboard, usage, team): its label, the figure (`children`,
 * `testId` on it), an optional line under it (`sub`), and anything after (`after`, e.g. a second line
 * shown only sometimes).
 */
export function Stat({
  label,
  testId,
  sub,
  after,
  children,
}: {
  label: string;
  testId?: string;
  sub?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="card stat">
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {children}
      </div>
      {sub !== undefined && <div className="sub">{sub}</div>}
      {after}
    </div>
  );
}
