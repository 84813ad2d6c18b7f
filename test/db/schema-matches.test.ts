// Proves the hand-written SQL migrations produce exactly the database prisma/schema.prisma describes,
// without Prisma's schema engine (it cannot be fetched offline). The schema is read through the
// DMMF of Prisma's own schema parser (the prisma-schema wasm module the `prisma` CLI bundles) and
// compared with pg_catalog / information_schema of a freshly migrated database: tables, columns
// (type, nullability, default), enums, primary keys, unique and plain indexes (columns, method,
// name), foreign keys (columns, target, referential actions), and nothing extra.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';

const SCHEMA_FILE = path.resolve(import.meta.dirname, '../../prisma/schema.prisma');
/** Tables the migration tooling owns, not the data model. */
const TOOL_TABLES = new Set(['_prisma_migrations']);
/**
 * Indexes Prisma's schema language cannot say (partial ones), each named in a comment of
 * schema.prisma and made by a migration: the database must have exactly this definition.
 */
const SQL_ONLY_INDEXES: Record<string, { table: string; definition: string }> = {
  calls_account_id_status_searchable_idx: {
    table: 'calls',
    definition:
      "CREATE INDEX calls_account_id_status_searchable_idx ON public.calls USING btree (account_id, status) WHERE (search_vector <> ''::tsvector)",
  },
};

// ---------------------------------------------------------------------------------------------
// DMMF
// ---------------------------------------------------------------------------------------------

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  isList: boolean;
  isRequired: boolean;
  isUpdatedAt: boolean;
  hasDefaultValue: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: unknown;
  relationName?: string;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  schema?: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  algorithm?: string;
  fields: { name: string; sortOrder?: 'asc' | 'desc' }[];
}
interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName?: string | null }[];
}
interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

/**
 * Runs `get_dmmf` of the prisma-schema wasm module shipped inside the `prisma` CLI package, with a
 * minimal wasm-bindgen glue (the CLI bundles the module's JS glue, so it cannot be imported).
 */
