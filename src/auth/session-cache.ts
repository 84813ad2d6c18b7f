import { FeedCache } from '../db/change-feed.ts';
import type { Listener } from '../db/listener.ts';
import type { UserRole } from '../generated/prisma/client.ts';

// The session types live here, beside the cache that holds them (session.ts re-exports them).
export interface SessionUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: UserRole;
  /** Role `agent`: the agent whose calls this user sees (src/auth/call-scope.ts). */
  agentId: string | null;
}

export interface AuthSession {
  id: string;
  csrfToken: string;
  expiresAt: Date;
  user: SessionUser;
}

/** The channel the migration's `notify_session_changed` trigger sends `s:<token hash>` or `u:<user id>` on. */
export const SESSION_CHANGED_CHANNEL = 'session_changed';

const MAX_ENTRIES = 10_000;

interface Entry {
  session: AuthSession;
  /** When the sessions row was last slid (ms): past the slide step the database is asked again, and slides it. */
  lastSeenAt: number;
}

/** What resolveSession answers, with the row's last_seen_at so a cached copy knows when to slide. */
export interface ResolvedSession {
  session: AuthSession;
  renewed: boolean;
  lastSeenAt: Date;
}

/**
 * Live sessions by token hash, kept in memory by each api process so a request does not read its
 * session from the database every time. A session ends or changes (signing out, expiry slid, a
 * password change) or its user does (removed, role or agent changed) only through a row change
 * the database announces at once (LISTEN/NOTIFY, see the migration session_changed); a mutation
 * made through this process also drops its account's sessions here before and after it runs, so
 * its own next request cannot race that notification. While the feed is not listening nothing is
 * served from memory. Expiry is checked on every hit, and past the slide step the database is
 * asked again (and the expiry slid), as without the cache.
 */
export class SessionCache extends FeedCache<Entry> {
  private readonly slideStepMs: number;
  constructor(listener: Listener, slideStepMs: number) {
    super(listener, SESSION_CHANGED_CHANNEL, MAX_ENTRIES);
    this.slideStepMs = slideStepMs;
  }

  /** Drops every session of an account held here (see the class comment). */
  forgetAccount(accountId: string): void {
    this.feed.forgot();
    for (const [hash, e] of this.entries) if (e.session.user.accountId === accountId) this.entries.delete(hash);
  }

  /** The session of a token hash, from memory when it may be, else from `load` (and remembered). */
  async resolve(
    tokenHash: string,
    load: () => Promise<ResolvedSession | null>,
    now = Date.now(),
  ): Promise<{ session: AuthSession; renewed: boolean } | null> {
    const hit = this.feed.start() ? this.entries.get(tokenHash) : undefined;
    if (hit && hit.session.expiresAt.getTime() > now && now - hit.lastSeenAt <= this.slideStepMs) {
      return { session: hit.session, renewed: false };
    }
    const { value: found, keep } = await this.feed.read(load);
    // An unknown token is never remembered (a session made on another process works at once).
    if (found && keep) this.remember(tokenHash, { session: found.session, lastSeenAt: found.lastSeenAt.getTime() });
    else if (!found) {
      this.entries.delete(tokenHash);
    }
    return found && { session: found.session, renewed: found.renewed };
  }

  protected changed(payload: string): void {
    if (payload.startsWith('s:')) this.entries.delete(payload.slice(2));
    else if (payload.startsWith('u:')) {
      const userId = payload.slice(2);
      for (const [hash, e] of this.entries) if (e.session.user.id === userId) this.entries.delete(hash);
    } else this.entries.clear();
  }
}
