import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { checkCsrf, CSRF_HEADER, getSession, type AuthSession } from './session.ts';
import { hasScope } from './scopes.ts';
import { logContext } from '../log.ts';
import { sendError, sendEarlyError } from '../http/respond.ts';
import { ROUTE_ACCESS, type RouteAccessName } from './route-access.ts';

/**
 * The signed-in session of an app request whose role has the route's scope (ROUTE_ACCESS: the
 * scope of the GraphQL fields that return the same data) — or null after answering 401 (no
 * session) or 403 (a role without the scope). Uploads pass `close: true` so a refused multipart
 * body is not read to the end, and `roleAfterCsrf` to check the role in `requireWrite`, after CSRF.
 */
export async function requireSession(
  app: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteAccessName,
  opts: { close?: boolean; roleAfterCsrf?: boolean } = {},
): Promise<AuthSession | null> {
  const scope = opts.roleAfterCsrf ? 'signedIn' : ROUTE_ACCESS[route].scope;
  const session = await getSession(app, req, res);
  if (!session) {
    const message = 'Sign in to the app first (no valid session cookie).';
    if (opts.close) sendEarlyError(req, res, 'unauthorized', message);
    else sendError(res, 'unauthorized', message);
    return null;
  }
  const store = logContext.getStore();
  if (store) store.accountId = session.user.accountId;
  if (!hasScope(session.user.role, scope)) {
    const message = `Your role (${session.user.role}) does not allow this.`;
    if (opts.close) sendEarlyError(req, res, 'forbidden', message);
    else sendError(res, 'forbidden', message);
    return null;
  }
  return session;
}

/**
 * For state-changing requests: the session's own CSRF token in `x-escucha-csrf` (a cross-site form
 * can carry the cookie but cannot read the token), then the role. Answers 403 and returns false.
 */
export function requireWrite(
  req: IncomingMessage,
  res: ServerResponse,
  session: AuthSession,
  route: RouteAccessName,
): boolean {
  const { scope } = ROUTE_ACCESS[route];
  if (!checkCsrf(session, req)) {
    sendEarlyError(req, res, 'csrf', `The ${CSRF_HEADER} header is missing or does not match this session.`);
    return false;
  }
  if (!hasScope(session.user.role, scope)) {
    sendEarlyError(req, res, 'forbidden', `Your role (${session.user.role}) cannot do this; ask an admin.`);
    return false;
  }
  return true;
}
