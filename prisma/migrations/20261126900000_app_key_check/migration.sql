-- Issue 25.2: one application secret for every process. The database keeps a key-check value
-- (an HMAC of a fixed label under APP_SECRET, never the secret), recorded by the first process
-- that starts with a secret; a process with another APP_SECRET refuses to start.
CREATE TABLE app_key_check (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  value       text NOT NULL,
  recorded_at timestamptz(3) NOT NULL DEFAULT now()
);
