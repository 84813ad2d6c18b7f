import { FeedCache } from '../db/change-feed.ts';
import type { Db } from '../db/client.ts';
import type { Listener } from '../db/listener.ts';
import type { Logger } from '../log.ts';
import { authenticateApiKey, hashApiKey, isApiKeyShaped, type AuthenticatedKey } from './api-keys.ts';

/** The channel the `api_keys_notify_changed` trigger sends a key's hash on when it changes. */
export const API_KEY_CHANGED_CHANNEL = 'api_key_changed';

/** Unknown keys are remembered briefly only, so a key created on another process works at once. */
const UNKNOWN_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
/** last_used_at is shown to the minute; writing it more often would make one row hot. */
const LAST_USED_EVERY_MS = 60_000;

interface Entry {
  key: AuthenticatedKey | null;
  at: number;
  lastUsedWrite: number;
}

/**
 * API keys by hash, kept in memory so intake does not ask the database on every request. A
 * revocation (or any change) anywhere reaches every process at once through LISTEN/NOTIFY; until
 * the LISTEN connection is up — and whenever it drops — nothing is served from memory, so a
 * missed notification can never keep a revoked key alive.
 */
export class ApiKeyCache extends FeedCache<Entry> {
  private readonly db: Db;
  private readonly log: Logger;
  constructor(db: Db, listener: Listener, log: Logger) {
    super(listener, API_KEY_CHANGED_CHANNEL, MAX_ENTRIES);
    this.db = db;
    this.log = log;
  }

  protected changed(hash: string): void {
    this.invalidate(hash || undefined);
  }

  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    if (!isApiKeyShaped(key)) return null;
    const live = this.feed.start();
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = live ? this.entries.get(hash) : undefined;
    if (hit && (hit.key || now - hit.at < UNKNOWN_TTL_MS)) {
      if (hit.key && now - hit.lastUsedWrite > LAST_USED_EVERY_MS) {
        hit.lastUsedWrite = now;
        // Off the request's path: a lost write only makes "last used" a minute older.
        this.db.apiKey
          .update({ where: { id: hit.key.keyId }, data: { lastUsedAt: new Date() } })
          .catch((error: Error) => this.log.warn({ err: error.message }, 'could not record API key use'));
      }
      return hit.key;
    }
    const { value: found, keep } = await this.feed.read(() => authenticateApiKey(this.db, key));
    if (keep) this.remember(hash, { key: found, at: now, lastUsedWrite: now });
    return found;
  }

  /** Forgets one key (by hash), or every key. */
  invalidate(hash?: string): void {
    if (hash) this.entries.delete(hash);
    else this.entries.clear();
  }
}
