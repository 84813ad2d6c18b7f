/**
 * Builds the web app (src/web) with Vite into dist/web, after regenerating the gql.tada types
 * (src/web/graphql-env.d.ts) from schema/schema.graphql.
 *
 *   npx tsx scripts/build-web.ts             # always build
 *   npx tsx scripts/build-web.ts --if-stale  # only when a source is newer than dist/web/index.html
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = path.join(ROOT, 'src/web');
const OUT = path.join(ROOT, 'dist/web');
const SCHEMA = path.join(ROOT, 'schema/schema.graphql');
const TYPES = path.join(WEB, 'graphql-env.d.ts');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    if (p.includes(`${path.sep}node_modules${path.sep}`)) continue;
    newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist/web is missing or older than any web source, the schema or the lockfile. */
export function webBuildIsStale(): boolean {
  const index = path.join(OUT, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const inputs = [
    newestMtime(WEB),
    statSync(SCHEMA).mtimeMs,
    existsSync(path.join(ROOT, 'package-lock.json')) ? statSync(path.join(ROOT, 'package-lock.json')).mtimeMs : 0,
  ];
  return inputs.some((m) => m > built);
}

/** Regenerates the typed-GraphQL introspection when the schema is newer than it. */
export async function generateGraphqlTypes(force = false): Promise<void> {
  if (!force && existsSync(TYPES) && statSync(TYPES).mtimeMs >= statSync(SCHEMA).mtimeMs) return;
  const { generateOutput } = await import('@gql.tada/cli-utils');
  await generateOutput({
    output: TYPES,
    tsconfig: path.join(WEB, 'tsconfig.json'),
    disablePreprocessing: false,
    silent: true,
  });
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip -9) beside every text file of the build
 * worth it, so the server sends them as they are (src/http/web-app.ts) instead of compressing per
 * request. Source maps are left out: production never serves them.
 */
export async function precompress(dir: string): Promise<void> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const { promisify } = await import('node:util');
  const zlib = await import('node:zlib');
  const br = promisify(zlib.brotliCompress);
  const gz = promisify(zlib.gzip);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.(html|js|mjs|css|json|svg|txt|webmanifest)$/.test(e.name)) continue;
    const file = path.join(e.parentPath, e.name);
    const raw = await readFile(file);
    if (raw.length < 1024) continue;
    await writeFile(
      `${file}.br`,
      await br(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
    );
    await writeFile(`${file}.gz`, await gz(raw, { level: 9 }));
  }
}

export async function buildWeb(
  opts: { ifStale?: boolean; quiet?: boolean } = {},
): Promise<{ built: boolean; ms: number }> {
  const started = performance.now();
  if (opts.ifStale && !webBuildIsStale()) return { built: false, ms: 0 };
  await generateGraphqlTypes();
  const { build } = await import('vite');
  // Under vitest NODE_ENV is "test", which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(WEB, 'vite.config.ts'),
      root: WEB,
      mode: 'production',
      logLevel: opts.quiet ? 'warn' : 'info',
      build: { outDir: OUT, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  await precompress(OUT);
  return { built: true, ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  buildWeb({ ifStale })
    .then(({ built, ms }) => {
      console.log(
        built ? `web app built into dist/web in ${ms} ms` : 'web app is up to date (dist/web newer than its sources)',
      );
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
