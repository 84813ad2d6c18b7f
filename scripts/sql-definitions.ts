// `npm run db:definitions`: migrates a scratch database on the local server (TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres) and writes the current SQL functions and triggers to
// prisma/sql/definitions.sql.
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { migrate } from '../src/db/migrate.ts';
import { sqlDefinitions } from '../src/db/sql-definitions.ts';

const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `escucha_definitions_${process.pid}`;
const a = new pg.Client({ connectionString: admin });
await a.connect();
await a.query(`CREATE DATABASE ${name}`);
try {
  const u = new URL(admin);
  u.pathname = `/${name}`;
  await migrate(u.toString());
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  writeFileSync(new URL('../prisma/sql/definitions.sql', import.meta.url), await sqlDefinitions(c));
  await c.end();
  console.log('wrote prisma/sql/definitions.sql');
} finally {
  await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await a.end();
}
