import pg from 'pg';
import type { Db } from '../db/client.ts';
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
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private live = false;
  /** Bumped by every change notification: a read that raced a change is not remembered. */
  private changes = 0;

  constructor(
    private readonly db: Db,
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /** Resolves once changes are being received (tests and start-up await it). */
  async listening(): Promise<void> {
    this.start();
    await this.starting;
  }

  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    if (!isApiKeyShaped(key)) return null;
    this.start();
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = this.live ? this.entries.get(hash) : undefined;
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
    const wasLive = this.live;
    const changesBefore = this.changes;
    const found = await authenticateApiKey(this.db, key);
    // Only remember what was read while listening and with no change in between: a change made
    // before LISTEN started is in the read, one made during the read may not be.
    if (wasLive && this.live && this.changes === changesBefore) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { key: found, at: now, lastUsedWrite: now });
    }
    return found;
  }

  /** Forgets one key (by hash), or every key. */
  invalidate(hash?: string): void {
    if (hash) this.entries.delete(hash);
    else this.entries.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private start(): void {
    if (this.starting || this.closed) return;
    this.starting = this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    const down = (why: string) => {
      if (this.client !== client) return;
      this.client = null;
      this.live = false;
      this.entries.clear();
      if (this.closed) return;
      this.log.warn({ why }, 'API key change feed lost; keys are read from the database until it is back');
      this.starting = null;
      this.retry = setTimeout(() => this.start(), 1000);
      this.retry.unref();
    };
    client.on('error', (e) => down(e.message));
    client.on('end', () => down('connection ended'));
    client.on('notification', (n) => {
      if (n.channel !== API_KEY_CHANGED_CHANNEL) return;
      this.changes++;
      this.invalidate(n.payload || undefined);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_CHANGED_CHANNEL}`);
      if (this.client !== client) return void (await client.end().catch(() => {}));
      this.entries.clear();
      this.live = true;
    } catch (error) {
      down((error as Error).message);
    }
  }
}
