import { FeedCache } from '../db/change-feed.ts';
import type { Listener } from '../db/listener.ts';

/** The channel the migration's `notify_filter_options_changed` trigger sends an account id on. */
export const FILTER_OPTIONS_CHANGED_CHANNEL = 'filter_options_changed';

const MAX_ACCOUNTS = 2_000;

/**
 * The calls list's filter options per account, kept in memory by each api process: the web app
 * asks for them on every visit to the list, and the answer changes only when a topic, language,
 * agent or campaign comes into use or goes out of use, or an agent, campaign or template changes —
 * each of which the database announces at once (LISTEN/NOTIFY, see the migration
 * filter_options_changed). While the feed is not listening nothing is served from memory.
 *
 * Entries are per account and then per part (`key`): the facet lists, and the agent and campaign
 * rows as a given GraphQL selection asked for them. The answer is the same for every member of an
 * account (roles are checked before the resolvers run), so sharing it within the account leaks
 * nothing.
 */
export class FilterOptionsCache extends FeedCache<Map<string, unknown>> {
  constructor(listener: Listener) {
    super(listener, FILTER_OPTIONS_CHANGED_CHANNEL, MAX_ACCOUNTS);
  }

  protected changed(accountId: string): void {
    if (accountId) this.entries.delete(accountId);
    else this.entries.clear();
  }

  /**
   * Drops an account's entries at once, without waiting for the database's notification: a
   * mutation made through this process calls it, so the page that reloads right after its own
   * change can never be answered from before it.
   */
  forget(accountId: string): void {
    this.feed.forgot();
    this.entries.delete(accountId);
  }

  /** The remembered `key` of the account, or what `load` reads (remembered when no change raced it). */
  async get<T>(accountId: string, key: string, load: () => Promise<T>): Promise<T> {
    const parts = this.feed.start() ? this.entries.get(accountId) : undefined;
    if (parts?.has(key)) return parts.get(key) as T;
    const { value, keep } = await this.feed.read(load);
    if (keep) {
      let mine = this.entries.get(accountId);
      if (!mine) {
        mine = new Map();
        this.remember(accountId, mine);
      }
      mine.set(key, value);
    }
    return value;
  }
}
