import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';

export interface TestDb {
  url: string;
  db: Db;
  /** Runs SQL directly, for assertions that should not go through the code under test. */
  sql<T extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, migrated database cloned from the run's template; one per test file. */
export async function createTestDb(): Promise<TestDb> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = inject('templateDatabase');
  const name = `escucha_t_${template.split('_').pop()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = createDb(url, { max: 20 });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    url,
    db,
    sql: async (text, params) => (await pool.query(text, params as any[])).rows,
    drop: async () => {
      await db.$disconnect();
      await pool.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      // $disconnect starts ending the pool's clients without waiting for their sockets; a FORCE drop
      // that terminates one still ending makes that client emit an error nobody listens to any more
      // (an unhandled error in whatever file runs next). So wait, briefly, for the file's connections
      // to go; FORCE remains for a connection some test leaked.
      for (let i = 0; i < 100; i++) {
        const [open] = (
          await a.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])
        ).rows;
        if (!open?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
