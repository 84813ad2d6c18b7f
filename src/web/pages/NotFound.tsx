import { EmptyState } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { LinkButton } from '../components/link-button.tsx';

export function NotFoundPage() {
  const { t } = useT();
  return (
    <div className="page card">
      <EmptyState
        icon="search"
        title={t('notFound.title')}
        action={
          <LinkButton to="/calls" variant="primary">
            {t('notFound.back')}
          </LinkButton>
        }
      >
        {t('notFound.body')}
      </EmptyState>
    </div>
  );
}
