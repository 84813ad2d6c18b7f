// Issue 16.4: no text from outside produces an internal error. Every text argument of the schema is
// found by walking the schema itself (new fields are covered without anyone listing them) and
// sent random strings with fast-check: NUL, lone surrogates, bidi overrides, 100k characters.
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from '../../schema/graphql-js.ts';
import { describe, expect } from '../support/harness.ts';
import { schema } from '../../schema/index.ts';
import { seedAccount as seedGql, type Browser, type Harness, test } from '../graphql/support.ts';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';
import { signedIn } from '../http/support.ts';

const TEXT = new Set(['String', 'ID', 'JSON']);
const hostile = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u202eevil\u202c', '\u200f\u2066x', 'x'.repeat(100_000)),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.tuple(fc.string(), fc.constantFrom('\u0000', '\ud83d', '\ude00'), fc.string()).map(([a, b, c]) => a + b + c),
);

/** A value of `type` where every text is `text` (other scalars get a harmless valid value). */
function valueFor(type: GraphQLInputType, text: string, depth = 0): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, text, depth);
  if (isListType(type)) return [valueFor(type.ofType, text, depth)];
  if (isEnumType(type))
    return type.getValues()[0]!.value === undefined ? type.getValues()[0]!.name : type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    if (depth > 3) return {};
    return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, valueFor(f.type, text, depth + 1)]));
  }
  if (isScalarType(type)) {
    if (TEXT.has(type.name)) return type.name === 'JSON' ? { text, [text]: [text] } : text;
    if (type.name === 'Int') return 1;
    if (type.name === 'Float') return 1;
    if (type.name === 'Boolean') return false;
    if (type.name === 'DateTime') return '2026-01-01T00:00:00Z';
  }
  return null;
}

function takesText(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (isScalarType(named)) return TEXT.has(named.name);
  if (isInputObjectType(named)) {
    if (seen.has(named.name)) return false;
    seen.add(named.name);
    return Object.values(named.getFields()).some((f) => takesText(f.type, seen));
  }
  return false;
}

interface Target {
  op: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
}

const targets: Target[] = [];
for (const [op, root] of [
  ['query', schema.getQueryType()],
  ['mutation', schema.getMutationType()],
] as const) {
  for (const field of Object.values(root!.getFields())) {
    if (field.args.some((a) => takesText(a.type))) targets.push({ op, field });
  }
}

function document(t: Target): string {
  const vars = t.field.args.map((a: GraphQLArgument) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = t.field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const named = getNamedType(t.field.type);
  const selection = isScalarType(named) || isEnumType(named) ? '' : '{ __typename }';
  return `${t.op} Fuzz${vars ? `(${vars})` : ''} { ${t.field.name}${args ? `(${args})` : ''} ${selection} }`;
}

let t: TestDb;
let h: Harness;
let owner: Browser;
test.beforeAll(async ({ db, gql }) => {
  t = db;
  h = gql;
  ({
    as: { owner },
  } = await seedGql(h, 'Fuzz'));
});

describe('every text argument of the schema, derived from the schema', () => {
  test('finds the text arguments (the walk itself works)', () => {
    expect(targets.length).toBeGreaterThan(20);
    expect(targets.map((x) => x.field.name)).toEqual(expect.arrayContaining(['calls', 'createAgent']));
  });

  test('never answers INTERNAL_SERVER_ERROR, and NUL or broken Unicode is invalid_text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hostile, async (target, text) => {
        const variables = Object.fromEntries(target.field.args.map((a) => [a.name, valueFor(a.type, text)]));
        const r = await owner.gql(document(target), variables);
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBeLessThan(500);
        const codes = (r.body.errors ?? []).map((e) => e.extensions?.code);
        expect(codes, `${target.field.name}: ${JSON.stringify(r.body).slice(0, 300)}`).not.toContain(
          'INTERNAL_SERVER_ERROR',
        );
        if (text.includes('\u0000') || !text.isWellFormed()) expect(codes).toContain('invalid_text');
      }),
      { numRuns: Math.max(150, targets.length * 4) },
    );
  }, 240_000);

  test('a NUL in an inline literal is refused the same way', async () => {
    const r = await owner.gql('{ calls(filter: { search: "a\\u0000b" }) { __typename } }');
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_text', field: 'search' });
  });
});

describe('REST text inputs', () => {
  let svc: TestService;
  let key: string;
  let cookie: Record<string, string>;
  test.beforeAll(async ({ service, seed }) => {
    svc = service;
    const a = await seed();
    key = a.key;
    cookie = (await signedIn(svc.app.db, a.account.id, 'owner')).headers();
  });

  for (const [param, value] of [
    ['search', 'a\u0000b'],
    ['topic', '\u0000'],
    ['language', 'e\u0000s'],
  ] as const) {
    test(`a NUL in the CSV export's ${param} answers 400 invalid_text before the download starts`, async () => {
      const res = await fetch(`${svc.url}/api/calls/export.csv?${new URLSearchParams({ [param]: value })}`, {
        headers: cookie,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_text', field: param } });
    });
  }

  test('a NUL in an intake field answers 400 invalid_text naming the field, and keeps nothing', async () => {
    const before = Number((await t.sql('SELECT count(*) AS n FROM calls'))[0].n);
    const r = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07', customer_name: 'Ana\u0000' },
      file: { blob: wavBlob(), name: 'call.wav' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_text', field: 'customer_name' });
    expect(Number((await t.sql('SELECT count(*) AS n FROM calls'))[0].n)).toBe(before);
    expect(svc.storedFiles()).toEqual([]);
  });
});
