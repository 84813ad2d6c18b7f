-- Reports (issue 10, part 5): daily rollups of scored calls, kept exact by triggers on calls.
--
-- Time zone: a day is a calendar day in the ACCOUNT's time zone (accounts.time_zone), computed when
-- the trigger tallies the call. Week and month buckets are derived from those days (ISO weeks from
-- Monday, calendar months), so every bucket the dashboard shows is the account's own. When the
-- account changes its time zone, the trigger on accounts rebuilds that account's rollups in the
-- same transaction (a rare admin action; about as long as one pass over the account's calls), and
-- call writers take a share lock on the account row first, so no call is tallied in the old zone
-- after the change or missed by the rebuild. Hourly UTC buckets would avoid the rebuild but make
-- the tables ~24 times larger (and a day in UTC+5:30 is not whole UTC hours apart from the
-- half hour) — the point of the rollups is to be small.
--
-- Grain: every call is tallied twice, in its day row (grain 'day') and in its month row (grain
-- 'month', day = the first of the month). A range is read as its whole months from month rows and
-- its partial months from day rows, so a year of a 1,000,000-call account reads a few thousand
-- month rows instead of a hundred thousand day rows. Trend and topics by day or week read day rows.
--
-- Keys: everything the dashboard filters by (day, agent, campaign, template, language, language
-- mismatch). A real team works a few campaign/language combinations per agent and day, so there
-- are far fewer rows than calls (a few percent). "None" is the nil uuid for campaign and template
-- and '' for language, so the keys can be a primary key (NULL would not conflict).
--
-- What counts: only calls in status `analyzed` with a score (a call being re-analyzed leaves the
-- reports until its new score is in). Scores and coverage are summed as numeric, so adding and
-- subtracting never drifts and the rollups equal a direct aggregate exactly.
CREATE TABLE report_days (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  grain text NOT NULL CHECK (grain IN ('day', 'month')),
  day date NOT NULL,
  agent_id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  template_id uuid NOT NULL,
  language text NOT NULL,
  language_mismatch boolean NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  score_sum numeric NOT NULL DEFAULT 0,
  coverage_sum numeric NOT NULL DEFAULT 0,
  -- Calls with a coverage (calls scored before coverage existed have none).
  coverage_calls integer NOT NULL DEFAULT 0,
  -- Calls where a critical criterion failed.
  critical_fails integer NOT NULL DEFAULT 0,
  -- Score distribution: band_i counts scores in [10i, 10i + 10), band_9 includes 100.
  band_0 integer NOT NULL DEFAULT 0,
  band_1 integer NOT NULL DEFAULT 0,
  band_2 integer NOT NULL DEFAULT 0,
  band_3 integer NOT NULL DEFAULT 0,
  band_4 integer NOT NULL DEFAULT 0,
  band_5 integer NOT NULL DEFAULT 0,
  band_6 integer NOT NULL DEFAULT 0,
  band_7 integer NOT NULL DEFAULT 0,
  band_8 integer NOT NULL DEFAULT 0,
  band_9 integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch)
);

-- Criterion results per day and key (the criterion's `key` in calls.criteria).
CREATE TABLE report_criteria_days (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  grain text NOT NULL CHECK (grain IN ('day', 'month')),
  day date NOT NULL,
  agent_id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  template_id uuid NOT NULL,
  language text NOT NULL,
  language_mismatch boolean NOT NULL,
  criterion text NOT NULL,
  passed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  na integer NOT NULL DEFAULT 0,
  -- Failures of the criterion while it was critical.
  critical_fails integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, criterion)
);

-- Scored calls per day and topic.
CREATE TABLE report_topic_days (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  grain text NOT NULL CHECK (grain IN ('day', 'month')),
  day date NOT NULL,
  agent_id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  template_id uuid NOT NULL,
  language text NOT NULL,
  language_mismatch boolean NOT NULL,
  topic text NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, topic)
);

