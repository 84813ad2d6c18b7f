import pg from 'pg';
import type { Logger } from '../log.ts';

/** One channel's subscriber on a Listener. */
export interface ListenerFeed {
  readonly channel: string;
  /** A notification on the channel, with its payload ('' when none). */
  notify(payload: string): void;
  /** The channel is being listened to (again): anything read before may have missed changes. */
  up(): void;
  /** The connection dropped: notifications are lost until `up` comes again. */
  down(): void;
}

const MAX_RETRY_MS = 10_000;

/**
 * The one LISTEN connection of a process, shared by every change feed (API keys, filter options,
 * sessions, live updates): each channel is LISTENed on it while it has a feed, so an api process
 * holds one session for all of them instead of one each (issue 29). It connects with the first
 * feed, reconnects (with backoff) when the connection drops — telling every feed it was down and is
 * up again — and disconnects when the last feed leaves.
 *
 * LISTEN needs a session of its own: behind a transaction pooler, give it the direct address.
 */
export class Listener {
  private readonly feeds = new Map<string, Set<ListenerFeed>>();
  private client: pg.Client | null = null;
  /** Channels LISTENed on `client`. */
  private readonly listened = new Set<string>();
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = 1000;
  private closed = false;
  // pg queues a client's queries but warns about it; LISTEN/UNLISTEN go out one at a time here.
  private tail: Promise<unknown> = Promise.resolve();

  private readonly connectionString: string;
  private readonly log: Logger;
  private readonly applicationName: string;
  constructor(connectionString: string, log: Logger, applicationName = 'escucha-listen') {
    this.connectionString = connectionString;
    this.log = log;
    this.applicationName = applicationName;
  }

  /** Adds a feed; resolves once its channel is being listened to (or the attempt failed and will be retried). */
  async add(feed: ListenerFeed): Promise<void> {
    if (!/^[a-z_]+$/.test(feed.channel)) throw new Error(`not a plain channel name: ${feed.channel}`);
    if (this.closed) return;
    const set = this.feeds.get(feed.channel) ?? new Set<ListenerFeed>();
    this.feeds.set(feed.channel, set);
    set.add(feed);
    const client = this.client;
    if (!client) {
      this.ensureConnected();
      // The connection being made LISTENs every channel registered by the time it is up.
      return void (await this.connecting);
    }
    if (!this.listened.has(feed.channel)) {
      try {
        await this.inTurn(() => client.query(`LISTEN ${feed.channel}`));
      } catch {
        return; // the connection dropped: its 'error'/'end' handler takes it from here.
      }
      if (this.client !== client) return;
      this.listened.add(feed.channel);
    }
    if (set.has(feed)) feed.up();
  }

  /** Removes a feed; its channel is no longer listened to when it was the last. */
  async remove(feed: ListenerFeed): Promise<void> {
    const set = this.feeds.get(feed.channel);
    if (!set?.delete(feed)) return;
    if (set.size) return;
    this.feeds.delete(feed.channel);
    const client = this.client;
    if (!client) return;
    if (this.feeds.size === 0) return this.disconnect();
    this.listened.delete(feed.channel);
    await this.inTurn(() => client.query(`UNLISTEN ${feed.channel}`)).catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.connecting;
    await this.disconnect();
    for (const set of this.feeds.values()) for (const feed of set) feed.down();
    this.feeds.clear();
  }

  private async disconnect() {
    const client = this.client;
    this.client = null;
    this.listened.clear();
    await client?.end().catch(() => {});
  }

  private inTurn<T>(run: () => Promise<T>): Promise<T> {
    const next = this.tail.then(run, run);
    this.tail = next.catch(() => {});
    return next;
  }

  private ensureConnected() {
    if (this.client || this.connecting || this.retry || this.closed) return;
    this.connecting = this.connect().finally(() => (this.connecting = null));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: this.applicationName });
    let failed = false;
    const lost = (why: string) => {
      if (failed) return;
      failed = true;
      if (this.client === client) {
        this.client = null;
        this.listened.clear();
        for (const set of this.feeds.values()) for (const feed of set) feed.down();
      }
      client.end().catch(() => {});
      if (this.closed || this.feeds.size === 0) return;
      this.log.warn(
        { why, channels: [...this.feeds.keys()], retryMs: this.retryMs },
        'change feed lost; reading from the database until it is back',
      );
      this.retry = setTimeout(() => {
        this.retry = null;
        this.ensureConnected();
      }, this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    };
    client.on('error', (e) => lost(e.message));
    client.on('end', () => lost('connection ended'));
    client.on('notification', (n) => {
      if (this.client !== client) return;
      for (const feed of this.feeds.get(n.channel) ?? []) feed.notify(n.payload ?? '');
    });
    try {
      await client.connect();
      const listened = new Set<string>();
      // Channels added while LISTENs were in flight are LISTENed too before anyone is told "up".
      for (;;) {
        const missing = [...this.feeds.keys()].filter((c) => !listened.has(c));
        if (!missing.length) break;
        for (const channel of missing) {
          await client.query(`LISTEN ${channel}`);
          listened.add(channel);
        }
      }
      if (failed) return;
      if (this.closed || this.feeds.size === 0) {
        failed = true;
        return void (await client.end().catch(() => {}));
      }
      this.client = client;
      for (const c of listened) this.listened.add(c);
      this.retryMs = 1000;
      for (const set of this.feeds.values()) for (const feed of set) feed.up();
    } catch (error) {
      lost((error as Error).message);
    }
  }
}
