import type { Listener, ListenerFeed } from '../db/listener.ts';
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
 * Live call updates for GraphQL subscriptions, on the process's one LISTEN connection (`Listener`),
 * shared by every subscriber and filtered by account here. The channel is listened to from the first
 * subscriber to the last, so an idle api process receives no updates.
 */
export class CallUpdatesHub {
  private readonly subscribers = new Set<Subscriber>();
  private adding: Promise<void> | null = null;
  private readonly feed: ListenerFeed;

  private readonly listener: Listener;
  private readonly log: Logger;
  constructor(listener: Listener, log: Logger) {
    this.listener = listener;
    this.log = log;
    this.feed = {
      channel: CALL_UPDATED_CHANNEL,
      notify: (payload) => this.dispatch(payload),
      up: () => {},
      // Updates during the gap are lost; subscribers re-read state on the next one, and the UI refetches on reconnect.
      down: () => this.log.debug('call updates paused until the change feed is back'),
    };
  }

  /** Resolves once notifications are being received (used by tests to avoid racing the LISTEN). */
  async listening(): Promise<void> {
    await this.adding;
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
    if (this.adding) return;
    this.adding = this.listener.add(this.feed);
  }

  private maybeDisconnect() {
    if (this.subscribers.size > 0 || !this.adding) return;
    this.adding = null;
    this.listener.remove(this.feed).catch(() => {});
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
