import type { Route } from '../http/server.ts';
import { sendJson } from '../http/respond.ts';
import { webhookJsonSchema } from './kit/events.ts';

/**
 * GET /v1/webhooks/schema.json: the JSON Schema of every webhook event, public (it describes the
 * contract, no data), generated from the same zod definition the sender checks its payloads with.
 */
export function webhookRoutes(): Route[] {
  const body = webhookJsonSchema();
  return [
    {
      method: 'GET',
      path: /^\/v1\/webhooks\/schema\.json$/,
      handler: (_req, res) => sendJson(res, 200, body, { 'Cache-Control': 'public, max-age=3600' }),
    },
  ];
}
