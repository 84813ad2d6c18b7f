import type { ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';
import { Link } from '../lib/router.tsx';
import { Alert } from './ui.tsx';

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

/**
 * Something to set up on another page before this one can work (a template before calls are
 * analysed, an agent before uploading): what and why, with a button to that page named as the menu
 * names it.
 */
export function SetUpFirst({
  page,
  title,
  children,
}: {
  page: 'templates' | 'team';
  title: ReactNode;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Alert
      tone="amber"
      title={title}
      action={
        <LinkButton to={`/${page}`} size="sm">
          {t(`nav.${page}`)}
        </LinkButton>
      }
    >
      {children}
    </Alert>
  );
}
