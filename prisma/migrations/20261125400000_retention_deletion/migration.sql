-- Retention, deletion with tombstones (issue 13.4–5).

-- Per-account retention in days; null keeps forever. The daily retention job reads these.
ALTER TABLE accounts
  ADD COLUMN retention_recording_days integer,
  ADD COLUMN retention_transcript_days integer;

-- When retention removed the recording / the transcript of a call that otherwise stays.
ALTER TABLE calls
  ADD COLUMN recording_deleted_at timestamptz(3),
  ADD COLUMN transcript_deleted_at timestamptz(3);

-- Bytes given back by deletion and retention in each period (storage_bytes goes down by as much).
ALTER TABLE usage_periods ADD COLUMN storage_freed_bytes bigint NOT NULL DEFAULT 0;

-- What stays of a deleted call: its id and external_id, so a resent external_id still answers
-- `exists` (with the original id) and is never charged again.
CREATE TABLE call_tombstones (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  external_id text,
  deleted_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  deleted_by_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX call_tombstones_account_id_external_id_key ON call_tombstones (account_id, external_id);

-- The minute ledger is history: minutes charged for a deleted call stay charged, so its rows
-- outlive the call (no cascade). Ids are random UUIDs, never reused, so (call_id, kind) stays unique.
ALTER TABLE minute_ledger DROP CONSTRAINT minute_ledger_call_id_fkey;

-- The audit log is read newest first, by keyset (created_at, id).
DROP INDEX audit_log_account_id_created_at_idx;
CREATE INDEX audit_log_account_id_created_at_id_idx ON audit_log (account_id, created_at, id);
