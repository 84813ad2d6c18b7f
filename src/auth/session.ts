import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { AuthSession, ResolvedSession } from './session-cache.ts';

export type { AuthSession, SessionUser } from './session-cache.ts';

export const SESSION_COOKIE = 'escucha_session';
/** Header the web app sends with every GraphQL request; its value must equal the session's csrf token for mutations. */
export const CSRF_HEADER = 'x-escucha-csrf';
export const SESSION_TTL_MS = 14 * 24 * 3600_000;
// Sliding expiry would otherwise write the sessions row on every request; a coarse step keeps reads read-only.
export const SLIDE_STEP_MS = 10 * 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** Opens a session; the raw token goes only into the cookie, the database keeps its sha256. */
export async function createSession(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<{ token: string; session: AuthSession }> {
  const token = newToken();
  const row = await db.session.create({
    data: {
      userId,
      tokenHash: hashToken(token),
      csrfToken: newToken(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    },
    include: { user: { select: { id: true, accountId: true, email: true, name: true, role: true, agentId: true } } },
  });
  return { token, session: { id: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, user: row.user } };
}

/**
 * Resolves a raw session token. Expired sessions and removed users yield null; a live session has its
 * expiry pushed forward (sliding), returned as `renewed` so the caller can refresh the cookie too.
 */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<ResolvedSession | null> {
  if (!token || token.length > 200) return null;
  const row = await db.session.findUnique({
    where: { tokenHash: hashToken(token) },
    include: {
      user: {
        select: { id: true, accountId: true, email: true, name: true, role: true, agentId: true, removedAt: true },
      },
    },
  });
  if (!row || row.expiresAt <= now || row.user.removedAt) return null;
  const { removedAt: _removed, ...user } = row.user;
  let expiresAt = row.expiresAt;
  let lastSeenAt = row.lastSeenAt;
  let renewed = false;
  if (now.getTime() - row.lastSeenAt.getTime() > SLIDE_STEP_MS) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    lastSeenAt = now;
    await db.session.update({ where: { id: row.id }, data: { lastSeenAt: now, expiresAt } });
    renewed = true;
  }
  return { session: { id: row.id, csrfToken: row.csrfToken, expiresAt, user }, renewed, lastSeenAt };
}

export async function destroySession(db: Db, sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}

export function sessionCookie(app: AppContext, token: string, expiresAt: Date): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.secureCookies,
    path: '/',
    expires: expiresAt,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(app: AppContext): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.secureCookies,
    path: '/',
    maxAge: 0,
    expires: new Date(0),
  });
}

export function sessionTokenFrom(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  return parseCookie(cookieHeader)[SESSION_COOKIE] ?? null;
}

type AnyRequest = IncomingMessage | Request;

function cookieHeaderOf(req: AnyRequest): string | null {
  if (typeof (req as Request).headers?.get === 'function') return (req as Request).headers.get('cookie');
  const h = (req as IncomingMessage).headers.cookie;
  return typeof h === 'string' ? h : null;
}

export async function getSession(app: AppContext, req: AnyRequest, res?: ServerResponse): Promise<AuthSession | null> {
  const token = sessionTokenFrom(cookieHeaderOf(req));
  if (!token) return null;
  // The api role keeps live sessions in memory (src/auth/session-cache.ts); elsewhere, and for
  // anything it may not answer, the database is asked.
  const resolved = app.sessions
    ? token.length > 200
      ? null
      : await app.sessions.resolve(hashToken(token), () => resolveSession(app.db, token))
    : await resolveSession(app.db, token);
  if (!resolved) return null;
  if (resolved.renewed && res && !res.headersSent)
    res.appendHeader('Set-Cookie', sessionCookie(app, token, resolved.session.expiresAt));
  return resolved.session;
}

/** True when the request carries the session's CSRF token in `x-escucha-csrf`. */
export function checkCsrf(session: AuthSession, req: AnyRequest): boolean {
  const value =
    typeof (req as Request).headers?.get === 'function'
      ? (req as Request).headers.get(CSRF_HEADER)
      : (req as IncomingMessage).headers[CSRF_HEADER];
  if (typeof value !== 'string') return false;
  const a = Buffer.from(value);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}
