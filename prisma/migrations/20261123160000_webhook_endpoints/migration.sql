-- Issue 17: several endpoints per account, secret rotation with overlap, event subscriptions,
-- campaign filters, automatic disabling, kept response headers and bulk replay.
-- The account's existing endpoint stays as it is and becomes the first of its list: it keeps its
-- URL, secret and state, and subscribes to call.analyzed only, which is all it received before.

DROP INDEX webhook_endpoints_account_id_key;
CREATE INDEX webhook_endpoints_account_id_created_at_idx ON webhook_endpoints (account_id, created_at);

ALTER TABLE webhook_endpoints
  ADD COLUMN description text,
  ADD COLUMN event_types text[] NOT NULL DEFAULT ARRAY['call.analyzed']::text[],
  ADD COLUMN campaign_id uuid REFERENCES campaigns (id) ON DELETE CASCADE ON UPDATE CASCADE,
  ADD COLUMN previous_secret_encrypted text,
  ADD COLUMN previous_secret_expires_at timestamptz(3),
  ADD COLUMN failing_since timestamptz(3),
  ADD COLUMN disabled_at timestamptz(3),
  ADD COLUMN rate_per_second integer NOT NULL DEFAULT 10;

-- One event (one webhook-id) now goes to every endpoint that subscribes to it.
DROP INDEX webhook_deliveries_event_id_key;
CREATE UNIQUE INDEX webhook_deliveries_endpoint_id_event_id_key ON webhook_deliveries (endpoint_id, event_id);
-- Bulk replay walks an endpoint's failed deliveries in creation order.
CREATE INDEX webhook_deliveries_endpoint_id_status_created_at_idx ON webhook_deliveries (endpoint_id, status, created_at);

ALTER TABLE webhook_attempts ADD COLUMN response_headers jsonb;

CREATE TABLE webhook_replays (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE ON UPDATE CASCADE,
  since timestamptz(3) NOT NULL,
  status text NOT NULL DEFAULT 'running',
  total integer NOT NULL,
  attempted integer NOT NULL DEFAULT 0,
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  cursor_created_at timestamptz(3),
  cursor_id uuid,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  finished_at timestamptz(3)
);
CREATE INDEX webhook_replays_endpoint_id_created_at_idx ON webhook_replays (endpoint_id, created_at);
