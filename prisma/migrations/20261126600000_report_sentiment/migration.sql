-- Sentiment in the reports (issue 14): report_days also carries the customer's sentiment, so the
-- dashboard shows how customers felt per day, agent and campaign from the same small rollups.
--
-- Read from the two columns the analysis writes (migration 20261126400000_sentiment):
-- customer_sentiment (the customer's mean segment score, −1..1) and customer_sentiment_trend (their
-- last third of turns minus their first third, −2..2). Both are null on a mono call whose voices were
-- not separated, and the trend is null with fewer than two customer turns, so each average has its
-- own count of calls that have the figure (as coverage has coverage_calls).
--
-- "Ended better" is a trend of at least +0.1 and "ended worse" one of at most −0.1: the band the call
-- page already words as "about the same" (FLAT_TREND in src/web/components/sentiment.tsx), so a call
-- counted as improved here is one its own page says improved.

-- No call may be tallied by the old definition once the rebuild at the end has read it: writers wait
-- for this migration (one transaction) and then run the new functions. Taken first, before
-- report_days, in the order a writer's trigger takes them (calls, then report_days): no deadlock.
LOCK TABLE calls IN SHARE MODE;

ALTER TABLE report_days
  ADD COLUMN customer_sentiment_sum numeric NOT NULL DEFAULT 0,
  ADD COLUMN customer_sentiment_calls integer NOT NULL DEFAULT 0,
  ADD COLUMN customer_trend_calls integer NOT NULL DEFAULT 0,
  ADD COLUMN customer_improved integer NOT NULL DEFAULT 0,
  ADD COLUMN customer_worsened integer NOT NULL DEFAULT 0;

-- What a call contributes (see 20261125300000_report_rollups), now with the five sentiment sums.
-- The sentiment is summed as numeric, like scores, so adding and removing a call never drifts.
CREATE OR REPLACE FUNCTION report_rollup_sql(src text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $fn$
SELECT ARRAY[
format($q$
  INSERT INTO report_days AS t (account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch,
      calls, score_sum, coverage_sum, coverage_calls, critical_fails,
      band_0, band_1, band_2, band_3, band_4, band_5, band_6, band_7, band_8, band_9,
      customer_sentiment_sum, customer_sentiment_calls, customer_trend_calls, customer_improved, customer_worsened)
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
         customer_worsened = t.customer_worsened + excluded.customer_worsened
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

-- A re-analysis writes the sentiment with the score (status changes too), but a write of the
-- sentiment columns alone must also move the rollups.
DROP TRIGGER calls_report_updated ON calls;
CREATE TRIGGER calls_report_updated
  AFTER UPDATE OF account_id, status, score, coverage, criteria, topic, language, detected_language, agent_id,
                  campaign_id, template_id, started_at, language_mismatch, customer_sentiment,
                  customer_sentiment_trend ON calls
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.status, OLD.score, OLD.coverage, OLD.criteria, OLD.topic, OLD.language,
         OLD.detected_language, OLD.agent_id, OLD.campaign_id, OLD.template_id, OLD.started_at, OLD.language_mismatch,
         OLD.customer_sentiment, OLD.customer_sentiment_trend)
        IS DISTINCT FROM
        (NEW.account_id, NEW.status, NEW.score, NEW.coverage, NEW.criteria, NEW.topic, NEW.language,
         NEW.detected_language, NEW.agent_id, NEW.campaign_id, NEW.template_id, NEW.started_at, NEW.language_mismatch,
         NEW.customer_sentiment, NEW.customer_sentiment_trend))
  EXECUTE FUNCTION calls_report_tally();

-- The calls analyzed since sentiment existed: report_days rebuilt once with the new definition (its
-- first statement, the report_days upsert; one pass over the calls). The criterion and topic rollups
-- did not change and are left as they are: they are most of the rollup rows.
DO $$
BEGIN
  DELETE FROM report_days;
  EXECUTE (report_rollup_sql('SELECT 1 AS n, * FROM calls'))[1];
END
$$;
