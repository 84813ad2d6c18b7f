// Migrates one template database per run; every test file clones it (CREATE DATABASE … TEMPLATE),
// which takes milliseconds and isolates files from each other, as graphile-worker's own tests do.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { loadEmbeddedPostgres } from '../../src/db/embedded.ts';

export const TEMPLATE_DB = `escucha_template_${process.pid}`;

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let embedded: InstanceType<Awaited<ReturnType<typeof loadEmbeddedPostgres>>> | undefined;
  let embeddedDir: string | undefined;
  if (!(await reachable(adminUrl))) {
    // No local server: run a throwaway embedded one so the suite still uses real PostgreSQL.
    embeddedDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-testpg-'));
    const port = 55000 + (process.pid % 1000);
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    embedded = new EmbeddedPostgres({
      databaseDir: embeddedDir, port, user: 'postgres', password: 'postgres', persistent: false,
      createPostgresUser: process.getuid?.() === 0, onLog: () => {}, onError: () => {},
    });
    await embedded.initialise();
    await embedded.start();
    adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
  await migrate(templateUrl);
  // A template database must have no open connections while it is cloned.
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [TEMPLATE_DB]);
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE_DB);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2",
      [`escucha_t_${process.pid}_%`, TEMPLATE_DB],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    await admin.end();
    if (embedded) await embedded.stop();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}
