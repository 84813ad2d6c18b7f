import { useRef, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { LANGS, useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useAuth } from '../lib/auth.tsx';
import { graphql } from '../lib/graphql.ts';
import { Link, useLocation } from '../lib/router.tsx';
import { WebhookDisabledBanner } from '../pages/webhook-endpoints.tsx';
import { BrandMark, Icon, type IconName } from './Icon.tsx';
import { Button, useFocusHeadingOnNavigate } from './ui.tsx';
import { ModelCredit, OpsBanner } from './OpsBanner.tsx';
import { DEFAULT_BANDS, ScoreBandsContext } from './call-bits.tsx';
import { AccountTimeZoneContext } from '../lib/format.ts';

const AccountQuery = graphql(`
  query ShellAccount { account { id name timeZone scoreBands { good fair } } }
`);

const NAV: {
  section: MessageKey;
  items: { to: string; label: MessageKey; icon: IconName; analyst?: boolean }[];
}[] = [
  {
    section: 'nav.sectionWork',
    items: [
      { to: '/calls', label: 'nav.calls', icon: 'phone' },
      { to: '/upload', label: 'nav.upload', icon: 'upload', analyst: true },
      { to: '/review', label: 'review.title', icon: 'check', analyst: true },
      { to: '/dashboard', label: 'nav.dashboard', icon: 'chart' },
      { to: '/disputes', label: 'nav.disputes', icon: 'flag' },
      { to: '/calibration', label: 'nav.calibration', icon: 'users', analyst: true },
      { to: '/agreement', label: 'nav.agreement', icon: 'check' },
    ],
  },
  {
    section: 'nav.sectionSetup',
    items: [
      { to: '/templates', label: 'nav.templates', icon: 'clipboard' },
      { to: '/campaigns', label: 'nav.campaigns', icon: 'flag' },
      { to: '/team', label: 'nav.team', icon: 'users' },
      { to: '/integrations', label: 'nav.integrations', icon: 'plug' },
      { to: '/usage', label: 'nav.usage', icon: 'chart' },
      // Also behind the user's name below, where nobody looked for it (issue 26).
      { to: '/settings', label: 'nav.settingsLink', icon: 'settings' },
    ],
  },
];

export function LanguageSwitch() {
  const { lang, setLang, t } = useT();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons; a fieldset would bring its own border and legend.
    <div className="lang-switch" role="group" aria-label={t('common.language')}>
      {LANGS.map((l) => (
        <button
          key={l}
          type="button"
          aria-pressed={lang === l}
          onClick={() => setLang(l)}
          lang={l}
          title={l === 'en' ? 'English' : 'Español'}
        >
          {l.toUpperCase()}
        </button>
      ))}
    </div>
  );
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useT();
  const { session, signOut } = useAuth();
  const { pathname } = useLocation();
  const user = session?.user;
  const isAgent = user?.role === 'AGENT';
  // The account query is closed to agent users; they see their own calls and disputes only.
  const [{ data }] = useQuery({ query: AccountQuery, pause: isAgent });
  const nav = isAgent
    ? [
        {
          section: NAV[0]!.section,
          items: NAV[0]!.items.filter((i) => i.to === '/calls' || i.to === '/disputes'),
        },
      ]
    : NAV;
  const mainRef = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigate(pathname, mainRef);
  const roleKey = `roles.${user?.role ?? 'VIEWER'}` as MessageKey;

  return (
    <ScoreBandsContext.Provider value={data?.account.scoreBands ?? DEFAULT_BANDS}>
      <AccountTimeZoneContext.Provider value={data?.account.timeZone ?? null}>
        <div className="shell">
          <a className="skip-link" href="#main">
            {t('common.skipToContent')}
          </a>
          <aside className="sidebar" aria-label={t('nav.label')}>
            <Link to="/calls" className="brand">
              <BrandMark className="brand-mark" />
              <span>
                Escucha
                <small className="truncate" style={{ maxWidth: 150 }}>
                  {data?.account.name ?? '\u00a0'}
                </small>
              </span>
            </Link>
            <nav className="nav" aria-label={t('nav.label')}>
              {nav.map((group) => (
                <div key={group.section} className="stack-sm" style={{ gap: 2 }}>
                  <div className="nav-section">{t(group.section)}</div>
                  {group.items
                    .filter((item) => !item.analyst || (user && roleAtLeast(user.role, 'ANALYST')))
                    .map((item) => {
                      const current = pathname === item.to || pathname.startsWith(`${item.to}/`);
                      return (
                        <Link key={item.to} to={item.to} aria-current={current ? 'page' : undefined}>
                          <Icon name={item.icon} />
                          {t(item.label)}
                        </Link>
                      );
                    })}
                </div>
              ))}
            </nav>
            <div className="sidebar-foot">
              <Link to="/settings" className="user-chip">
                <span className="avatar" aria-hidden="true">
                  {initials(user?.name ?? '')}
                </span>
                <span className="who">
                  <strong>{user?.name}</strong>
                  <span>
                    {t(roleKey)} · {user?.email}
                  </span>
                </span>
              </Link>
              <div className="foot-row">
                <LanguageSwitch />
                <span className="spacer" />
                <Button variant="ghost" size="sm" icon="logout" onClick={() => void signOut()}>
                  {t('auth.signOut')}
                </Button>
              </div>
              <ModelCredit />
            </div>
          </aside>
          <main id="main" className="main" tabIndex={-1} ref={mainRef}>
            {user && roleAtLeast(user.role, 'ADMIN') && <WebhookDisabledBanner />}
            <OpsBanner />
            {children}
          </main>
        </div>
      </AccountTimeZoneContext.Provider>
    </ScoreBandsContext.Provider>
  );
}
