import type { ReactNode } from 'react';
import { BrandMark } from '../components/Icon.tsx';
import { LanguageSwitch } from '../components/Shell.tsx';
import { useT } from '../i18n/index.tsx';

const BARS = [18, 30, 46, 26, 58, 40, 64, 36, 22, 48, 30, 54, 42, 24, 34, 50, 28, 16];

/** The signed-out pages (sign in, accept an invitation): the brand on the side, then the page's title, lead and form. */
export function AuthLayout({ title, lead, children }: { title: ReactNode; lead: ReactNode; children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="auth">
      <div className="auth-side" aria-hidden="true">
        <div className="brand">
          <BrandMark className="brand-mark" />
          <span>
            Escucha
            <small>{t('auth.tagline')}</small>
          </span>
        </div>
        <div>
          <div className="bars">
            {BARS.map((h, i) => (
              <span key={i} style={{ height: h }} />
            ))}
          </div>
          <blockquote>{t('auth.pitch')}</blockquote>
        </div>
        <div className="small" style={{ color: '#c7d2fe' }}>
          {t('auth.footer')}
        </div>
      </div>
      <main className="auth-main" style={{ position: 'relative' }}>
        <div className="auth-top">
          <LanguageSwitch />
        </div>
        <div className="auth-card">
          <div>
            <h1>{title}</h1>
            <p className="lead">{lead}</p>
          </div>
          {children}
        </div>
      </main>
    </div>
  );
}