-- The three upserts that add rows of `src` to the rollups, `src` being SQL that yields calls rows
-- with a leading sign column `n` (+1 to add, -1 to remove): the new rows of an insert, the old rows
-- of a delete, OLD and NEW of an update, or all calls of an account for a rebuild. One definition
-- of "what a call contributes", used by every path. Groups are upserted in key order, so
-- concurrent writers lock rollup rows in the same order and cannot deadlock on them; groups whose
-- every sum is zero (an update that changed nothing counted) are not written. Joining accounts
-- gives the zone and also makes a cascade delete of the account a no-op (its row is gone).
CREATE FUNCTION report_rollup_sql(src text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $fn$
SELECT ARRAY[
format($q$
  INSERT INTO report_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch,
      calls, score_sum, coverage_sum, coverage_calls, critical_fails,
      band_0, band_1, band_2, band_3, band_4, band_5, band_6, band_7, band_8, band_9)
  SELECT c.account_id, b.grain, b.day, c.agent_id,
         coalesce(c.campaign_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.template_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.language, c.detected_language, ''), c.language_mismatch,
         sum(c.n), sum(c.n * c.score::numeric), coalesce(sum(c.n * c.coverage::numeric), 0),
         coalesce(sum(c.n) FILTER (WHERE c.coverage IS NOT NULL), 0),
         coalesce(sum(c.n) FILTER (WHERE x.critical_fail), 0),
         coalesce(sum(c.n) FILTER (WHERE x.band = 0), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 1), 0),
         coalesce(sum(c.n) FILTER (WHERE x.band = 2), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 3), 0),
         coalesce(sum(c.n) FILTER (WHERE x.band = 4), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 5), 0),
         coalesce(sum(c.n) FILTER (WHERE x.band = 6), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 7), 0),
         coalesce(sum(c.n) FILTER (WHERE x.band = 8), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 9), 0)
    FROM (%1$s) c
    JOIN accounts a ON a.id = c.account_id
   CROSS JOIN LATERAL (SELECT (c.started_at AT TIME ZONE a.time_zone)::date AS local_day) l
   CROSS JOIN LATERAL (VALUES ('day', l.local_day), ('month', date_trunc('month', l.local_day)::date)) AS b (grain, day)
   CROSS JOIN LATERAL (SELECT least(9, greatest(0, floor(c.score / 10)))::int AS band,
                              EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(c.criteria) WHEN 'array'
                                                                         THEN c.criteria ELSE '[]' END) e
                                       WHERE e->>'result' = 'failed' AND e->>'critical' = 'true') AS critical_fail) x
   WHERE c.status = 'analyzed' AND c.score IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  HAVING sum(c.n) <> 0 OR sum(c.n * c.score::numeric) <> 0 OR sum(c.n * c.coverage::numeric) <> 0
      OR sum(c.n) FILTER (WHERE c.coverage IS NOT NULL) <> 0 OR sum(c.n) FILTER (WHERE x.critical_fail) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch) DO UPDATE
     SET calls = t.calls + excluded.calls, score_sum = t.score_sum + excluded.score_sum,
         coverage_sum = t.coverage_sum + excluded.coverage_sum,
         coverage_calls = t.coverage_calls + excluded.coverage_calls,
         critical_fails = t.critical_fails + excluded.critical_fails,
         band_0 = t.band_0 + excluded.band_0, band_1 = t.band_1 + excluded.band_1,
         band_2 = t.band_2 + excluded.band_2, band_3 = t.band_3 + excluded.band_3,
         band_4 = t.band_4 + excluded.band_4, band_5 = t.band_5 + excluded.band_5,
         band_6 = t.band_6 + excluded.band_6, band_7 = t.band_7 + excluded.band_7,
         band_8 = t.band_8 + excluded.band_8, band_9 = t.band_9 + excluded.band_9
$q$, src),
format($q$
  INSERT INTO report_criteria_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language,
      language_mismatch, criterion, passed, failed, na, critical_fails)
  SELECT c.account_id, b.grain, b.day, c.agent_id,
         coalesce(c.campaign_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.template_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.language, c.detected_language, ''), c.language_mismatch, e->>'key',
         coalesce(sum(c.n) FILTER (WHERE e->>'result' = 'passed'), 0),
         coalesce(sum(c.n) FILTER (WHERE e->>'result' = 'failed'), 0),
         coalesce(sum(c.n) FILTER (WHERE e->>'result' = 'na'), 0),
         coalesce(sum(c.n) FILTER (WHERE e->>'result' = 'failed' AND e->>'critical' = 'true'), 0)
    FROM (%1$s) c
    JOIN accounts a ON a.id = c.account_id
   CROSS JOIN LATERAL (SELECT (c.started_at AT TIME ZONE a.time_zone)::date AS local_day) l
   CROSS JOIN LATERAL (VALUES ('day', l.local_day), ('month', date_trunc('month', l.local_day)::date)) AS b (grain, day)
   CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(c.criteria) WHEN 'array' THEN c.criteria ELSE '[]' END) e
   WHERE c.status = 'analyzed' AND c.score IS NOT NULL AND e->>'key' IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  HAVING sum(c.n) FILTER (WHERE e->>'result' = 'passed') <> 0 OR sum(c.n) FILTER (WHERE e->>'result' = 'failed') <> 0
      OR sum(c.n) FILTER (WHERE e->>'result' = 'na') <> 0
      OR sum(c.n) FILTER (WHERE e->>'result' = 'failed' AND e->>'critical' = 'true') <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, criterion) DO UPDATE
     SET passed = t.passed + excluded.passed, failed = t.failed + excluded.failed, na = t.na + excluded.na,
         critical_fails = t.critical_fails + excluded.critical_fails
