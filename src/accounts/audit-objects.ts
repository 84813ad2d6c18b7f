import type { Db } from '../db/client.ts';

/**
 * What an audit entry is about, named for people (issue 26): the call, template, endpoint, user or
 * dispute with the name it has now — or, once it is gone, the name the entry kept — never a bare
 * UUID. The app turns `kind` and `id` into a link and `kind` into words in the reader's language.
 */
export interface AuditObject {
  /** call, template, webhook_endpoint, user, invitation, api_key, dispute, settings, calls, bulk_reanalysis. */
  kind: string;
  id: string | null;
  name: string | null;
  /** Deleted, removed or revoked since: the name is the one the entry kept. */
  gone: boolean;
  /** A dispute's call: the page where it is judged. */
  callId: string | null;
}

export interface AuditRow {
  accountId: string;
  action: string;
  targetType: string;
  targetId: string | null;
  detail: unknown;
}

type Load<T> = (id: string) => Promise<T | undefined>;

/**
 * Collects the ids asked for while GraphQL resolves one page of entries and reads each kind in one
 * query (a page of 50 entries is a handful of queries, not 50).
 */
function batched<T>(read: (ids: string[]) => Promise<Map<string, T>>): Load<T> {
  type Waiter = { resolve: (v: T | undefined) => void; reject: (e: unknown) => void };
  let pending: Map<string, Waiter[]> | null = null;
  return (id) =>
    new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map<string, Waiter[]>();
        pending = batch;
        setImmediate(() => {
          pending = null;
          read([...batch.keys()]).then(
            (found) => {
              for (const [k, waiting] of batch) for (const w of waiting) w.resolve(found.get(k));
            },
            (error: unknown) => {
              for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
            },
          );
        });
      }
      const list = pending.get(id) ?? [];
      list.push({ resolve, reject });
      pending.set(id, list);
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuids = (ids: string[]) => ids.filter((id) => UUID.test(id));

/** One reader per request and account (see `auditObjectsLoader`). */
export function auditObjectReader(db: Db, accountId: string) {
  const calls = batched(async (ids) => {
    const rows = await db.call.findMany({
      where: { accountId, id: { in: uuids(ids) } },
      select: { id: true, customerName: true, customerPhone: true, fileName: true, externalId: true },
    });
    const live = new Map<string, { name: string | null; gone: boolean }>(
      rows.map((r) => [
        r.id,
        { name: r.customerName || r.customerPhone || r.fileName || r.externalId || null, gone: false },
      ]),
    );
    // A deleted call is named by what its tombstone keeps: its external id, never its content.
    const missing = uuids(ids).filter((id) => !live.has(id));
    if (missing.length)
      for (const t of await db.callTombstone.findMany({
        where: { accountId, id: { in: missing } },
        select: { id: true, externalId: true },
      }))
        live.set(t.id, { name: t.externalId, gone: true });
    return live;
  });
  const templates = batched(async (ids) => {
    const rows = await db.template.findMany({
      where: { accountId, id: { in: uuids(ids) } },
      select: { id: true, name: true, deletedAt: true },
    });
    return new Map(rows.map((r) => [r.id, r]));
  });
  const endpoints = batched(async (ids) => {
    const rows = await db.webhookEndpoint.findMany({
      where: { accountId, id: { in: uuids(ids) } },
      select: { id: true, url: true },
    });
    return new Map(rows.map((r) => [r.id, r.url]));
  });
  const users = batched(async (ids) => {
    const rows = await db.user.findMany({
      where: { accountId, id: { in: uuids(ids) } },
      select: { id: true, name: true, email: true, removedAt: true },
    });
    return new Map(rows.map((r) => [r.id, r]));
  });
  const disputes = batched(async (ids) => {
    const rows = await db.dispute.findMany({
      where: { accountId, id: { in: uuids(ids) } },
      select: { id: true, callId: true, criterionKey: true },
    });
    return new Map(rows.map((r) => [r.id, r]));
  });

  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const obj = (kind: string, id: string | null, name: string | null, gone = false, callId: string | null = null) => ({
    kind,
    id,
    name,
    gone,
    callId,
  });

  async function dispute(id: string, d: Record<string, unknown>): Promise<AuditObject> {
    const row = await disputes(id);
    return obj(
      'dispute',
      id,
      text(d.criterion_label) ?? text(d.criterion) ?? row?.criterionKey ?? null,
      !row,
      row?.callId ?? null,
    );
  }

  /** The entry's objects, the one it is about first. */
  return async function objectsOf(e: AuditRow): Promise<AuditObject[]> {
    const d = (e.detail && typeof e.detail === 'object' ? e.detail : {}) as Record<string, unknown>;
    const id = e.targetId;
    switch (e.targetType) {
      case 'call': {
        const found = id ? await calls(id) : undefined;
        const out = [obj('call', id, found?.name ?? text(d.externalId), found?.gone ?? true)];
        if (text(d.dispute_id)) out.push(await dispute(String(d.dispute_id), d));
        return out;
      }
      case 'dispute':
        return id ? [await dispute(id, d)] : [];
      case 'template': {
        const row = id ? await templates(id) : undefined;
        const kept = text(d.name) ?? text(d.template) ?? text(d.to) ?? text(d.from);
        return [obj('template', id, row?.name ?? kept, !row || row.deletedAt != null)];
      }
      case 'webhook_endpoint': {
        const url = id ? await endpoints(id) : undefined;
        return [obj('webhook_endpoint', id, url ?? text(d.url) ?? text(d.to) ?? text(d.from), url === undefined)];
      }
      case 'user': {
        const u = id ? await users(id) : undefined;
        return [obj('user', id, u ? `${u.name} (${u.email})` : text(d.email), !u || u.removedAt != null)];
      }
      case 'invitation':
        return [obj('invitation', id, text(d.email), e.action === 'invitation.revoked')];
      case 'api_key':
        return [obj('api_key', id, text(d.name), e.action === 'api_key.revoked')];
      case 'account':
        return [obj('settings', null, null)];
      default:
        return [obj(e.targetType, null, null)];
    }
  };
}

const readers = new WeakMap<object, Map<string, ReturnType<typeof auditObjectReader>>>();

/** The reader of this request (`scope`, e.g. the GraphQL context) for the account. */
export function auditObjectsLoader(scope: object, db: Db, accountId: string) {
  let byAccount = readers.get(scope);
  if (!byAccount) {
    byAccount = new Map();
    readers.set(scope, byAccount);
  }
  let reader = byAccount.get(accountId);
  if (!reader) {
    reader = auditObjectReader(db, accountId);
    byAccount.set(accountId, reader);
  }
  return reader;
}
