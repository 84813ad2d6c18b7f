import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.ts';

/**
 * One APP_SECRET for every process of an installation (issue 25.2). The database keeps a key-check
 * value — an HMAC of a fixed label under a key derived from APP_SECRET, which says nothing about the
 * secret — recorded by the first process that starts with one. A process (service or CLI) whose
 * APP_SECRET gives another value would seal webhook secrets no other process can open, so it
 * refuses to start instead.
 */

const LABEL = 'escucha/app-key-check/v1';

export function keyCheckValue(appSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', appSecret, '', LABEL, 32));
  return `v1.${createHmac('sha256', key).update(LABEL).digest('base64url')}`;
}

/** What to tell an operator whose APP_SECRET is not the database's (one line). */
export const APP_SECRET_MISMATCH =
  "APP_SECRET is not the one this database's webhook secrets are sealed with: run with the service's APP_SECRET (when it is not set, outside production, it is read from DATA_DIR/app-secret, so set DATA_DIR to the service's folder).";

/**
 * Records this secret's key-check value if the database has none yet, and says whether the
 * database's value is this secret's (one statement: two processes starting together record one).
 */
export async function appSecretMatches(db: Db, appSecret: string): Promise<boolean> {
  const mine = keyCheckValue(appSecret);
  const record = () => db.$queryRaw<{ value: string }[]>`
    WITH recorded AS (
      INSERT INTO app_key_check (value) VALUES (${mine}) ON CONFLICT (id) DO NOTHING RETURNING value
    )
    SELECT value FROM recorded
    UNION ALL
    SELECT value FROM app_key_check WHERE NOT EXISTS (SELECT 1 FROM recorded)`;
  let [row] = await record();
  // Two processes starting together: the second's insert waits for the first's to commit and then
  // conflicts, but its SELECT reads the statement's snapshot, taken before that commit, and finds no
  // row. A second statement sees the committed value (seen as a worker refusing to start beside
  // three others in the multi-process test).
  if (!row) [row] = await record();
  if (!row) return false;
  const a = Buffer.from(row.value);
  const b = Buffer.from(mine);
  return a.length === b.length && timingSafeEqual(a, b);
}
