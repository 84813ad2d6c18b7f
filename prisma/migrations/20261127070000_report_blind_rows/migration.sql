-- Issue 31.1: a grader in an open calibration must not read the session's calls through the
-- dashboard's aggregates either. The reports subtract the rows those few calls add to the rollups,
-- computed by the very SELECTs the rollup triggers use: report_rollup_sql is split into the rows
-- (report_rollup_rows_sql, for any source of calls) and the upsert around them (unchanged behaviour),
-- and report_blind_rows(calls) gives the rows of the given calls with their signs reversed.

CREATE FUNCTION report_rollup_rows_sql(src text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $f$
SELECT ARRAY[format($q$
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
         coalesce(sum(c.n) FILTER (WHERE x.band = 8), 0), coalesce(sum(c.n) FILTER (WHERE x.band = 9), 0),
         coalesce(sum(c.n * c.customer_sentiment::numeric), 0),
         coalesce(sum(c.n) FILTER (WHERE c.customer_sentiment IS NOT NULL), 0),
         coalesce(sum(c.n) FILTER (WHERE c.customer_sentiment_trend IS NOT NULL), 0),
         coalesce(sum(c.n) FILTER (WHERE c.customer_sentiment_trend >= 0.1), 0),
         coalesce(sum(c.n) FILTER (WHERE c.customer_sentiment_trend <= -0.1), 0)
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
      OR sum(c.n * c.customer_sentiment::numeric) <> 0
      OR sum(c.n) FILTER (WHERE c.customer_sentiment IS NOT NULL) <> 0
      OR sum(c.n) FILTER (WHERE c.customer_sentiment_trend IS NOT NULL) <> 0
      OR sum(c.n) FILTER (WHERE c.customer_sentiment_trend >= 0.1) <> 0
      OR sum(c.n) FILTER (WHERE c.customer_sentiment_trend <= -0.1) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
$q$, src),
format($q$
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
$q$, src),
format($q$
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
$q$, src)]
$f$;

CREATE OR REPLACE FUNCTION report_rollup_sql(src text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $f$
SELECT ARRAY[$q$
  INSERT INTO report_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch,
      calls, score_sum, coverage_sum, coverage_calls, critical_fails,
      band_0, band_1, band_2, band_3, band_4, band_5, band_6, band_7, band_8, band_9,
      customer_sentiment_sum, customer_sentiment_calls, customer_trend_calls, customer_improved, customer_worsened)
$q$ || r[1] || $q$
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch) DO UPDATE
     SET calls = t.calls + excluded.calls, score_sum = t.score_sum + excluded.score_sum,
         coverage_sum = t.coverage_sum + excluded.coverage_sum,
         coverage_calls = t.coverage_calls + excluded.coverage_calls,
         critical_fails = t.critical_fails + excluded.critical_fails,
         band_0 = t.band_0 + excluded.band_0, band_1 = t.band_1 + excluded.band_1,
         band_2 = t.band_2 + excluded.band_2, band_3 = t.band_3 + excluded.band_3,
         band_4 = t.band_4 + excluded.band_4, band_5 = t.band_5 + excluded.band_5,
         band_6 = t.band_6 + excluded.band_6, band_7 = t.band_7 + excluded.band_7,
         band_8 = t.band_8 + excluded.band_8, band_9 = t.band_9 + excluded.band_9,
         customer_sentiment_sum = t.customer_sentiment_sum + excluded.customer_sentiment_sum,
         customer_sentiment_calls = t.customer_sentiment_calls + excluded.customer_sentiment_calls,
         customer_trend_calls = t.customer_trend_calls + excluded.customer_trend_calls,
         customer_improved = t.customer_improved + excluded.customer_improved,
         customer_worsened = t.customer_worsened + excluded.customer_worsened$q$,
$q$
  INSERT INTO report_criteria_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language,
      language_mismatch, criterion, passed, failed, na, critical_fails)
$q$ || r[2] || $q$
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, criterion) DO UPDATE
     SET passed = t.passed + excluded.passed, failed = t.failed + excluded.failed, na = t.na + excluded.na,
         critical_fails = t.critical_fails + excluded.critical_fails$q$,
$q$
  INSERT INTO report_topic_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language,
      language_mismatch, topic, calls)
$q$ || r[3] || $q$
  ON CONFLICT (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch, topic) DO UPDATE
     SET calls = t.calls + excluded.calls$q$]
  FROM report_rollup_rows_sql(src) AS s (r)
$f$;

-- The rows the given calls add to each rollup, negated: a report reads `rollup UNION ALL these` to
-- leave the calls out (src/reports/reports.ts). A handful of calls, so the cost is theirs alone.
CREATE FUNCTION report_blind_calls_sql() RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT 'SELECT -1 AS n, * FROM calls WHERE id = ANY($1)'
$f$;

CREATE FUNCTION report_days_left_out(p_calls uuid[]) RETURNS TABLE (
  account_id uuid, grain text, day date, agent_id uuid, campaign_id uuid, template_id uuid, language text,
  language_mismatch boolean, calls bigint, score_sum numeric, coverage_sum numeric, coverage_calls bigint,
  critical_fails bigint, band_0 bigint, band_1 bigint, band_2 bigint, band_3 bigint, band_4 bigint, band_5 bigint,
  band_6 bigint, band_7 bigint, band_8 bigint, band_9 bigint, customer_sentiment_sum numeric,
  customer_sentiment_calls bigint, customer_trend_calls bigint, customer_improved bigint, customer_worsened bigint
) LANGUAGE plpgsql STABLE AS $f$
BEGIN
  RETURN QUERY EXECUTE (report_rollup_rows_sql(report_blind_calls_sql()))[1] USING p_calls;
END
$f$;

CREATE FUNCTION report_criteria_days_left_out(p_calls uuid[]) RETURNS TABLE (
  account_id uuid, grain text, day date, agent_id uuid, campaign_id uuid, template_id uuid, language text,
  language_mismatch boolean, criterion text, passed bigint, failed bigint, na bigint, critical_fails bigint
) LANGUAGE plpgsql STABLE AS $f$
BEGIN
  RETURN QUERY EXECUTE (report_rollup_rows_sql(report_blind_calls_sql()))[2] USING p_calls;
END
$f$;

CREATE FUNCTION report_topic_days_left_out(p_calls uuid[]) RETURNS TABLE (
  account_id uuid, grain text, day date, agent_id uuid, campaign_id uuid, template_id uuid, language text,
  language_mismatch boolean, topic text, calls bigint
) LANGUAGE plpgsql STABLE AS $f$
BEGIN
  RETURN QUERY EXECUTE (report_rollup_rows_sql(report_blind_calls_sql()))[3] USING p_calls;
END
$f$;
