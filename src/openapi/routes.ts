import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { Route } from '../http/server.ts';
import { openApiDocument } from './document.ts';

const REDOC = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('redoc'))),
  '..',
  'bundles',
  'redoc.standalone.js',
);

// Redoc (styled-components) writes its styles into <style> elements at run time, so styles need
// 'unsafe-inline'; scripts do not: the page has no inline script, only files from this origin.
const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const EMPTY_SVG = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Escucha intake API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="redoc"></div>
<script src="/v1/reference/redoc.standalone.js"></script>
<script src="/v1/reference/init.js"></script>
</body>
</html>
`;

const INIT = `Redoc.init('/v1/openapi.json', { hideDownloadButton: false, expandResponses: '200,201' }, document.getElementById('redoc'));\n`;

/** GET /v1/openapi.json (OpenAPI 3.1) and /v1/reference, the same document rendered by Redoc from npm. */
export function openApiRoutes(app: AppContext): Route[] {
  const document = JSON.stringify(openApiDocument(app.config.publicUrl));
  let bundle: Promise<Buffer> | null = null;
  const page = (type: string, body: string | Buffer, extra: Record<string, string> = {}) => ({
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  return [
    {
      method: 'GET',
      path: /^\/v1\/openapi\.json$/,
      name: 'GET /v1/openapi.json',
      handler: (_req, res) =>
        void res
          .writeHead(200, page('application/json; charset=utf-8', document, { 'Cache-Control': 'no-cache' }))
          .end(document),
    },
    {
      method: 'GET',
      path: /^\/v1\/reference\/?$/,
      name: 'GET /v1/reference',
      handler: (_req, res) =>
        void res
          .writeHead(
            200,
            page('text/html; charset=utf-8', PAGE, {
              'Content-Security-Policy': REFERENCE_CSP,
              'Cache-Control': 'no-cache',
            }),
          )
          .end(PAGE),
    },
    {
      method: 'GET',
      path: /^\/v1\/reference\/init\.js$/,
      name: 'GET /v1/reference/init.js',
      handler: (_req, res) => void res.writeHead(200, page('text/javascript; charset=utf-8', INIT)).end(INIT),
    },
    {
      method: 'GET',
      path: /^\/v1\/reference\/redoc\.standalone\.js$/,
      name: 'GET /v1/reference/redoc.standalone.js',
      handler: async (_req, res) => {
        // The bundle's one outside address, its "powered by" logo, becomes an empty image: the page
        // fetches nothing from a CDN (its CSP would block it anyway).
        bundle ??= readFile(REDOC, 'utf8').then((js) =>
          Buffer.from(js.replace('https://cdn.redoc.ly/redoc/logo-mini.svg', EMPTY_SVG)),
        );
        const body = await bundle.catch((err) => {
          bundle = null;
          throw err;
        });
        res
          .writeHead(200, page('text/javascript; charset=utf-8', body, { 'Cache-Control': 'public, max-age=86400' }))
          .end(body);
      },
    },
  ];
}
