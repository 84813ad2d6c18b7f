-- Shared ground for the QA programme and data-protection work, laid down before either is built so
-- the features that write these columns and the ones that read them (reports, review queue) agree.
--   coverage          share (0..1) of the template's weight actually evaluated; null until analyzed.
--   language_mismatch the only candidate template was in another language than the call.
--   needs_review      coverage below the template's minimum (or another reason a person must look).
ALTER TABLE calls
  ADD COLUMN coverage double precision,
  ADD COLUMN language_mismatch boolean NOT NULL DEFAULT false,
  ADD COLUMN needs_review boolean NOT NULL DEFAULT false;

-- Who did what and when, per account. Written inside the transaction of the change it records
-- (src/accounts/audit.ts); never updated. actor_user_id is null for the system (retention, API).
CREATE TABLE audit_log (
  id bigserial NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX audit_log_account_id_created_at_idx ON audit_log (account_id, created_at);
