// Migrates one template database per run; every test file clones it (CREATE DATABASE … TEMPLATE),
// which takes milliseconds and isolates files from each other, as graphile-worker's own tests do.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { localOrEmbeddedPostgres, withDatabase } from '../../src/db/embedded.ts';

export const TEMPLATE_DB = `escucha_template_${process.pid}`;

export default async function setup(project: TestProject) {
  // With no local server, a throwaway embedded one keeps the suite on real PostgreSQL.
  const server = await localOrEmbeddedPostgres(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    {
      tmpPrefix: 'escucha-testpg-',
      port: 55000 + (process.pid % 1000),
    },
  );
  const adminUrl = server.url;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
  await migrate(templateUrl);
  // A template database must have no open connections while it is cloned.
  await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [TEMPLATE_DB],
  );
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE_DB);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2',
      [`escucha_t_${process.pid}_%`, TEMPLATE_DB],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}
