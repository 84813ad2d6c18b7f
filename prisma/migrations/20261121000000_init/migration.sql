-- Escucha initial schema. Kept in Prisma's migration layout; applied by scripts/migrate.ts.

CREATE TYPE "UserRole" AS ENUM ('owner', 'admin', 'analyst', 'viewer');
CREATE TYPE "CallStatus" AS ENUM ('queued', 'transcribing', 'analyzing', 'analyzed', 'transcribed', 'failed');
CREATE TYPE "CallDirection" AS ENUM ('inbound', 'outbound');
CREATE TYPE "CallSource" AS ENUM ('api', 'upload');
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

CREATE TABLE accounts (
  id uuid NOT NULL PRIMARY KEY,
  name text NOT NULL,
  time_zone text NOT NULL DEFAULT 'UTC',
  plan_minutes integer NOT NULL DEFAULT 1000,
  plan_seats integer NOT NULL DEFAULT 10,
  manual_upload_max_bytes bigint NOT NULL DEFAULT 524288000,
  agent_channel text NOT NULL DEFAULT 'left',
  default_template_id uuid,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX accounts_default_template_id_key ON accounts (default_template_id);

CREATE TABLE users (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text NOT NULL,
  role "UserRole" NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  removed_at timestamptz(3)
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE INDEX users_account_id_idx ON users (account_id);

CREATE TABLE sessions (
  id uuid NOT NULL PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE ON UPDATE CASCADE,
  token_hash text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  last_seen_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  expires_at timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE invitations (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  email text NOT NULL,
  role "UserRole" NOT NULL,
  token_hash text NOT NULL,
  invited_by_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  expires_at timestamptz(3) NOT NULL,
  accepted_at timestamptz(3),
  revoked_at timestamptz(3)
);
CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash);
CREATE INDEX invitations_account_id_idx ON invitations (account_id);

CREATE TABLE templates (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  name text NOT NULL,
  definition jsonb NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  deleted_at timestamptz(3)
);
CREATE INDEX templates_account_id_idx ON templates (account_id);

ALTER TABLE accounts ADD CONSTRAINT accounts_default_template_id_fkey
  FOREIGN KEY (default_template_id) REFERENCES templates (id) ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE agents (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  name text NOT NULL,
  name_normalized text NOT NULL,
  code text,
  code_normalized text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  deactivated_at timestamptz(3)
);
CREATE UNIQUE INDEX agents_account_id_code_normalized_key ON agents (account_id, code_normalized);
CREATE INDEX agents_account_id_name_normalized_idx ON agents (account_id, name_normalized);

CREATE TABLE campaigns (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  name text NOT NULL,
  name_normalized text NOT NULL,
  language text,
  template_id uuid REFERENCES templates (id) ON DELETE SET NULL ON UPDATE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  archived_at timestamptz(3)
);
CREATE UNIQUE INDEX campaigns_account_id_name_normalized_key ON campaigns (account_id, name_normalized);

CREATE TABLE api_keys (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  last_used_at timestamptz(3),
  revoked_at timestamptz(3)
);
CREATE UNIQUE INDEX api_keys_prefix_key ON api_keys (prefix);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_account_id_idx ON api_keys (account_id);

CREATE TABLE calls (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  external_id text,
  source "CallSource" NOT NULL,
  status "CallStatus" NOT NULL DEFAULT 'queued',
  failure_reason text,
  failure_detail text,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  campaign_id uuid REFERENCES campaigns (id) ON DELETE SET NULL ON UPDATE CASCADE,
  template_id uuid REFERENCES templates (id) ON DELETE SET NULL ON UPDATE CASCADE,
  started_at timestamptz(3) NOT NULL,
  customer_phone text,
  customer_name text,
  direction "CallDirection",
  language text,
  detected_language text,
  file_name text NOT NULL,
  file_size bigint NOT NULL,
  file_sha256 text NOT NULL,
  content_type text NOT NULL,
  storage_key text NOT NULL,
  duration_seconds double precision,
  channels integer,
  reserved_minutes integer NOT NULL,
  used_minutes integer,
  period text NOT NULL,
  segments jsonb,
  search_text text,
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(search_text, ''))) STORED,
  score double precision,
  topic text,
  summary text,
  criteria jsonb,
  metrics jsonb,
  analysis_revision integer NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  analyzed_at timestamptz(3)
);
CREATE UNIQUE INDEX calls_account_id_external_id_key ON calls (account_id, external_id);
CREATE INDEX calls_account_id_status_created_at_idx ON calls (account_id, status, created_at);
CREATE INDEX calls_account_id_started_at_idx ON calls (account_id, started_at);
CREATE INDEX calls_agent_id_idx ON calls (agent_id);
CREATE INDEX calls_search_vector_idx ON calls USING gin (search_vector);

CREATE TABLE call_events (
  id bigserial NOT NULL PRIMARY KEY,
  call_id uuid NOT NULL REFERENCES calls (id) ON DELETE CASCADE ON UPDATE CASCADE,
  status "CallStatus" NOT NULL,
  detail text,
  at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX call_events_call_id_at_idx ON call_events (call_id, at);

CREATE TABLE usage_periods (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  period text NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  minutes_reserved integer NOT NULL DEFAULT 0,
  minutes_used integer NOT NULL DEFAULT 0,
  storage_bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, period)
);

CREATE TABLE minute_ledger (
  id bigserial NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  call_id uuid NOT NULL REFERENCES calls (id) ON DELETE CASCADE ON UPDATE CASCADE,
  period text NOT NULL,
  kind text NOT NULL,
  minutes integer NOT NULL,
  at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX minute_ledger_call_id_kind_key ON minute_ledger (call_id, kind);
CREATE INDEX minute_ledger_account_id_period_idx ON minute_ledger (account_id, period);

CREATE TABLE webhook_endpoints (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  url text NOT NULL,
  secret_encrypted text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX webhook_endpoints_account_id_key ON webhook_endpoints (account_id);

CREATE TABLE webhook_deliveries (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE ON UPDATE CASCADE,
  call_id uuid REFERENCES calls (id) ON DELETE CASCADE ON UPDATE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  status "DeliveryStatus" NOT NULL DEFAULT 'pending',
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  completed_at timestamptz(3)
);
CREATE UNIQUE INDEX webhook_deliveries_event_id_key ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_account_id_created_at_idx ON webhook_deliveries (account_id, created_at);
CREATE INDEX webhook_deliveries_call_id_idx ON webhook_deliveries (call_id);

CREATE TABLE webhook_attempts (
  id bigserial NOT NULL PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE ON UPDATE CASCADE,
  attempt_number integer NOT NULL,
  at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  response_excerpt text,
  manual boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_attempts_delivery_id_at_idx ON webhook_attempts (delivery_id, at);

-- Live updates for the app across processes (GraphQL subscription callUpdated).
CREATE FUNCTION notify_call_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('call_updated', json_build_object('id', NEW.id, 'account_id', NEW.account_id, 'status', NEW.status)::text);
  RETURN NEW;
END
$$;
CREATE TRIGGER calls_notify_updated AFTER INSERT OR UPDATE OF status, score, analysis_revision ON calls
  FOR EACH ROW EXECUTE FUNCTION notify_call_updated();
