import { EmptyState } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { Link } from '../lib/router.tsx';

export function NotFoundPage() {
  const { t } = useT();
  return (
    <div className="page card">
      <EmptyState
        icon="search"
        title={t('notFound.title')}
        action={
          <Link className="btn btn-primary" to="/calls">
            {t('notFound.back')}
          </Link>
        }
      >
        {t('notFound.body')}
      </EmptyState>
    </div>
  );
}
