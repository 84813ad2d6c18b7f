-- The review queue lists disputed calls (calls.open_disputes > 0) beside its other reasons; like
-- theirs, this index lets it read an account's disputed calls in (started_at, id) order.
CREATE INDEX calls_account_id_open_disputes_started_at_id_idx ON calls (account_id, open_disputes, started_at, id);
