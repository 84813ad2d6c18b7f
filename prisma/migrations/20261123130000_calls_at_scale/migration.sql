-- Calls at a million (issue 12, part 1).

-- One index per sort the calls list offers, each ending in id (the keyset tie-breaker). Nulls sort
-- first ascending, so one index serves `ASC NULLS FIRST` forwards and `DESC NULLS LAST` backwards:
-- calls without a score or duration come last when sorting from the top.
DROP INDEX calls_account_id_started_at_idx;
-- Status is carried along (INCLUDE) so the view filter and capped counts of date and score ranges
-- are answered from the index alone.
CREATE INDEX calls_account_id_started_at_id_status_idx ON calls (account_id, started_at, id) INCLUDE (status);
CREATE INDEX calls_account_id_score_id_status_idx ON calls (account_id, score NULLS FIRST, id) INCLUDE (status);
CREATE INDEX calls_account_id_duration_seconds_id_idx ON calls (account_id, duration_seconds NULLS FIRST, id);

-- Calls per account and status, kept by triggers on calls so that every code path (intake, worker,
-- re-analysis, deletion, bulk SQL) keeps them exact; the app's view counts read a handful of rows
-- instead of counting a million.
CREATE TABLE call_counts (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  status "CallStatus" NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, status)
);

-- The values calls actually use, per status, with how many calls use each (0 = none any more):
-- the list's filter options read a few hundred rows instead of a DISTINCT over every call, and a
-- view filtered by one agent, campaign, topic, language or direction is counted exactly from here.
CREATE TYPE "CallFacetKind" AS ENUM ('topic', 'language', 'agent', 'campaign', 'direction');
CREATE TABLE call_facets (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE ON UPDATE CASCADE,
  kind "CallFacetKind" NOT NULL,
  value text NOT NULL,
  status "CallStatus" NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, kind, value, status)
);

-- Inserts and deletes are tallied once per statement from the transition table, so a bulk insert
-- of a million rows costs one grouped upsert, not a million. Rows are upserted in key order, so
-- concurrent transactions lock counter rows in the same order and cannot deadlock on them.
CREATE FUNCTION calls_tally_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO call_counts AS t (account_id, status, calls)
  SELECT account_id, status, count(*) FROM new_calls GROUP BY account_id, status ORDER BY account_id, status
  ON CONFLICT (account_id, status) DO UPDATE SET calls = t.calls + excluded.calls;

  INSERT INTO call_facets AS t (account_id, kind, value, status, calls)
  SELECT c.account_id, f.kind, f.value, c.status, count(*)
    FROM new_calls c
   CROSS JOIN LATERAL (VALUES ('topic'::"CallFacetKind", c.topic),
                              ('language', coalesce(c.language, c.detected_language)),
                              ('agent', c.agent_id::text),
                              ('campaign', c.campaign_id::text),
                              ('direction', c.direction::text)) AS f (kind, value)
   WHERE f.value IS NOT NULL
   GROUP BY c.account_id, f.kind, f.value, c.status
   ORDER BY c.account_id, f.kind, f.value, c.status
  ON CONFLICT (account_id, kind, value, status) DO UPDATE SET calls = t.calls + excluded.calls;
  RETURN NULL;
END
$$;

-- Only UPDATE here (never insert): when an account is deleted, its counters may already be gone.
CREATE FUNCTION calls_tally_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE call_counts t SET calls = t.calls - d.n
    FROM (SELECT account_id, status, count(*) AS n FROM old_calls GROUP BY account_id, status
           ORDER BY account_id, status) d
   WHERE t.account_id = d.account_id AND t.status = d.status;

  UPDATE call_facets t SET calls = t.calls - d.n
    FROM (SELECT c.account_id, f.kind, f.value, c.status, count(*) AS n
            FROM old_calls c
           CROSS JOIN LATERAL (VALUES ('topic'::"CallFacetKind", c.topic),
                                      ('language', coalesce(c.language, c.detected_language)),
                                      ('agent', c.agent_id::text),
                                      ('campaign', c.campaign_id::text),
                              ('direction', c.direction::text)) AS f (kind, value)
           WHERE f.value IS NOT NULL
           GROUP BY c.account_id, f.kind, f.value, c.status
           ORDER BY c.account_id, f.kind, f.value, c.status) d
   WHERE t.account_id = d.account_id AND t.kind = d.kind AND t.value = d.value AND t.status = d.status;
  RETURN NULL;
