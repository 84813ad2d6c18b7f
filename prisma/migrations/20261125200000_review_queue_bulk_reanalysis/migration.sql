-- Review queue and bulk re-analysis (issue 10, points 6 and 7).

-- Share of each agent's calls sampled into the review queue, in percent (0–100).
ALTER TABLE accounts ADD COLUMN review_sample_percent double precision NOT NULL DEFAULT 5;

-- A critical criterion failed. Generated from `criteria` so every writer (analysis, review overrides,
-- bulk SQL) keeps it right without knowing it exists, and so the review queue can index it.
ALTER TABLE calls ADD COLUMN critical_fail boolean GENERATED ALWAYS AS (
  jsonb_path_exists(criteria, '$[*] ? (@.critical == true && @.result == "failed")')
) STORED;

-- The review queue lists calls of one reason newest first: each index is that reason's range in
-- (started_at, id) order, so a page is an index range however rare the reason is (see review-queue.ts).
CREATE INDEX calls_account_id_needs_review_started_at_id_idx ON calls (account_id, needs_review, started_at, id);
CREATE INDEX calls_account_id_language_mismatch_started_at_id_idx ON calls (account_id, language_mismatch, started_at, id);
CREATE INDEX calls_account_id_critical_fail_started_at_id_idx ON calls (account_id, critical_fail, started_at, id);

CREATE TABLE bulk_reanalyses (
  id uuid NOT NULL PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  requested_by_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE,
  filter jsonb NOT NULL,
  template_id uuid,
  status text NOT NULL DEFAULT 'running',
  total integer NOT NULL,
  requested integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  cursor_started_at timestamptz(3),
  cursor_id uuid,
  created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  finished_at timestamptz(3)
);
CREATE INDEX bulk_reanalyses_account_id_created_at_idx ON bulk_reanalyses (account_id, created_at);

CREATE TABLE call_reviews (
  call_id uuid NOT NULL PRIMARY KEY REFERENCES calls (id) ON DELETE CASCADE ON UPDATE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  assigned_to_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE,
  assigned_at timestamptz(3),
  done_by_id uuid REFERENCES users (id) ON DELETE SET NULL ON UPDATE CASCADE,
  done_at timestamptz(3)
);
CREATE INDEX call_reviews_account_id_idx ON call_reviews (account_id);
