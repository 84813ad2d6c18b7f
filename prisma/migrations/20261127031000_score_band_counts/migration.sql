-- Issue 30.3: a score band (e.g. 0–20) must list and count within 30 ms at a million calls,
-- whatever the visibility map says.
--
-- 1. The date index carries the score, so the newest calls of a band are found by walking it
--    without visiting the table (a band of one call in 25 read 540 index entries and 125 table
--    pages; a band of one in 300, 8,000 of each).
DROP INDEX calls_account_id_started_at_id_status_idx;
CREATE INDEX calls_account_id_started_at_id_status_score_idx ON calls (account_id, started_at, id) INCLUDE (status, score);

-- 2. Scored calls per account, status and whole point of score (bucket = floor(score): the calls
--    scoring b ≤ score < b + 1), kept exact by triggers like call_counts. A band's count adds the
--    buckets inside it and counts only its ragged edges on the score index: the capped count of
--    "0–20" read 10,001 index entries, each a visit to the table when its page was not
--    all-visible (a second, cold), and the tab counts read the whole band twice to find none.
--    The bucket is a float so that no score can make a write fail.
CREATE TABLE call_score_counts (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  status "CallStatus" NOT NULL,
  bucket double precision NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, status, bucket)
);

INSERT INTO call_score_counts (account_id, status, bucket, calls)
SELECT account_id, status, floor(score), count(*) FROM calls WHERE score IS NOT NULL GROUP BY 1, 2, 3;

-- Rows are changed in key order, as call_counts' triggers do, so concurrent writers never deadlock.
CREATE FUNCTION calls_score_tally_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO call_score_counts AS t (account_id, status, bucket, calls)
  SELECT account_id, status, floor(score), count(*) FROM new_calls WHERE score IS NOT NULL
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (account_id, status, bucket) DO UPDATE SET calls = t.calls + excluded.calls;
  RETURN NULL;
END
$$;

CREATE FUNCTION calls_score_tally_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE call_score_counts t SET calls = t.calls - d.n
    FROM (SELECT account_id, status, floor(score) AS bucket, count(*) AS n FROM old_calls WHERE score IS NOT NULL
           GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d
   WHERE t.account_id = d.account_id AND t.status = d.status AND t.bucket = d.bucket;
  RETURN NULL;
END
$$;

CREATE FUNCTION calls_score_tally_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO call_score_counts AS t (account_id, status, bucket, calls)
  SELECT account_id, status, bucket, sum(n)
    FROM (VALUES (OLD.account_id, OLD.status, floor(OLD.score), -1), (NEW.account_id, NEW.status, floor(NEW.score), 1))
         AS d (account_id, status, bucket, n)
   WHERE bucket IS NOT NULL
   GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (account_id, status, bucket) DO UPDATE SET calls = t.calls + excluded.calls;
  RETURN NULL;
END
$$;

CREATE TRIGGER calls_score_tally_inserted AFTER INSERT ON calls
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_score_tally_inserted();
CREATE TRIGGER calls_score_tally_deleted AFTER DELETE ON calls
  REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_score_tally_deleted();
CREATE TRIGGER calls_score_tally_updated AFTER UPDATE OF account_id, status, score ON calls FOR EACH ROW
  WHEN (old.account_id IS DISTINCT FROM new.account_id OR old.status IS DISTINCT FROM new.status
        OR floor(old.score) IS DISTINCT FROM floor(new.score))
  EXECUTE FUNCTION calls_score_tally_updated();
