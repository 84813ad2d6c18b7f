import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../app/context.ts';
import { DomainError } from '../domain/errors.ts';
import { hashPassword, verifyPassword } from '../domain/passwords.ts';
import { createSession, type AuthSession } from './session.ts';

/** Failed sign-ins allowed per email + IP before the pair is locked out for the rest of the window. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

// Per process: with several api processes an attacker gets this many tries per process, which is
// still far below what a password guessing attack needs. A shared limiter would need Postgres or Redis.
const limiters = new WeakMap<AppContext, RateLimiterMemory>();
function limiterFor(app: AppContext) {
  let l = limiters.get(app);
  if (!l) {
    l = new RateLimiterMemory({ keyPrefix: 'login', points: LOGIN_MAX_FAILURES, duration: LOGIN_WINDOW_SECONDS });
    limiters.set(app, l);
  }
  return l;
}

// Verifying against a real hash when the email is unknown keeps response time from revealing which emails exist.
let dummyHash: Promise<string> | null = null;

export async function signIn(app: AppContext, input: { email: string; password: string; ip: string }): Promise<{ token: string; session: AuthSession }> {
  const email = input.email.trim().toLowerCase();
  const key = `${email}|${input.ip}`;
  const limiter = limiterFor(app);
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= LOGIN_MAX_FAILURES) throw rateLimited(state);

  const user = email.length <= 254 ? await app.db.user.findUnique({ where: { email } }) : null;
  dummyHash ??= hashPassword('not-a-real-password');
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
  if (!ok || !user || user.removedAt) {
    try {
      await limiter.consume(key);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw rateLimited(res);
      throw res;
    }
    app.log.info({ email, ip: input.ip }, 'sign-in failed');
    throw new DomainError('invalid_credentials', 'Wrong email or password.');
  }
  await limiter.delete(key);
  return createSession(app.db, user.id);
}

function rateLimited(res: RateLimiterRes) {
  const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new DomainError('rate_limited', `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`, { retryAfterSeconds });
}
