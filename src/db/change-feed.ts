import pg from 'pg';
import type { Logger } from '../log.ts';

export interface ChangeFeedHandlers {
  /** A notification on the channel, with its payload ('' when none). */
  onChange(payload: string): void;
  /** The feed (re)started or dropped: anything remembered may have missed changes. */
  onReset(): void;
}

/**
 * One LISTEN connection for an in-memory cache that must never outlive a change: while it is not
 * `live` (before it connects, and whenever the connection drops, until it is back) the cache must
 * not serve from memory. `changes` counts notifications, so a read that raced one is not
 * remembered: compare it before and after the read.
 */
export class ChangeFeed {
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  live = false;
  changes = 0;

  private readonly connectionString: string;
  private readonly channel: string;
  private readonly log: Logger;
  private readonly handlers: ChangeFeedHandlers;
  constructor(connectionString: string, channel: string, log: Logger, handlers: ChangeFeedHandlers) {
    this.connectionString = connectionString;
    this.channel = channel;
    this.log = log;
    this.handlers = handlers;
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  }

  /** Starts listening if it is not yet; resolves once changes are being received (or the attempt failed). */
  async listening(): Promise<void> {
    this.start();
    await this.starting;
  }

  start(): void {
    if (this.starting || this.closed) return;
    this.starting = this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.handlers.onReset();
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    const down = (why: string) => {
      if (this.client !== client) return;
      this.client = null;
      this.live = false;
      this.changes++;
      this.handlers.onReset();
      if (this.closed) return;
      this.log.warn({ why, channel: this.channel }, 'change feed lost; reading from the database until it is back');
      this.starting = null;
      this.retry = setTimeout(() => this.start(), 1000);
      this.retry.unref();
    };
    client.on('error', (e) => down(e.message));
    client.on('end', () => down('connection ended'));
    client.on('notification', (n) => {
      if (n.channel !== this.channel) return;
      this.changes++;
      this.handlers.onChange(n.payload ?? '');
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.client !== client) return void (await client.end().catch(() => {}));
      // Whatever was read before LISTEN took effect may be stale.
      this.changes++;
      this.handlers.onReset();
      this.live = true;
    } catch (error) {
      down((error as Error).message);
    }
  }
}
