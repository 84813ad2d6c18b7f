import { useEffect, useState, type ReactNode } from 'react';
import { Shell } from './components/Shell.tsx';
import { LoadingBlock, ToastProvider } from './components/ui.tsx';
import { I18nProvider, useT, type MessageKey } from './i18n/index.tsx';
import { AuthProvider, useAuth } from './lib/auth.tsx';
import { PageTitleContext } from './lib/page-title.ts';
import { matchPath, navigate, useLocation } from './lib/router.tsx';
import { AcceptInvitationPage } from './pages/AcceptInvitation.tsx';
import { CallDetailPage } from './pages/CallDetail.tsx';
import { CallsPage } from './pages/Calls.tsx';
import { CampaignsPage } from './pages/Campaigns.tsx';
import { DashboardPage } from './pages/Dashboard.tsx';
import { IntegrationsPage } from './pages/Integrations.tsx';
import { NotFoundPage } from './pages/NotFound.tsx';
import { AuditLogPage } from './pages/AuditLog.tsx';
import { ReviewQueuePage } from './pages/ReviewQueue.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { TeamPage } from './pages/Team.tsx';
import { TemplateEditorPage } from './pages/TemplateEditor.tsx';
import { TemplatesPage } from './pages/Templates.tsx';
import { UploadPage } from './pages/Upload.tsx';
import { UsagePage } from './pages/Usage.tsx';
import { AgentCallPage } from './pages/AgentCall.tsx';
import { DisputesPage } from './pages/Disputes.tsx';
import { MyCallsPage } from './pages/MyCalls.tsx';
import { roleAtLeast, useRole, type Role } from './lib/auth.tsx';
import { NoAccessPage } from './pages/NoAccess.tsx';
import { CalibrationsPage } from './pages/Calibrations.tsx';
import { CalibrationPage } from './pages/Calibration.tsx';
import { MachineAgreementPage } from './pages/MachineAgreement.tsx';

/** An agent user gets their own pages for calls (only their calls, no account-wide filters). */
function ByRole({ agent, other }: { agent: ReactNode; other: ReactNode }) {
  return <>{useRole() === 'AGENT' ? agent : other}</>;
}

interface RouteDef {
  path: string;
  title: MessageKey;
  /** The least role that may use the page (the scope of the data it shows); below it, the no-access page. */
  min: Role;
  render: (params: Record<string, string>) => ReactNode;
}

const ROUTES: RouteDef[] = [
  {
    path: '/calls',
    min: 'AGENT',
    title: 'nav.calls',
    render: () => <ByRole agent={<MyCallsPage />} other={<CallsPage />} />,
  },
  {
    path: '/calls/:id',
    min: 'AGENT',
    title: 'callDetail.title',
    render: (p) => <ByRole agent={<AgentCallPage id={p.id!} />} other={<CallDetailPage id={p.id!} />} />,
  },
  { path: '/disputes', min: 'AGENT', title: 'nav.disputes', render: () => <DisputesPage /> },
  { path: '/upload', min: 'ANALYST', title: 'nav.upload', render: () => <UploadPage /> },
  { path: '/review', min: 'ANALYST', title: 'review.title', render: () => <ReviewQueuePage /> },
  { path: '/calibration', min: 'ANALYST', title: 'calibration.title', render: () => <CalibrationsPage /> },
  {
    path: '/calibration/:id',
    min: 'ANALYST',
    title: 'calibration.title',
    render: (p) => <CalibrationPage id={p.id!} />,
  },
  { path: '/agreement', min: 'VIEWER', title: 'agreement.title', render: () => <MachineAgreementPage /> },
  { path: '/dashboard', min: 'VIEWER', title: 'nav.dashboard', render: () => <DashboardPage /> },
  { path: '/team', min: 'VIEWER', title: 'nav.team', render: () => <TeamPage /> },
  { path: '/campaigns', min: 'VIEWER', title: 'nav.campaigns', render: () => <CampaignsPage /> },
  { path: '/templates', min: 'VIEWER', title: 'nav.templates', render: () => <TemplatesPage /> },
  { path: '/templates/new', min: 'ANALYST', title: 'templates.new', render: () => <TemplateEditorPage id={null} /> },
  { path: '/templates/:id', min: 'VIEWER', title: 'nav.templates', render: (p) => <TemplateEditorPage id={p.id!} /> },
  { path: '/integrations', min: 'VIEWER', title: 'nav.integrations', render: () => <IntegrationsPage /> },
  { path: '/usage', min: 'VIEWER', title: 'nav.usage', render: () => <UsagePage /> },
  { path: '/settings', min: 'AGENT', title: 'nav.settings', render: () => <SettingsPage /> },
  { path: '/settings/audit', min: 'OWNER', title: 'audit.title', render: () => <AuditLogPage /> },
];

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Routes() {
  const { pathname, search } = useLocation();
  const { status, session } = useAuth();
  const { t } = useT();
  // A page's own title (useDocumentTitle) wins over its route's while that page is shown.
  const [pageTitle, setPageTitle] = useState<string | null>(null);

  const invite = matchPath('/invite/:token', pathname);
  let title: string = 'Escucha';
  let content: ReactNode;
  if (invite) {
    title = t('invite.title');
    content = <AcceptInvitationPage token={invite.token!} />;
  } else if (status === 'loading') {
    content = <LoadingBlock />;
  } else if (pathname === '/signin') {
    if (status === 'signedIn') {
      const next = new URLSearchParams(search).get('next');
      content = <Redirect to={next?.startsWith('/') && !next.startsWith('//') ? next : '/calls'} />;
    } else {
      title = t('signIn.title');
      content = <SignInPage />;
    }
  } else if (status === 'signedOut') {
    const next = pathname === '/' ? '' : `?next=${encodeURIComponent(pathname + search)}`;
    content = <Redirect to={`/signin${next}`} />;
  } else if (pathname === '/' || pathname === '') {
    content = <Redirect to="/calls" />;
  } else {
    let page: ReactNode = null;
    for (const r of ROUTES) {
      const params = matchPath(r.path, pathname);
      if (params) {
        const allowed = roleAtLeast(session?.user.role, r.min);
        title = t(allowed ? r.title : 'noAccess.title');
        page = allowed ? r.render(params) : <NoAccessPage />;
        break;
      }
    }
    if (!page) {
      title = t('notFound.title');
      page = <NotFoundPage />;
    }
    content = <Shell>{page}</Shell>;
  }

  if (pageTitle) title = pageTitle;
  useEffect(() => {
    document.title = title === 'Escucha' ? 'Escucha' : `${title} · Escucha`;
  }, [title]);
  return <PageTitleContext.Provider value={setPageTitle}>{content}</PageTitleContext.Provider>;
}

export function App() {
  return (
    <I18nProvider>
      <ToastProvider>
        <AuthProvider>
          <Routes />
        </AuthProvider>
      </ToastProvider>
    </I18nProvider>
  );
}
