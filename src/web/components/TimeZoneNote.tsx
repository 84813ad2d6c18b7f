import type { ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';
import { useFormat } from '../lib/format.ts';

/**
 * "Times in Europe/Madrid (CET)": every page that shows times says which zone they are in — the
 * account's (Settings), or the browser's where the account's is not known (agent users).
 */
export function TimeZoneNote({ months = false }: { months?: boolean }) {
  const { t } = useT();
  const fmt = useFormat();
  const zone = fmt.timeZone ? fmt.zone() : Intl.DateTimeFormat().resolvedOptions().timeZone.replace(/_/g, ' ');
  return (
    <span className="muted small nowrap" data-testid="time-zone">
      {t(months ? 'format.monthsIn' : 'format.timeZone', { zone })}
    </span>
  );
}

/** A lead (a page's, a card's) that ends by saying which zone its times are in. */
export function ZonedLead({ children }: { children: ReactNode }) {
  return (
    <>
      {children} <TimeZoneNote />
    </>
  );
}
