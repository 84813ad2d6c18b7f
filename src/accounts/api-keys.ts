import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { type AuditBy, recordAuditBy } from './audit.ts';
import { notFound } from '../domain/errors.ts';

const KEY_PREFIX = 'esk_';

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
/** How keys are stored and looked up (and how the change feed names them). */
export const hashApiKey = hashKey;
/** Anything else is not a key of ours and needs no lookup. */
export const isApiKeyShaped = (key: string) => key.startsWith(KEY_PREFIX) && key.length <= 200;

/**
 * A key is `esk_` + 8 visible characters + 40 secret ones. Keys carry 240 bits of entropy, so a
 * plain SHA-256 is enough at rest (a slow hash protects guessable passwords, not random keys).
 */
export async function createApiKey(db: Db, accountId: string, name = 'API key', by: AuditBy = { system: 'cli' }) {
  const body = randomBytes(36).toString('base64url');
  const key = `${KEY_PREFIX}${body}`;
  const prefix = key.slice(0, KEY_PREFIX.length + 8);
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { accountId, name: name.trim() || 'API key', prefix, keyHash: hashKey(key) },
    });
    await recordAuditBy(tx, by, {
      accountId,
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: created.id,
      detail: { name: created.name, prefix },
    });
    return created;
  });
  return { apiKey: row, key };
}

/**
 * Revokes a key. `cache` is this process's key cache: it forgets the key before this returns, so
 * "revoked" holds at once here; other processes hear of it through the change feed a moment later.
 */
export async function revokeApiKey(
  db: Db,
  accountId: string,
  prefixOrId: string,
  cache?: { invalidate(hash?: string): void },
  by: AuditBy = { system: 'cli' },
) {
  const row = await db.apiKey.findFirst({
    where: { accountId, OR: [{ prefix: prefixOrId }, ...(isUuid(prefixOrId) ? [{ id: prefixOrId }] : [])] },
  });
  if (!row) throw notFound('API key');
  if (row.revokedAt) return row;
  const revoked = await db.$transaction(async (tx) => {
    // Conditional: of two concurrent revocations only one changes the row and is audited.
    const changed = await tx.apiKey.updateMany({
      where: { id: row.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (changed.count) {
      await recordAuditBy(tx, by, {
        accountId,
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: row.id,
        detail: { name: row.name, prefix: row.prefix },
      });
    }
    return tx.apiKey.findUniqueOrThrow({ where: { id: row.id } });
  });
  cache?.invalidate(row.keyHash);
  return revoked;
}

export interface AuthenticatedKey {
  accountId: string;
  keyId: string;
}

/** Resolves a bearer key to its account; null for unknown or revoked keys. */
export async function authenticateApiKey(db: Db, key: string): Promise<AuthenticatedKey | null> {
  if (!isApiKeyShaped(key)) return null;
  const row = await db.apiKey.findUnique({
    where: { keyHash: hashKey(key) },
    select: { id: true, accountId: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  // last_used_at is shown to a minute's precision; skipping fresher writes keeps intake off one hot row.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { accountId: row.accountId, keyId: row.id };
}

export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}
