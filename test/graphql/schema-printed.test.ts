import { readFileSync } from 'node:fs';
import { getNamedType, isObjectType } from '../../schema/graphql-js.ts';
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';
import { printedSchema, SCHEMA_FILE } from '../../scripts/schema-print.ts';

describe('schema/schema.graphql', () => {
  it('matches the schema built from schema/ (run `npm run schema:print` after changing a type)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });

  it('guards every root field with an auth scope, except the sign-in flow', () => {
    const publicFields = new Set(['Query.session', 'Mutation.signIn', 'Mutation.signOut', 'Mutation.acceptInvitation']);
    const unguarded: string[] = [];
    for (const root of [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!]) {
      for (const field of Object.values(root.getFields())) {
        const options = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions;
        if (!options?.authScopes && !publicFields.has(`${root.name}.${field.name}`))
          unguarded.push(`${root.name}.${field.name}`);
      }
    }
    expect(unguarded).toEqual([]);
  });

  it('never exposes secrets: no password hash, key hash, token hash or sealed webhook secret field', () => {
    const forbidden = /passwordHash|keyHash|tokenHash|secretEncrypted/i;
    const leaks: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const f of Object.values(type.getFields()))
        if (forbidden.test(f.name)) leaks.push(`${type.name}.${f.name}: ${getNamedType(f.type).name}`);
    }
    expect(leaks).toEqual([]);
  });
});
