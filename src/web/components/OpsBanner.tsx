// Operator-facing bits of the shell: the banner admins see when the service cannot process calls
// (the same checks as GET /readyz), and the speech-model credit the Moonshine licence asks for.
import { useEffect } from 'react';
import { useQuery } from 'urql';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { graphql } from '../lib/graphql.ts';

const StatusQuery = graphql(`
  query ServiceStatus { serviceStatus { ready problems { check message } } }
`);

const POLL_MS = 30_000;

export function OpsBanner() {
  const { t } = useT();
  const admin = roleAtLeast(useRole(), 'ADMIN');
  const [{ data }, refetch] = useQuery({ query: StatusQuery, pause: !admin, requestPolicy: 'network-only' });
  useEffect(() => {
    if (!admin) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearInterval(timer);
  }, [admin, refetch]);
  const status = data?.serviceStatus;
  if (!admin || !status || status.ready) return null;
  return (
    <div className="alert alert-amber ops-banner" role="alert">
      <div className="stack-sm">
        <strong>{t('ops.notReady')}</strong>
        <ul>
          {status.problems.map((p) => (
            <li key={p.check}>
              <code>{p.check}</code>: {p.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The Spanish model's licence asks for "Powered by Moonshine AI" in the product's interface. */
export function ModelCredit() {
  const { t } = useT();
  return (
    <p className="model-credit muted">
      {t('ops.credit')} ·{' '}
      <a href="https://moonshine.ai" target="_blank" rel="noreferrer">
        Powered by Moonshine AI
      </a>
    </p>
  );
}
