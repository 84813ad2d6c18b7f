import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';

const migrationsDir = path.resolve(import.meta.dirname, '../../prisma/migrations');

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies prisma/migrations/* in order and records them in `_prisma_migrations` exactly as
 * `prisma migrate deploy` would (that command needs an engine that cannot be fetched here),
 * then installs graphile-worker's own schema. Safe to run from several processes at once.
 */
export async function migrate(connectionString: string): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const applied: string[] = [];
  let alreadyApplied = 0;
  try {
    await client.query('SELECT pg_advisory_lock(7413001)');
    await client.query(`
      CREATE TABLE IF NOT EXISTS _prisma_migrations (
        id varchar(36) PRIMARY KEY NOT NULL,
        checksum varchar(64) NOT NULL,
        finished_at timestamptz,
        migration_name varchar(255) NOT NULL,
        logs text,
        rolled_back_at timestamptz,
        started_at timestamptz NOT NULL DEFAULT now(),
        applied_steps_count integer NOT NULL DEFAULT 0
      )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    for (const name of listMigrations()) {
      const sql = readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = done.get(name);
      if (previous?.finished_at) {
        if (previous.checksum !== checksum) {
          throw new Error(`Migration ${name} was changed after it was applied; add a new migration instead.`);
        }
        alreadyApplied++;
        continue;
      }
      if (previous)
        throw new Error(`Migration ${name} failed earlier and needs manual repair (see _prisma_migrations).`);
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, checksum, name],
        );
        await client.query(sql);
        await client.query('UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
          id,
        ]);
        await client.query('COMMIT');
        applied.push(name);
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
    }
    // Our own pool, ended here: graphile-worker's would outlive the call, and an idle client killed
    // later (a database drop, a restart) would raise an unhandled 'error' that ends the process.
    const pool = new pg.Pool({ connectionString, max: 1 });
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    try {
      await runWorkerMigrations({ pgPool: pool });
    } finally {
      await pool.end();
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7413001)').catch(() => {});
    await client.end();
  }
  return { applied, alreadyApplied };
}

function listMigrations(): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(migrationsDir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
}
