import type { ReactNode } from 'react';
import { Link } from '../lib/router.tsx';

/** A link to another page of the app drawn as a button: the way on from an empty state or an alert. */
export function LinkButton({
  to,
  variant,
  size,
  children,
  testId,
}: {
  to: string;
  variant?: 'primary';
  size?: 'sm';
  children: ReactNode;
  testId?: string;
}) {
  const cls = ['btn', variant && `btn-${variant}`, size && 'btn-sm'].filter(Boolean).join(' ');
  return (
    <Link className={cls} to={to} data-testid={testId}>
      {children}
    </Link>
  );
}
