/**
 * Who is signed in. The session is read once at start (`session` query, public); sign-in and
 * invitation acceptance return the same Session object. Its csrfToken goes into every later request.
 * Changing who is signed in replaces the urql client, so no cached data outlives a session.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createGraphqlClient, setCsrfToken } from './client.ts';
import { graphql, readFragment, type FragmentOf, type ResultOf } from './graphql.ts';

export const SessionFields = graphql(`
  fragment SessionFields on Session {
    csrfToken
    expiresAt
    timeZone
    user { id name email role }
  }
`);

const SessionQuery = graphql(
  `
  query Session { session { ...SessionFields } }
`,
  [SessionFields],
);

const SignOutMutation = graphql(`
  mutation SignOut { signOut }
`);

export type SessionData = ResultOf<typeof SessionFields>;
export type Role = SessionData['user']['role'];

// AGENT is below VIEWER: an agent user sees only their own calls (issue 10.4).
const ROLE_RANK: Record<Role, number> = { AGENT: -1, VIEWER: 0, ANALYST: 1, ADMIN: 2, OWNER: 3 };
export const roleAtLeast = (role: Role | undefined, min: Role) => role != null && ROLE_RANK[role] >= ROLE_RANK[min];

interface AuthState {
  status: 'loading' | 'signedIn' | 'signedOut';
  session: SessionData | null;
  /** Set after sign-in / invitation acceptance with the Session the mutation returned. */
  signedIn(session: FragmentOf<typeof SessionFields>): void;
  signOut(): Promise<void>;
  /** The signed-in user changed their own name (the shell and pages show it at once). */
  renamed(name: string): void;
  /** The API answered UNAUTHENTICATED: the session ended elsewhere (expired, password changed). */
  expired: boolean;
}

const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in user's role; undefined while loading, signed out, or outside the app shell. */
export function useRole(): Role | undefined {
  return useContext(AuthContext)?.session?.user.role;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionData | null>(null);
  const [status, setStatus] = useState<AuthState['status']>('loading');
  const [expired, setExpired] = useState(false);
  const [generation, setGeneration] = useState(0);
  const statusRef = useRef(status);
  statusRef.current = status;

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the reason to rebuild, not an input.
  const { client, dispose } = useMemo(
    () =>
      createGraphqlClient({
        onUnauthenticated: () => {
          if (statusRef.current !== 'signedIn') return;
          setCsrfToken(null);
          setSession(null);
          setExpired(true);
          setStatus('signedOut');
          setGeneration((g) => g + 1);
        },
      }),
    // A new client per session generation: nothing cached survives a change of user.
    [generation],
  );
  useEffect(() => dispose, [dispose]);

  useEffect(() => {
    let live = true;
    if (generation !== 0) return;
    client
      .query(SessionQuery, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((res) => {
        if (!live) return;
        const s = res.data?.session ? readFragment(SessionFields, res.data.session) : null;
        setCsrfToken(s?.csrfToken ?? null);
        setSession(s);
        setStatus(s ? 'signedIn' : 'signedOut');
      });
    return () => {
      live = false;
    };
  }, [client, generation]);

  const signedIn = useCallback((raw: FragmentOf<typeof SessionFields>) => {
    const s = readFragment(SessionFields, raw);
    setCsrfToken(s.csrfToken);
    setSession(s);
    setExpired(false);
    setStatus('signedIn');
    setGeneration((g) => g + 1);
  }, []);

  const signOut = useCallback(async () => {
    await client.mutation(SignOutMutation, {}).toPromise();
    setCsrfToken(null);
    setSession(null);
    setExpired(false);
    setStatus('signedOut');
    setGeneration((g) => g + 1);
  }, [client]);

  const renamed = useCallback((name: string) => setSession((s) => (s ? { ...s, user: { ...s.user, name } } : s)), []);

  const value = useMemo<AuthState>(
    () => ({ status, session, signedIn, signOut, renamed, expired }),
    [status, session, signedIn, signOut, renamed, expired],
  );
  return (
    <AuthContext.Provider value={value}>
      <UrqlProvider value={client}>{children}</UrqlProvider>
    </AuthContext.Provider>
  );
}