function dmmfFromBundledWasm(schema: string): Datamodel {
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(
    path.dirname(require.resolve('prisma/package.json')),
    'build',
    'prisma_schema_build_bg.wasm',
  );
  if (!existsSync(wasmPath)) throw new Error(`prisma-schema wasm not found at ${wasmPath}`);
  let ex: any;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const bytes = () => new Uint8Array(ex.memory.buffer as ArrayBuffer);
  const str = (ptr: number, len: number) => decoder.decode(bytes().subarray(ptr >>> 0, (ptr >>> 0) + len));
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
  let panic = '';
  g.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (m: string) => {
      panic = m;
    },
  };
  // Import names carry wasm-bindgen hashes: bind by prefix so a CLI upgrade does not break this.
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const impl: Record<string, (...a: number[]) => unknown> = {
    __wbg_set_message: (p, l) => g.PRISMA_WASM_PANIC_REGISTRY!.set_message(str(p!, l!)),
    __wbg_Error: (p, l) => new Error(str(p!, l!)),
    __wbg___wbindgen_throw: (p, l) => {
      throw new Error(str(p!, l!));
    },
    __wbindgen_init_externref_table: () => {
      const t = ex.__wbindgen_externrefs as WebAssembly.Table;
      const o = t.grow(4);
      t.set(0, undefined);
      t.set(o, undefined);
      t.set(o + 1, null);
      t.set(o + 2, true);
      t.set(o + 3, false);
    },
  };
  const imports: Record<string, Record<string, unknown>> = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    const key = Object.keys(impl).find((k) => imp.name === k || imp.name.startsWith(`${k}_`));
    if (!key) throw new Error(`prisma-schema wasm needs an import this glue lacks: ${imp.module}.${imp.name}`);
    imports[imp.module] ??= {};
    imports[imp.module]![imp.name] = impl[key];
  }
  ex = new WebAssembly.Instance(module, imports as WebAssembly.Imports).exports;
  ex.__wbindgen_start();

  const input = new TextEncoder().encode(JSON.stringify({ prismaSchema: [['schema.prisma', schema]], noColor: true }));
  const ptr = ex.__wbindgen_malloc(input.length, 1) >>> 0;
  bytes().set(input, ptr);
  let out: [number, number, number, number];
  try {
    out = ex.get_dmmf(ptr, input.length);
  } catch (error) {
    throw new Error(`get_dmmf panicked: ${panic || (error as Error).message}`);
  }
  if (out[3]) {
    const err = (ex.__wbindgen_externrefs as WebAssembly.Table).get(out[2]);
    ex.__externref_table_dealloc(out[2]);
    throw new Error(`prisma/schema.prisma does not validate: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return (JSON.parse(str(out[0], out[1])) as { datamodel: Datamodel }).datamodel;
  } finally {
    ex.__wbindgen_free(out[0], out[1], 1);
  }
}

async function loadDatamodel(schema: string): Promise<Datamodel> {
  // @prisma/internals is the supported API when a project has it; this one does not (it is bundled
  // into the CLI), so the wasm path is the usual one.
  const internals = '@prisma/internals';
  try {
    const mod: any = await import(/* @vite-ignore */ internals);
    if (typeof mod.getDMMF === 'function') return (await mod.getDMMF({ datamodel: schema })).datamodel as Datamodel;
  } catch {
    // not installed
  }
  return dmmfFromBundledWasm(schema);
}

/**
 * The DMMF leaves `Unsupported("…")` fields out of `fields` (though @@index may name them), so
 * they are read from the schema text: model → field → { column, type, optional }.
 */
function unsupportedFields(
  schema: string,
): Map<string, Map<string, { column: string; dbType: string; optional: boolean }>> {
  const result = new Map<string, Map<string, { column: string; dbType: string; optional: boolean }>>();
  const noComments = schema.replace(/\/\/.*$/gm, '');
  for (const m of noComments.matchAll(/^\s*model\s+(\w+)\s*\{([\s\S]*?)^\s*\}/gm)) {
    const fields = new Map<string, { column: string; dbType: string; optional: boolean }>();
    for (const f of m[2]!.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?([^\n]*)$/gm)) {
      const column = /@map\("([^"]+)"\)/.exec(f[4]!)?.[1] ?? f[1]!;
      fields.set(f[1]!, { column, dbType: f[2]!, optional: f[3] === '?' });
    }
    result.set(m[1]!, fields);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Database catalog
// ---------------------------------------------------------------------------------------------

interface DbColumn {
  table: string;
  column: string;
  nullable: boolean;
  dataType: string;
  udt: string;
  precision: number | null;
  charLength: number | null;
  default: string | null;
  identity: boolean;
  generated: boolean;
}
interface DbIndex {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  method: string;
  columns: string[];
  partial: boolean;
  definition: string;
}
interface DbForeignKey {
  table: string;
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string;
  onUpdate: string;
}

async function readCatalog(t: TestDb) {
  const tables = (
    await t.sql<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    )
  ).map((r) => r.name);
  const columns = await t.sql<DbColumn>(`
    SELECT table_name AS "table", column_name AS "column", is_nullable = 'YES' AS nullable, data_type AS "dataType",
           udt_name AS udt, datetime_precision AS "precision", character_maximum_length AS "charLength",
           column_default AS "default", is_identity = 'YES' AS identity, is_generated = 'ALWAYS' AS generated
      FROM information_schema.columns WHERE table_schema = 'public'`);
  const indexes = await t.sql<DbIndex>(`
    SELECT t.relname AS "table", i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary, am.amname AS method,
           x.indpred IS NOT NULL AS partial, pg_get_indexdef(x.indexrelid) AS definition,
           array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_am am ON am.oid = i.relam
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public'`);
  const foreignKeys = await t.sql<DbForeignKey>(`
    SELECT t.relname AS "table", c.conname AS name, r.relname AS "refTable",
           array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
           array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS "refColumns",
           c.confdeltype AS "onDelete", c.confupdtype AS "onUpdate"
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_class r ON r.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE c.contype = 'f' AND n.nspname = 'public'`);
  const enumRows = await t.sql<{ name: string; values: string[] }>(`
    SELECT ty.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
      FROM pg_type ty JOIN pg_enum e ON e.enumtypid = ty.oid JOIN pg_namespace n ON n.oid = ty.typnamespace
     WHERE n.nspname = 'public' GROUP BY ty.typname`);
  return { tables, columns, indexes, foreignKeys, enums: new Map(enumRows.map((r) => [r.name, r.values])) };
}

// ---------------------------------------------------------------------------------------------
// Expectations derived from the DMMF
// ---------------------------------------------------------------------------------------------

const tableOf = (m: DmmfModel) => m.dbName ?? m.name;
const columnOf = (f: DmmfField) => f.dbName ?? f.name;

/** pg's confdeltype/confupdtype letters for Prisma's referential actions. NoAction ≈ Restrict. */
const ACTION: Record<string, string[]> = {
  Cascade: ['c'],
  SetNull: ['n'],
  SetDefault: ['d'],
  Restrict: ['r', 'a'],
  NoAction: ['a', 'r'],
};
const ACTION_NAME: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** Describes what a scalar/enum field needs of its column; returns a problem or null. */
function typeProblem(f: DmmfField, c: DbColumn, enums: Map<string, DmmfEnum>): string | null {
  const got = describeColumn(c);
  if (f.isList) {
    if (c.dataType !== 'ARRAY') return `expected an array column for ${f.type}[], found ${got}`;
    return null;
  }
  if (f.kind === 'enum') {
    const e = enums.get(f.type);
    const typeName = e?.dbName ?? f.type;
    return c.dataType === 'USER-DEFINED' && c.udt === typeName
      ? null
      : `expected enum type "${typeName}", found ${got}`;
  }
  const native = f.nativeType;
  if (native) {
    const [name, args] = native;
    const arg = args[0] !== undefined ? Number(args[0]) : undefined;
    const want: Record<string, (c: DbColumn) => boolean> = {
      Uuid: (c) => c.dataType === 'uuid',
      Text: (c) => c.dataType === 'text',
      VarChar: (c) => c.dataType === 'character varying' && (arg === undefined || c.charLength === arg),
      Char: (c) => c.dataType === 'character' && (arg === undefined || c.charLength === arg),
      Timestamptz: (c) => c.dataType === 'timestamp with time zone' && c.precision === (arg ?? 6),
      Timestamp: (c) => c.dataType === 'timestamp without time zone' && c.precision === (arg ?? 6),
      Date: (c) => c.dataType === 'date',
      Integer: (c) => c.dataType === 'integer',
      SmallInt: (c) => c.dataType === 'smallint',
      BigInt: (c) => c.dataType === 'bigint',
      DoublePrecision: (c) => c.dataType === 'double precision',
      Real: (c) => c.dataType === 'real',
      Boolean: (c) => c.dataType === 'boolean',
      JsonB: (c) => c.dataType === 'jsonb',
      Json: (c) => c.dataType === 'json',
      ByteA: (c) => c.dataType === 'bytea',
      Inet: (c) => c.dataType === 'inet',
    };
    const check = want[name];
    if (!check) return `@db.${name} is not handled by this test; extend its type table`;
    return check(c) ? null : `expected @db.${name}${args.length ? `(${args.join(', ')})` : ''}, found ${got}`;
  }
  const byScalar: Record<string, [string, (c: DbColumn) => boolean]> = {
    String: ['text or varchar', (c) => c.dataType === 'text' || c.dataType === 'character varying'],
    Int: ['integer', (c) => c.dataType === 'integer'],
    BigInt: ['bigint', (c) => c.dataType === 'bigint'],
    Float: ['double precision', (c) => c.dataType === 'double precision'],
    Decimal: ['numeric', (c) => c.dataType === 'numeric'],
    Boolean: ['boolean', (c) => c.dataType === 'boolean'],
    DateTime: [
      'timestamp(3) with or without time zone',
      (c) => /^timestamp with(out)? time zone$/.test(c.dataType) && c.precision === 3,
    ],
    Json: ['jsonb', (c) => c.dataType === 'jsonb'],
    Bytes: ['bytea', (c) => c.dataType === 'bytea'],
  };
  const rule = byScalar[f.type];
  if (!rule) return `scalar type ${f.type} is not handled by this test; extend its type table`;
  return rule[1](c) ? null : `expected ${rule[0]} for ${f.type}, found ${got}`;
}

function describeColumn(c: DbColumn): string {
  if (c.dataType === 'USER-DEFINED') return `"${c.udt}"`;
  if (c.dataType.startsWith('timestamp')) return `${c.dataType} (precision ${c.precision})`;
  if (c.charLength !== null) return `${c.dataType}(${c.charLength})`;
  return c.dataType;
}

/** Literal a column default holds, without casts: `'UTC'::text` → UTC, `1000` → 1000. */
function literalOf(expr: string): string {
  let s = expr.trim();
  for (;;) {
    const cast = /^(.*)::[\w" ]+(\(\d+(,\s*\d+)?\))?(\[\])?$/s.exec(s);
    if (!cast) break;
    s = cast[1]!.trim();
  }
  if (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1).trim();
  const quoted = /^'(.*)'$/s.exec(s);
  return quoted ? quoted[1]!.replace(/''/g, "'") : s;
}

/** Compares the schema's @default with the column's default; client-side defaults (uuid(), cuid()) need none. */
function defaultProblem(f: DmmfField, c: DbColumn): string | null {
  const d = f.default;
  const has = c.default !== null || c.identity;
  if (d === undefined)
    return has && !c.generated
      ? `has a database default (${c.default ?? 'identity'}) the schema does not declare`
      : null;
  if (d && typeof d === 'object' && !Array.isArray(d) && 'name' in d) {
    const fn = (d as { name: string }).name;
    if (fn === 'uuid' || fn === 'cuid' || fn === 'nanoid' || fn === 'ulid') {
      return has
        ? `schema generates @default(${fn}()) in the client, but the column has a database default (${c.default})`
        : null;
    }
    if (fn === 'autoincrement')
      return c.identity || /^nextval\(/.test(c.default ?? '')
        ? null
        : `expected a sequence default (autoincrement()), found ${c.default ?? 'none'}`;
    if (fn === 'now')
      return /^(CURRENT_TIMESTAMP|now\(\))/i.test(c.default ?? '')
        ? null
        : `expected DEFAULT CURRENT_TIMESTAMP (now()), found ${c.default ?? 'none'}`;
    if (fn === 'dbgenerated') return has ? null : 'expected a database default (dbgenerated()), found none';
    return `@default(${fn}()) is not handled by this test`;
  }
  if (c.default === null) return `expected DEFAULT ${JSON.stringify(d)}, found none`;
  const want = Array.isArray(d) ? null : String(d);
  if (want === null) return null;
  return literalOf(c.default) === want ? null : `expected DEFAULT ${JSON.stringify(d)}, found ${c.default}`;
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

const schemaText = readFileSync(SCHEMA_FILE, 'utf8');
const dm = await loadDatamodel(schemaText);
const unsupported = unsupportedFields(schemaText);
const enumsByName = new Map(dm.enums.map((e) => [e.name, e]));
const modelsByName = new Map(dm.models.map((m) => [m.name, m]));

let t: TestDb;
let cat: Awaited<ReturnType<typeof readCatalog>>;
test.beforeAll(async ({ db }) => {
  t = db;
  cat = await readCatalog(t);
});

/** Fails with every problem spelled out (vitest would abbreviate a long array diff). */
function expectNone(problems: string[]): void {
  if (problems.length)
    expect.fail(
      `${problems.length} mismatch(es) between prisma/schema.prisma and the migrations:\n  - ${problems.join('\n  - ')}`,
    );
}

/** Column name of a model field, including Unsupported ones the DMMF leaves out. */
function columnName(model: DmmfModel, field: string): string {
  const f = model.fields.find((x) => x.name === field);
  if (f) return columnOf(f);
  const u = unsupported.get(model.name)?.get(field);
  if (u) return u.column;
  throw new Error(`model ${model.name} has no field ${field}`);
}

/** Prisma's default constraint/index names, which `prisma migrate` would create and diff against. */
function defaultName(table: string, columns: string[], suffix: 'pkey' | 'key' | 'idx' | 'fkey'): string {
  return suffix === 'pkey' ? `${table}_pkey` : `${table}_${columns.join('_')}_${suffix}`;
}

describe('prisma/schema.prisma matches the migrated database', () => {
  test('reads the schema through the Prisma DMMF', () => {
    expect(dm.models.length).toBeGreaterThan(0);
  });

  test("has exactly the schema's tables in `public` (plus _prisma_migrations)", () => {
    const expected = new Set(dm.models.map(tableOf));
    const missing = [...expected]
      .filter((n) => !cat.tables.includes(n))
      .map((n) => `table "${n}" (model ${dm.models.find((m) => tableOf(m) === n)!.name}) is missing`);
    const extra = cat.tables
      .filter((n) => !expected.has(n) && !TOOL_TABLES.has(n))
      .map((n) => `table "${n}" exists in the database but no model maps to it`);
    expectNone([...missing, ...extra]);
  });

  test('has every enum with the same values in the same order, and no others', () => {
    const problems: string[] = [];
    for (const e of dm.enums) {
      const name = e.dbName ?? e.name;
      const values = cat.enums.get(name);
      const want = e.values.map((v) => v.dbName ?? v.name);
      if (!values) problems.push(`enum type "${name}" is missing`);
      else if (JSON.stringify(values) !== JSON.stringify(want))
        problems.push(`enum type "${name}": expected (${want.join(', ')}), found (${values.join(', ')})`);
    }
    const known = new Set(dm.enums.map((e) => e.dbName ?? e.name));
    for (const name of cat.enums.keys())
      if (!known.has(name)) problems.push(`enum type "${name}" exists in the database but not in the schema`);
    expectNone(problems);
  });

  describe.each(dm.models.map((m) => [m.name, m] as const))('model %s', (_name, model) => {
    const table = tableOf(model);

    test('has every column with a compatible type, nullability and default, and no others', () => {
      const cols = new Map(cat.columns.filter((c) => c.table === table).map((c) => [c.column, c]));
      if (cols.size === 0) return expect.fail(`table "${table}" is missing`);
      const problems: string[] = [];
      const expected = new Set<string>();
      for (const f of model.fields) {
        if (f.kind === 'object') continue;
        const name = columnOf(f);
        expected.add(name);
        const c = cols.get(name);
        if (!c) {
          problems.push(`${table}.${name} (field ${model.name}.${f.name}) is missing`);
          continue;
        }
        if (c.nullable === f.isRequired)
          problems.push(
            `${table}.${name}: expected ${f.isRequired ? 'NOT NULL' : 'nullable'}, found ${c.nullable ? 'nullable' : 'NOT NULL'}`,
          );
        const type = typeProblem(f, c, enumsByName);
        if (type) problems.push(`${table}.${name}: ${type}`);
        const def = defaultProblem(f, c);
        if (def) problems.push(`${table}.${name}: ${def}`);
      }
      for (const [field, u] of unsupported.get(model.name) ?? []) {
        expected.add(u.column);
        const c = cols.get(u.column);
        if (!c) {
          problems.push(`${table}.${u.column} (field ${model.name}.${field}, Unsupported("${u.dbType}")) is missing`);
          continue;
        }
        if (c.nullable !== u.optional)
          problems.push(
            `${table}.${u.column}: expected ${u.optional ? 'nullable' : 'NOT NULL'}, found ${c.nullable ? 'nullable' : 'NOT NULL'}`,
          );
        if (c.udt !== u.dbType) problems.push(`${table}.${u.column}: expected ${u.dbType}, found ${describeColumn(c)}`);
      }
      for (const name of cols.keys())
        if (!expected.has(name))
          problems.push(`${table}.${name} exists in the database but no field of ${model.name} maps to it`);
      expectNone(problems);
    });

    test('has the primary key, unique constraints and indexes of the schema, and no others', () => {
      const dbIndexes = cat.indexes.filter((i) => i.table === table);
      const problems: string[] = [];
      const matched = new Set<string>();
      for (const idx of dm.indexes.filter((i) => i.model === model.name)) {
        const columns = idx.fields.map((f) => columnName(model, f.name));
        const kind = idx.type === 'id' ? 'primary key' : idx.type === 'unique' ? 'unique index' : 'index';
        const label = `${kind} on ${table} (${columns.join(', ')})`;
        const candidates = dbIndexes.filter(
          (d) => JSON.stringify(d.columns) === JSON.stringify(columns) && !d.partial && !matched.has(d.name),
        );
        const found =
          idx.type === 'id'
            ? candidates.find((d) => d.primary)
            : idx.type === 'unique'
              ? candidates.find((d) => d.unique && !d.primary)
              : (candidates.find((d) => !d.unique) ?? candidates.find((d) => !d.primary));
        if (!found) {
          const near = candidates.map((d) => `${d.name}${d.primary ? ' (primary)' : d.unique ? ' (unique)' : ''}`);
          problems.push(`${label} is missing${near.length ? `; found only ${near.join(', ')}` : ''}`);
          continue;
        }
        matched.add(found.name);
        const method = (idx.algorithm ?? 'BTree').toLowerCase();
        if (found.method !== method)
          problems.push(`${label}: expected USING ${method}, found ${found.method} (${found.name})`);
        const name =
          idx.dbName ?? defaultName(table, columns, idx.type === 'id' ? 'pkey' : idx.type === 'unique' ? 'key' : 'idx');
        if (name.length <= 63 && found.name !== name)
          problems.push(`${label}: expected the name "${name}" Prisma gives it, found "${found.name}"`);
      }
      for (const [name, want] of Object.entries(SQL_ONLY_INDEXES)) {
        if (want.table !== table) continue;
        const d = dbIndexes.find((i) => i.name === name);
        if (d?.definition !== want.definition)
          problems.push(`index "${name}" (in SQL only) should be ${want.definition}; found ${d?.definition ?? 'none'}`);
        else matched.add(name);
        if (!readFileSync(SCHEMA_FILE, 'utf8').includes(name))
          problems.push(`index "${name}" (in SQL only) is not named in a comment of schema.prisma`);
      }
      for (const d of dbIndexes) {
        if (!matched.has(d.name))
          problems.push(
            `index "${d.name}" on ${table} (${d.columns.join(', ')}) exists in the database but not in the schema`,
          );
      }
      expectNone(problems);
    });

    test('has a foreign key for every relation it owns, with its referential actions, and no others', () => {
      const dbFks = cat.foreignKeys.filter((f) => f.table === table);
      const problems: string[] = [];
      const matched = new Set<string>();
      for (const f of model.fields) {
        if (f.kind !== 'object' || !f.relationFromFields?.length) continue;
        const target = modelsByName.get(f.type)!;
        const columns = f.relationFromFields.map((n) => columnName(model, n));
        const refTable = tableOf(target);
        const refColumns = (f.relationToFields ?? []).map((n) => columnName(target, n));
        const label = `foreign key ${table} (${columns.join(', ')}) → ${refTable} (${refColumns.join(', ')}) for ${model.name}.${f.name}`;
        const fk = dbFks.find(
          (d) =>
            JSON.stringify(d.columns) === JSON.stringify(columns) &&
            d.refTable === refTable &&
            JSON.stringify(d.refColumns) === JSON.stringify(refColumns),
        );
        if (!fk) {
          problems.push(`${label} is missing`);
          continue;
        }
        matched.add(fk.name);
        // Prisma's defaults: Restrict when the relation is required, SetNull when optional; updates cascade.
        const onDelete = f.relationOnDelete ?? (f.isRequired ? 'Restrict' : 'SetNull');
        const onUpdate = f.relationOnUpdate ?? 'Cascade';
        if (!ACTION[onDelete]?.includes(fk.onDelete))
          problems.push(`${label}: expected onDelete ${onDelete}, found ON DELETE ${ACTION_NAME[fk.onDelete]}`);
        if (!ACTION[onUpdate]?.includes(fk.onUpdate))
          problems.push(`${label}: expected onUpdate ${onUpdate}, found ON UPDATE ${ACTION_NAME[fk.onUpdate]}`);
        const name = defaultName(table, columns, 'fkey');
        if (name.length <= 63 && fk.name !== name)
          problems.push(`${label}: expected the name "${name}" Prisma gives it, found "${fk.name}"`);
      }
      for (const d of dbFks) {
        if (!matched.has(d.name))
          problems.push(
            `foreign key "${d.name}" ${table} (${d.columns.join(', ')}) → ${d.refTable} exists in the database but no relation declares it`,
          );
      }
      expectNone(problems);
    });
  });
});
