// A database as it was just before one migration, recorded in _prisma_migrations the way migrate()
// records it, so a test can fill it with the data of that time and then run the real migrate().
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { withDatabase } from '../../src/db/embedded.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../prisma/migrations');

export interface DatabaseBefore {
  url: string;
  /** Connected to it; ended by `drop()`. */
  client: pg.Client;
  drop(): Promise<void>;
}

export async function databaseBefore(migration: string, adminUrl: string): Promise<DatabaseBefore> {
  const name = `escucha_t_mig_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = withDatabase(adminUrl, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TABLE _prisma_migrations (
      id varchar(36) PRIMARY KEY NOT NULL, checksum varchar(64) NOT NULL, finished_at timestamptz,
      migration_name varchar(255) NOT NULL, logs text, rolled_back_at timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(), applied_steps_count integer NOT NULL DEFAULT 0)`);
  for (const m of readdirSync(MIGRATIONS)
    .filter((d) => d < migration)
    .sort()) {
    const sql = readFileSync(path.join(MIGRATIONS, m, 'migration.sql'), 'utf8');
    await client.query(sql);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES (gen_random_uuid(), $1, $2, now(), 1)`,
      [createHash('sha256').update(sql).digest('hex'), m],
    );
  }
  return {
    url,
    client,
    async drop() {
      await client.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