$q$, src),
format($q$
  INSERT INTO report_topic_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language,
      language_mismatch, topic, calls)
  SELECT c.account_id, b.grain, b.day, c.agent_id,
         coalesce(c.campaign_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.template_id, '00000000-0000-0000-0000-000000000000'),
         coalesce(c.language, c.detected_language, ''), c.language_mismatch, c.topic, sum(c.n)
    FROM (%1$s) c
    JOIN accounts a ON a.id = c.account_id
   CROSS JOIN LATERAL (SELECT (c.started_at AT TIME ZONE a.time_zone)::date AS local_day) l
   CROSS JOIN LATERAL (VALUES ('day', l.local_day), ('month', date_trunc('month', l.local_day)::date)) AS b (grain, day)
   WHERE c.status = 'analyzed' AND c.score IS NOT NULL AND c.topic IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  HAVING sum(c.n) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, topic) DO UPDATE
     SET calls = t.calls + excluded.calls
$q$, src)]
$fn$;

-- Share-locks the accounts of counted rows (in id order) before tallying, so a time zone change
-- (which takes the row's update lock and rebuilds) and a tally never interleave: the tally waits
-- for the change to commit and then reads the new zone (READ COMMITTED: each statement a fresh snapshot).
CREATE FUNCTION report_lock_accounts_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
  SELECT 1 FROM accounts WHERE id IN (SELECT account_id FROM (%s) c WHERE c.status = 'analyzed' AND c.score IS NOT NULL)
   ORDER BY id FOR SHARE
$q$, src)
$fn$;

-- Inserts and deletes: once per statement from the transition table (a bulk insert of a million
-- calls is three grouped upserts). Updates: per row, only when a column the reports read changed
-- (transition tables cannot be combined with a column list, and transcript writes must stay free).
CREATE FUNCTION calls_report_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS n, * FROM new_calls'
    WHEN 'DELETE' THEN 'SELECT -1 AS n, * FROM old_calls'
    ELSE 'SELECT -1 AS n, ($1).* UNION ALL SELECT 1, ($2).*' END;
  q text;
  counted integer;
BEGIN
  EXECUTE report_lock_accounts_sql(src) USING OLD, NEW;
  -- No scored call among the rows (intake of a queued call, transcription steps): nothing to tally.
  GET DIAGNOSTICS counted = ROW_COUNT;
  IF counted = 0 THEN
    RETURN NULL;
  END IF;
  FOREACH q IN ARRAY report_rollup_sql(src) LOOP
    EXECUTE q USING OLD, NEW;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER calls_report_inserted AFTER INSERT ON calls
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_report_tally();
CREATE TRIGGER calls_report_deleted AFTER DELETE ON calls
  REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_report_tally();
CREATE TRIGGER calls_report_updated
  AFTER UPDATE OF account_id, status, score, coverage, criteria, topic, language, detected_language, agent_id,
                  campaign_id, template_id, started_at, language_mismatch ON calls
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.status, OLD.score, OLD.coverage, OLD.criteria, OLD.topic, OLD.language,
         OLD.detected_language, OLD.agent_id, OLD.campaign_id, OLD.template_id, OLD.started_at, OLD.language_mismatch)
        IS DISTINCT FROM
        (NEW.account_id, NEW.status, NEW.score, NEW.coverage, NEW.criteria, NEW.topic, NEW.language,
         NEW.detected_language, NEW.agent_id, NEW.campaign_id, NEW.template_id, NEW.started_at, NEW.language_mismatch))
  EXECUTE FUNCTION calls_report_tally();

-- Rebuilds one account's rollups (its days in its current zone).
CREATE FUNCTION report_rebuild(account uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  q text;
BEGIN
  DELETE FROM report_days WHERE account_id = account;
  DELETE FROM report_criteria_days WHERE account_id = account;
  DELETE FROM report_topic_days WHERE account_id = account;
  FOREACH q IN ARRAY report_rollup_sql(format('SELECT 1 AS n, * FROM calls WHERE account_id = %L', account)) LOOP
    EXECUTE q;
  END LOOP;
END
$$;

CREATE FUNCTION accounts_report_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_rebuild(NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_report_time_zone AFTER UPDATE OF time_zone ON accounts
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION accounts_report_time_zone();

-- Rollups of the calls that exist already.
DO $$
DECLARE
  q text;
BEGIN
  FOREACH q IN ARRAY report_rollup_sql('SELECT 1 AS n, * FROM calls') LOOP
    EXECUTE q;
  END LOOP;
END
$$;
