import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { AppContext } from '../context.ts';
import { sendError } from './respond.ts';
import type { Handler } from './server.ts';

/** Where `npx tsx scripts/build-web.ts` (Vite) writes the web app. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Types worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest']);
/** Smaller files gain less than the encoding header costs. */
const MIN_COMPRESS_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (`br` over `gzip`), honouring `;q=0` refusals. */
export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** The build's precompressed siblings (`x.js.br`, `x.js.gz`, written by scripts/build-web.ts). */
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Compressed bodies made on the fly, when the build has no precompressed sibling (an older build, a
 * file copied in by hand): made once per file version (path, size, mtime), then kept. The build
 * has a few dozen files, so the cache is bounded by that; a size cap guards against anything odd.
 */
class CompressedCache {
  private entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}
  async get(file: string, version: string, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding}:${file}:${version}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const raw = await readFile(file);
    const body =
      encoding === 'br'
        ? await brotli(raw, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
          })
        : await gz(raw, { level: 9 });
    if (this.bytes + body.length > this.maxBytes) {
      this.entries.clear();
      this.bytes = 0;
    }
    this.entries.set(key, body);
    this.bytes += body.length;
    return body;
  }
}

/** Paths owned by the API: never answered with the app's index.html. */
const API_PREFIX = /^\/(api|graphql|v1)(\/|$)/;

/**
 * The web app's Content-Security-Policy: only the app's own files run, nothing inline (Vite emits
 * one module script and one stylesheet; React sets styles through the DOM, which CSP allows), no
 * eval, no plugins, no framing, no <base> hijack, forms post only here. `data:` images are the
 * stylesheet's inline SVG icons, which cannot run script as images.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': WEB_APP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Escucha — web app not built</title>
<style>body{font:15px/1.5 system-ui,sans-serif;color:#16181d;background:#f7f8fa;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #e4e6eb;border-radius:12px;padding:28px 32px;max-width:520px}
code{background:#f3f4f6;padding:2px 6px;border-radius:4px}h1{font-size:20px;margin:0 0 8px}</style></head>
<body><main><h1>web app not built: run npm run build:web</h1>
<p>The API is running, but <code>dist/web</code> has no build of the web app. Run <code>npm run build:web</code>
(or <code>npx tsx scripts/build-web.ts</code>) and reload this page.</p></main></body></html>`;

// The placeholder page's one <style> is allowed by its hash, so it too needs no 'unsafe-inline'.
const NOT_BUILT_STYLE = /<style>([\s\S]*?)<\/style>/.exec(NOT_BUILT)![1]!;
const NOT_BUILT_CSP = WEB_APP_CSP.replace(
  "style-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(NOT_BUILT_STYLE).digest('base64')}'`,
);

/**
 * Serves the built web app for every GET/HEAD no route claims: files under dist/web as they are
 * (hashed assets cached for a year), and index.html for any other path outside /api, /graphql and
 * /v1 so client-side routes such as /calls/<id> load the app. index.html is never cached, so a new
 * build is picked up on the next load. Without a build, a 503 page says how to make one.
 */
export function webAppFallback(
  app: AppContext,
  distDir: string = WEB_DIST_DIR,
  opts: { sourceMaps?: boolean } = {},
): Handler {
  const root = path.resolve(distDir);
  // Source maps give the app's whole source away: served for development and tests only.
  const sourceMaps = opts.sourceMaps ?? (app.config as AppContext['config'] | undefined)?.env !== 'production';
  const cache = new CompressedCache();

  /** Sends a file, compressed when the client accepts it and the type gains from it. */
  const sendFile = async (
    req: Parameters<Handler>[0],
    res: Parameters<Handler>[1],
    file: string,
    size: number,
    mtime: Date,
    headers: Record<string, string>,
  ) => {
    const ext = path.extname(file).toLowerCase();
    const compressible = COMPRESSIBLE.has(ext) && size >= MIN_COMPRESS_BYTES;
    const encoding = compressible ? pickEncoding(req.headers['accept-encoding']) : null;
    const base = {
      ...SECURITY_HEADERS,
      ...headers,
      'Last-Modified': mtime.toUTCString(),
      ...(compressible && { Vary: 'Accept-Encoding' }),
    };
    if (!encoding) {
      res.writeHead(200, { ...base, 'Content-Length': size });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
      return;
    }
    const sibling = `${file}${SUFFIX[encoding]}`;
    const pre = await stat(sibling).catch(() => null);
    if (pre?.isFile() && pre.mtimeMs >= mtime.getTime()) {
      res.writeHead(200, { ...base, 'Content-Encoding': encoding, 'Content-Length': pre.size });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(sibling)
        .on('error', () => res.destroy())
        .pipe(res);
      return;
    }
    const body = await cache.get(file, `${size}:${mtime.getTime()}`, encoding);
    res.writeHead(200, { ...base, 'Content-Encoding': encoding, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  return async (req, res, rc) => {
    const method = req.method ?? 'GET';
    const pathname = rc.url.pathname;
    if (API_PREFIX.test(pathname)) return sendError(res, 'not_found', `Nothing at ${pathname}.`);
    if (method !== 'GET' && method !== 'HEAD') return sendError(res, 'not_found', `Nothing at ${pathname}.`);

    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return sendError(res, 'bad_request', 'The address is malformed.');
    }
    // Static file, if the path names one inside the build (never outside it).
    const candidate = path.resolve(root, `.${path.posix.normalize(decoded)}`);
    if (candidate.startsWith(root + path.sep) && !decoded.endsWith('/')) {
      const ext = path.extname(candidate).toLowerCase();
      // Neither source maps in production nor the precompressed copies as files of their own.
      if ((ext === '.map' && !sourceMaps) || ext === '.br' || ext === '.gz')
        return sendError(res, 'not_found', `Nothing at ${pathname}.`);
      const info = await stat(candidate).catch(() => null);
      if (info?.isFile() && path.basename(candidate) !== 'index.html') {
        // Hashed names change with their content: cached for a year. Others (favicon) for an hour.
        const hashed = decoded.startsWith('/assets/');
        return sendFile(req, res, candidate, info.size, info.mtime, {
          'Content-Type': TYPES[ext] ?? 'application/octet-stream',
          'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        });
      }
      // A missing asset is a 404, not the app: a stale tab asking for an old chunk must not get HTML.
      if (decoded.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(decoded)) {
        if (!info) return sendError(res, 'not_found', `Nothing at ${pathname}.`);
      }
    }

    const index = path.join(root, 'index.html');
    const indexInfo = await stat(index).catch(() => null);
    if (!indexInfo?.isFile()) {
      app.log.warn({ distDir: root }, 'web app not built: run npm run build:web');
      res.writeHead(503, {
        ...SECURITY_HEADERS,
        'Content-Security-Policy': NOT_BUILT_CSP,
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': '30',
      });
      return void res.end(method === 'HEAD' ? undefined : NOT_BUILT);
    }
    return sendFile(req, res, index, indexInfo.size, indexInfo.mtime, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
  };
}
