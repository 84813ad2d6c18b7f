import type { Listener } from './listener.ts';

export interface ChangeFeedHandlers {
  /** A notification on the channel, with its payload ('' when none). */
  onChange(payload: string): void;
  /** The feed (re)started or dropped: anything remembered may have missed changes. */
  onReset(): void;
}

/**
 * One channel of the process's shared LISTEN connection (`Listener`) for an in-memory cache that
 * must never outlive a change: while it is not `live` (before the channel is listened to, and
 * whenever the connection drops, until it is back) the cache must not serve from memory. `changes`
 * counts notifications, so a read that raced one is not remembered (`read`).
 */
export class ChangeFeed {
  private starting: Promise<void> | null = null;
  private closed = false;
  live = false;
  changes = 0;

  readonly channel: string;
  private readonly listener: Listener;
  private readonly handlers: ChangeFeedHandlers;
  constructor(listener: Listener, channel: string, handlers: ChangeFeedHandlers) {
    this.listener = listener;
    this.channel = channel;
    this.handlers = handlers;
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  }

  /** Starts listening if it is not yet; resolves once changes are being received (or the attempt failed). */
  async listening(): Promise<void> {
    this.start();
    await this.starting;
  }

  /** Starts listening if it is not yet; whether the cache may serve from memory now. */
  start(): boolean {
    if (!this.starting && !this.closed) this.starting = this.listener.add(this);
    return this.live;
  }

  /**
   * `load`'s value, and whether the cache may remember it: only what was read while listening, with no
   * change heard (nor `forgot()` called) in between — a change made before LISTEN started is in the
   * read, one made during the read may not be.
   */
  async read<T>(load: () => Promise<T>): Promise<{ value: T; keep: boolean }> {
    const live = this.live;
    const changesBefore = this.changes;
    const value = await load();
    return { value, keep: live && this.live && this.changes === changesBefore };
  }

  /** The cache dropped entries itself (a change made through this process): a read under way is not remembered. */
  forgot(): void {
    this.changes++;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.down();
    await this.listener.remove(this);
  }

  notify(payload: string): void {
    this.changes++;
    this.handlers.onChange(payload);
  }

  up(): void {
    // Whatever was read before LISTEN took effect may be stale.
    this.changes++;
    this.handlers.onReset();
    this.live = !this.closed;
  }

  down(): void {
    this.live = false;
    this.changes++;
    this.handlers.onReset();
  }
}

/**
 * An in-memory cache kept by one channel of the feed: a notification drops what the subclass says
 * it makes stale (`changed`), a reset drops everything, and at most `max` entries are held (the
 * oldest goes first). Serve from `entries` only while `feed.start()` says so; remember only what
 * `feed.read` says may be kept.
 */
export abstract class FeedCache<V> {
  protected readonly entries = new Map<string, V>();
  protected readonly feed: ChangeFeed;
  private readonly max: number;
  constructor(listener: Listener, channel: string, max: number) {
    this.max = max;
    this.feed = new ChangeFeed(listener, channel, {
      onChange: (payload) => this.changed(payload),
      onReset: () => this.entries.clear(),
    });
  }

  /** Drops what a notification with this payload ('' when none) makes stale. */
  protected abstract changed(payload: string): void;

  /** Resolves once changes are being received (start-up and tests await it). */
  listening(): Promise<void> {
    return this.feed.listening();
  }

  close(): Promise<void> {
    return this.feed.close();
  }

  /** Holds `value` under `key`; when the cache is full the oldest entry makes room (insertion order). */
  protected remember(key: string, value: V): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
