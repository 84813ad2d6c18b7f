-- A criterion failed only on words the recogniser was unsure of (issue 18, point 6): the analysis marks
-- its entry in `criteria` with "low_confidence": true. Generated like critical_fail, so a reviewer's
-- override to passed (or a re-analysis) takes the call out of the review queue without knowing it exists.
ALTER TABLE calls ADD COLUMN low_confidence_fail boolean GENERATED ALWAYS AS (
  jsonb_path_exists(criteria, '$[*] ? (@.low_confidence == true && @.result == "failed")')
) STORED;

-- The review queue reads each reason as one range in (started_at, id) order (see review-queue.ts).
CREATE INDEX calls_account_id_low_confidence_fail_started_at_id_idx ON calls (account_id, low_confidence_fail, started_at, id);
