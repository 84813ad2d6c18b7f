// Operator-facing bits of the shell: the banner admins see when the service cannot process calls
// (the same checks as GET /readyz), and the speech-model credit the Moonshine licence asks for.
import { useEffect } from 'react';
import { useQuery } from 'urql';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { graphql } from '../lib/graphql.ts';
import { useLanguageName } from './call-bits.tsx';

const StatusQuery = graphql(`
  query ServiceStatus { serviceStatus { ready problems { check message } } }
`);

const POLL_MS = 30_000;

const CHECKS = ['database', 'storage', 'decoder', 'transcription_api'];

/**
 * What a failed readiness check means, in the UI language. The server's own message (what to change,
 * in the operator's terms: a path, a variable, a command) stays beside it as it is, for whoever fixes it.
 */
export function problemSummary(
  check: string,
  t: (key: MessageKey, vars?: Record<string, string | number>) => string,
  languageName: (code: string) => string,
): string {
  if (check.startsWith('engine:')) return t('ops.check.engine', { language: languageName(check.slice(7)) });
  return CHECKS.includes(check) ? t(`ops.check.${check}` as MessageKey) : t('ops.check.other');
}

export function OpsBanner() {
  const { t } = useT();
  const admin = roleAtLeast(useRole(), 'ADMIN');
  const [{ data }, refetch] = useQuery({ query: StatusQuery, pause: !admin, requestPolicy: 'network-only' });
  useEffect(() => {
    if (!admin) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearInterval(timer);
  }, [admin, refetch]);
  const languageName = useLanguageName();
  const status = data?.serviceStatus;
  if (!admin || !status || status.ready) return null;
  return (
    <div className="alert alert-amber ops-banner" role="alert">
      <div className="stack-sm">
        <strong>{t('ops.notReady')}</strong>
        <ul>
          {status.problems.map((p) => (
            <li key={p.check} data-testid="ops-problem">
              {problemSummary(p.check, t, languageName)}{' '}
              <span className="muted small" title={t('ops.detail')}>
                (<code>{p.check}</code>: {p.message})
              </span>
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
