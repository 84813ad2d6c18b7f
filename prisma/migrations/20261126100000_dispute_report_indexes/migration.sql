-- The disputes report (reportDisputes) counts an account's disputes opened in a range of days and
-- those resolved in it. The (account_id, status, opened_at) index serves the queue by status, not a
-- range over every status; these two let the report read only the range's disputes (a bitmap OR
-- of both), however many the account has had.
CREATE INDEX disputes_account_id_opened_at_idx ON disputes (account_id, opened_at);
CREATE INDEX disputes_account_id_resolved_at_idx ON disputes (account_id, resolved_at);
