import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { sendError, sendJson } from '../http/respond.ts';
import type { Route } from '../http/server.ts';
import { checkReadiness, readinessChecks } from './readiness.ts';

/** GET /healthz (the process answers), /readyz (it can do its work), /metrics (Prometheus). */
export function opsRoutes(app: AppContext): Route[] {
  const checks = readinessChecks(app);
  return [
    {
      method: 'GET',
      path: /^\/healthz$/,
      name: 'GET /healthz',
      handler: (_req, res) =>
        void res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('ok'),
    },
    {
      method: 'GET',
      path: /^\/readyz$/,
      name: 'GET /readyz',
      handler: async (_req, res) => {
        const { ready, checks: results } = await checkReadiness(checks);
        sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks: results });
      },
    },
    {
      method: 'GET',
      path: /^\/metrics$/,
      name: 'GET /metrics',
      handler: async (req, res) => {
        const token = app.config.metricsToken;
        if (token && !sameToken(/^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1], token)) {
          return sendError(res, 'unauthorized', 'Send METRICS_TOKEN as `Authorization: Bearer <token>`.', {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          });
        }
        const registry = app.metrics?.registry;
        if (!registry) return sendError(res, 'not_found', 'Metrics are not collected by this process.');
        const body = await registry.metrics();
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(body);
      },
    },
  ];
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
