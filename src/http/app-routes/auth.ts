import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../../app/context.ts';
import { checkCsrf, CSRF_HEADER, getSession, type AuthSession } from '../../auth/session.ts';
import type { UserRole } from '../../generated/prisma/client.ts';
import { logContext } from '../../log.ts';
import { sendError, sendErrorAndClose } from '../respond.ts';

/** Roles that may add calls (and so spend minutes); viewers only read. */
export const UPLOAD_ROLES: readonly UserRole[] = ['owner', 'admin', 'analyst'];

/**
 * The signed-in session of an app request, or null after answering 401. Uploads pass
 * `close: true` so a refused multipart body is not read to the end.
 */
export async function requireSession(
  app: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  opts: { close?: boolean } = {},
): Promise<AuthSession | null> {
  const session = await getSession(app, req, res);
  if (!session) {
    const message = 'Sign in to the app first (no valid session cookie).';
    if (opts.close) sendErrorAndClose(req, res, 'unauthorized', message);
    else sendError(res, 'unauthorized', message);
    return null;
  }
  const store = logContext.getStore();
  if (store) store.accountId = session.user.accountId;
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
  roles: readonly UserRole[],
): boolean {
  if (!checkCsrf(session, req)) {
    sendErrorAndClose(req, res, 'csrf', `The ${CSRF_HEADER} header is missing or does not match this session.`);
    return false;
  }
  if (!roles.includes(session.user.role)) {
    sendErrorAndClose(req, res, 'forbidden', `Your role (${session.user.role}) cannot do this; ask an admin.`);
    return false;
  }
  return true;
}