END
$$;

-- Updates are tallied per row, and only for rows whose counted columns changed (the WHEN clause
-- keeps transcript and analysis writes free of any counter work).
CREATE FUNCTION calls_tally_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO call_counts AS t (account_id, status, calls)
  SELECT account_id, status, sum(n)
    FROM (VALUES (OLD.account_id, OLD.status, -1), (NEW.account_id, NEW.status, 1)) AS d (account_id, status, n)
   GROUP BY account_id, status HAVING sum(n) <> 0
   ORDER BY account_id, status
  ON CONFLICT (account_id, status) DO UPDATE SET calls = t.calls + excluded.calls;

  INSERT INTO call_facets AS t (account_id, kind, value, status, calls)
  SELECT account_id, kind, value, status, sum(n)
    FROM (SELECT OLD.account_id, f.kind, f.value, OLD.status, -1
            FROM (VALUES ('topic'::"CallFacetKind", OLD.topic),
                         ('language', coalesce(OLD.language, OLD.detected_language)),
                         ('agent', OLD.agent_id::text),
                         ('campaign', OLD.campaign_id::text),
                         ('direction', OLD.direction::text)) AS f (kind, value)
          UNION ALL
          SELECT NEW.account_id, f.kind, f.value, NEW.status, 1
            FROM (VALUES ('topic'::"CallFacetKind", NEW.topic),
                         ('language', coalesce(NEW.language, NEW.detected_language)),
                         ('agent', NEW.agent_id::text),
                         ('campaign', NEW.campaign_id::text),
                         ('direction', NEW.direction::text)) AS f (kind, value)) AS d (account_id, kind, value, status, n)
   WHERE value IS NOT NULL
   GROUP BY account_id, kind, value, status HAVING sum(n) <> 0
   ORDER BY account_id, kind, value, status
  ON CONFLICT (account_id, kind, value, status) DO UPDATE SET calls = t.calls + excluded.calls;
  RETURN NULL;
END
$$;

CREATE TRIGGER calls_tally_inserted AFTER INSERT ON calls
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_tally_inserted();
CREATE TRIGGER calls_tally_deleted AFTER DELETE ON calls
  REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION calls_tally_deleted();
CREATE TRIGGER calls_tally_updated
  AFTER UPDATE OF account_id, status, topic, language, detected_language, agent_id, campaign_id, direction ON calls
  FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.topic IS DISTINCT FROM NEW.topic OR OLD.language IS DISTINCT FROM NEW.language
        OR OLD.detected_language IS DISTINCT FROM NEW.detected_language
        OR OLD.agent_id IS DISTINCT FROM NEW.agent_id OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
        OR OLD.direction IS DISTINCT FROM NEW.direction)
  EXECUTE FUNCTION calls_tally_updated();

-- Counters for the calls that exist already.
INSERT INTO call_counts (account_id, status, calls)
SELECT account_id, status, count(*) FROM calls GROUP BY account_id, status;
INSERT INTO call_facets (account_id, kind, value, status, calls)
SELECT c.account_id, f.kind, f.value, c.status, count(*)
  FROM calls c
 CROSS JOIN LATERAL (VALUES ('topic'::"CallFacetKind", c.topic),
                            ('language', coalesce(c.language, c.detected_language)),
                            ('agent', c.agent_id::text),
                            ('campaign', c.campaign_id::text),
                              ('direction', c.direction::text)) AS f (kind, value)
 WHERE f.value IS NOT NULL
 GROUP BY c.account_id, f.kind, f.value, c.status;

-- API keys are cached by every api process; a change to a key (revocation above all) tells them
-- at once, by key hash, so a revoked key stops working on the next request everywhere.
CREATE FUNCTION notify_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changed', OLD.key_hash);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_notify_changed AFTER UPDATE OF revoked_at, key_hash, account_id OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_api_key_changed();
