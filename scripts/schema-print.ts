// `npm run schema:print`: writes the SDL that the web app's typed client and reviewers read.
// test/graphql/schema-printed.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from '../schema/graphql-js.ts';
import { schema } from '../schema/index.ts';

export const SCHEMA_FILE = path.resolve(import.meta.dirname, '..', 'schema', 'schema.graphql');

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
}
