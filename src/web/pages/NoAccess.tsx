import { EmptyState } from '../components/ui.tsx';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { useRole } from '../lib/auth.tsx';
import { Link } from '../lib/router.tsx';

/**
 * What a page answers to a role that may not use it (an agent user opening /dashboard, a viewer
 * opening the review queue): says so, in the reader's language, instead of an empty page of zeros
 * or a refused query. The server refuses the data anyway (the same scopes, src/auth/scopes.ts).
 */
export function NoAccessPage() {
  const { t } = useT();
  const role = useRole();
  return (
    <div className="page card" data-testid="no-access">
      <EmptyState
        icon="lock"
        page
        title={t('noAccess.title')}
        action={
          <Link className="btn btn-primary" to="/calls">
            {t('notFound.back')}
          </Link>
        }
      >
        {t('noAccess.body', { role: t(`roles.${role ?? 'VIEWER'}` as MessageKey) })}
      </EmptyState>
    </div>
  );
}
