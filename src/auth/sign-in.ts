import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';
import type { AppContext } from '../context.ts';
import { sharedLimiter } from '../db/rate-limiter.ts';
import { DomainError } from '../domain/errors.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { createSession, type AuthSession } from './session.ts';

/** Failed sign-ins allowed per email + IP before the pair is locked out for the rest of the window. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Sign-in attempts per IP over the same window, whatever the emails (password spraying). */
export const LOGIN_MAX_PER_IP = 50;

// Counted in PostgreSQL: every api process draws on the same tries.
const limiters = new WeakMap<AppContext, { pair: RateLimiterPostgres; ip: RateLimiterPostgres }>();
function limitersFor(app: AppContext) {
  let l = limiters.get(app);
  if (!l) {
    l = {
      pair: sharedLimiter(app.db, { keyPrefix: 'login', points: LOGIN_MAX_FAILURES, duration: LOGIN_WINDOW_SECONDS }),
      ip: sharedLimiter(app.db, { keyPrefix: 'login-ip', points: LOGIN_MAX_PER_IP, duration: LOGIN_WINDOW_SECONDS }),
    };
    limiters.set(app, l);
  }
  return l;
}

// Verifying against a real hash when the email is unknown keeps response time from revealing which emails exist.
let dummyHash: Promise<string> | null = null;

export async function signIn(
  app: AppContext,
  input: { email: string; password: string; ip: string },
): Promise<{ token: string; session: AuthSession }> {
  const email = input.email.trim().toLowerCase();
  const key = `${email}|${input.ip}`;
  const limiter = limitersFor(app);
  // The attempt is counted before the (slow) password check, so parallel guesses cannot all
  // slip through while the first ones are still being verified; a success gives it back.
  try {
    await limiter.ip.consume(input.ip);
    await limiter.pair.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw rateLimited(res);
    throw res;
  }

  const user = email.length <= 254 ? await app.db.user.findUnique({ where: { email } }) : null;
  dummyHash ??= hashPassword('not-a-real-password');
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
  if (!ok || !user || user.removedAt) {
    app.log.info({ email, ip: input.ip }, 'sign-in failed');
    throw new DomainError('invalid_credentials', 'Wrong email or password.');
  }
  await limiter.pair.delete(key);
  await limiter.ip.reward(input.ip, 1);
  return createSession(app.db, user.id);
}

function rateLimited(res: RateLimiterRes) {
  const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new DomainError(
    'rate_limited',
    `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
    { retryAfterSeconds },
  );
}
