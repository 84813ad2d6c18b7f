import pg from 'pg';
import type { Logger } from '../log.ts';

export const CALL_UPDATED_CHANNEL = 'call_updated';

/** What the `calls_notify_updated` trigger sends on insert and on status, score or revision change. */
export interface CallUpdate {
  id: string;
  accountId: string;
  status: string;
}

// A subscriber that stops reading must not make the process buffer without bound; it only ever
// needs the latest state, which it re-reads from the database anyway.
const MAX_BUFFERED = 100;

interface Subscriber {
  accountId: string;
  push(update: CallUpdate): void;
}

/**
 * One LISTEN connection per process, shared by every subscriber and filtered by account here.
 * It is opened with the first subscriber and closed with the last, so an idle api process holds
 * no extra connection (and tests need no shutdown hook).
 */
export class CallUpdatesHub {
  private readonly subscribers = new Set<Subscriber>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = 500;

  private readonly connectionString: string;
  private readonly log: Logger;
  constructor(connectionString: string, log: Logger) {
    this.connectionString = connectionString;
    this.log = log;
  }

  /** Resolves once notifications are being received (used by tests to avoid racing the LISTEN). */
  async listening(): Promise<void> {
    await this.connecting;
  }

  subscribe(accountId: string): AsyncIterableIterator<CallUpdate> {
    const buffer: CallUpdate[] = [];
    let waiting: ((r: IteratorResult<CallUpdate>) => void) | null = null;
    let closed = false;
    const sub: Subscriber = {
      accountId,
      push: (update) => {
        if (waiting) {
          const w = waiting;
          waiting = null;
          w({ value: update, done: false });
          return;
        }
        if (buffer.length >= MAX_BUFFERED) buffer.shift();
        buffer.push(update);
      },
    };
    const close = () => {
      if (closed) return;
      closed = true;
      this.subscribers.delete(sub);
      this.maybeDisconnect();
      waiting?.({ value: undefined, done: true });
      waiting = null;
    };
    this.subscribers.add(sub);
    this.ensureConnected();
    // A hand-written iterator rather than an async generator: a generator parked in an await
    // would not run its cleanup on `return()` until the next update arrived.
    return {
      next: () => {
        if (closed) return Promise.resolve({ value: undefined, done: true });
        const next = buffer.shift();
        if (next) return Promise.resolve({ value: next, done: false });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: () => {
        close();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (error) => {
        close();
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  private ensureConnected() {
    if (this.client || this.connecting || this.retryTimer) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'escucha-call-updates' });
    this.connecting = (async () => {
      try {
        await client.connect();
        client.on('notification', (msg) => this.dispatch(msg.payload));
        client.on('error', (err) => this.lost(client, err));
        client.on('end', () => this.lost(client, null));
        await client.query(`LISTEN ${CALL_UPDATED_CHANNEL}`);
        this.client = client;
        this.retryMs = 500;
        if (this.subscribers.size === 0) this.maybeDisconnect();
      } catch (error) {
        client.end().catch(() => {});
        this.lost(client, error as Error);
      } finally {
        this.connecting = null;
      }
    })();
  }

  private lost(client: pg.Client, error: Error | null) {
    if (this.client && this.client !== client) return;
    this.client = null;
    if (this.subscribers.size === 0) return;
    // Updates during the gap are lost; subscribers re-read state on the next one, and the UI refetches on reconnect.
    this.log.warn({ err: error ?? undefined, retryMs: this.retryMs }, 'call_updated listener lost; reconnecting');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.subscribers.size > 0) this.ensureConnected();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(30_000, this.retryMs * 2);
  }

  private maybeDisconnect() {
    if (this.subscribers.size > 0 || !this.client) return;
    const client = this.client;
    this.client = null;
    client.end().catch(() => {});
  }

  private dispatch(payload: string | undefined) {
    if (!payload) return;
    let parsed: { id?: unknown; account_id?: unknown; status?: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof parsed.id !== 'string' || typeof parsed.account_id !== 'string') return;
    const update: CallUpdate = { id: parsed.id, accountId: parsed.account_id, status: String(parsed.status) };
    for (const sub of this.subscribers) if (sub.accountId === update.accountId) sub.push(update);
  }
}
