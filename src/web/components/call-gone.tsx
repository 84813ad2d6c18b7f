import { useQuery } from 'urql';
import { useT } from '../i18n/index.tsx';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';
import { EmptyState, LoadingBlock } from './ui.tsx';

const DeletedCallQuery = graphql(`
  query DeletedCall($id: ID!) { deletedCall(id: $id) { id deletedAt deletedByName } }
`);

/**
 * What a call's page shows when the call cannot be shown: if it was deleted, that it was — when
 * and by whom, nothing of its content — since its link lives on in webhooks, CSVs and e-mails;
 * otherwise "not found" (another account's id and a mistyped one alike).
 */
export function CallGone({ id }: { id: string }) {
  const { t } = useT();
  const fmt = useFormat();
  const [{ data, fetching }] = useQuery({ query: DeletedCallQuery, variables: { id } });
  if (fetching && !data) return <LoadingBlock />;
  const deleted = data?.deletedCall;
  const back = (
    <Link className="btn btn-primary" to="/calls">
      {t('callDetail.backToCalls')}
    </Link>
  );
  return (
    <div className="page card" data-testid={deleted ? 'call-deleted' : 'call-not-found'}>
      {deleted ? (
        <EmptyState icon="trash" page title={t('callDetail.deletedTitle')} action={back}>
          {deleted.deletedByName
            ? t('callDetail.deletedBody', { when: fmt.dateTime(deleted.deletedAt), who: deleted.deletedByName })
            : t('callDetail.deletedBodyNoOne', { when: fmt.dateTime(deleted.deletedAt) })}{' '}
          {fmt.timeZone && <span className="muted">({fmt.zone()})</span>}
        </EmptyState>
      ) : (
        <EmptyState icon="search" page title={t('callDetail.notFoundTitle')} action={back}>
          {t('callDetail.notFoundBody')}
        </EmptyState>
      )}
    </div>
  );
}
