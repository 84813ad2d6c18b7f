-- Issue 29.5: every intake of an account updated the one usage_periods row of its month, so a large
-- account's intakes queued on that row's lock (docs/benchmarks/hotrows.md). Intake now reserves on one
-- of 8 stripe rows (usage_stripes) and only rarely takes the period row's lock.
--
-- How "never overspend" stays exact (an escrow of minutes): a stripe may admit only minutes it was
-- granted (minutes_allotted - minutes_reserved, its "room", is never negative), and the period row
-- counts every minute granted to its stripes (usage_periods.minutes_allotted). Grants are made, under
-- the period row's lock, only out of the period's own room:
--   plan - minutes_used - minutes_reserved - minutes_allotted      (the period row's columns)
-- so whenever that room is ≥ 0 the stripes' rooms together never exceed what the plan has left, and a
-- stripe admitting a call within its room cannot overspend. Whenever the period's room could go
-- negative (a call settled for more minutes than it reserved, a lowered plan), the stripes' unused
-- grants are taken back first (usage_fold): every stripe's room becomes 0 and its counts are folded
-- into the period row, so nothing is admitted but through the exact, serialised check on the period
-- row. Near the limit grants shrink to one call's minutes: intake is serialised there, as before.
--
-- The period row stays the base of every figure: existing counts stay where they are (the stripes
-- start empty), and a period's figures are its row plus its stripes' (the usage_totals view).
ALTER TABLE usage_periods ADD COLUMN minutes_allotted integer NOT NULL DEFAULT 0;

CREATE TABLE usage_stripes (
  account_id       uuid     NOT NULL,
  period           text     NOT NULL,
  stripe           smallint NOT NULL,
  -- Minutes granted to this stripe by its period row; it admits while reserved + minutes ≤ allotted.
  minutes_allotted integer  NOT NULL DEFAULT 0,
  minutes_reserved integer  NOT NULL DEFAULT 0,
  calls            integer  NOT NULL DEFAULT 0,
  storage_bytes    bigint   NOT NULL DEFAULT 0,
  CONSTRAINT usage_stripes_pkey PRIMARY KEY (account_id, period, stripe),
  CONSTRAINT usage_stripes_account_id_period_fkey FOREIGN KEY (account_id, period)
    REFERENCES usage_periods (account_id, period) ON DELETE CASCADE ON UPDATE CASCADE
);

-- A period's figures as users see them: its row plus its stripes. Settles, releases, deletion and
-- retention subtract from the period row what intake may have added to a stripe, so a column of the
-- row alone can be negative; only the sum means something.
CREATE VIEW usage_totals AS
SELECT u.account_id, u.period,
       u.calls + coalesce(s.calls, 0) AS calls,
       u.minutes_reserved + coalesce(s.minutes_reserved, 0) AS minutes_reserved,
       u.minutes_used AS minutes_used,
       greatest(0, u.storage_bytes + coalesce(s.storage_bytes, 0)) AS storage_bytes,
       u.storage_freed_bytes AS storage_freed_bytes
  FROM usage_periods u
  LEFT JOIN (SELECT account_id, period, sum(calls)::int AS calls, sum(minutes_reserved)::int AS minutes_reserved,
                    sum(storage_bytes)::bigint AS storage_bytes
               FROM usage_stripes GROUP BY account_id, period) s
    ON s.account_id = u.account_id AND s.period = u.period;

-- Takes back every stripe's unused grant: locks the period's stripes (in stripe order), folds their
-- counts into the period row and empties them. The caller holds the period row's lock (always taken
-- before a stripe's: no deadlock with intake, which holds at most one stripe and never the row).
CREATE FUNCTION usage_fold(p_account uuid, p_period text) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM 1 FROM usage_stripes WHERE account_id = p_account AND period = p_period ORDER BY stripe FOR UPDATE;
  UPDATE usage_periods u
     SET minutes_reserved = u.minutes_reserved + s.minutes_reserved,
         calls = u.calls + s.calls,
         storage_bytes = u.storage_bytes + s.storage_bytes,
         minutes_allotted = 0
    FROM (SELECT coalesce(sum(minutes_reserved), 0)::int AS minutes_reserved, coalesce(sum(calls), 0)::int AS calls,
                 coalesce(sum(storage_bytes), 0)::bigint AS storage_bytes
            FROM usage_stripes WHERE account_id = p_account AND period = p_period) s
   WHERE u.account_id = p_account AND u.period = p_period;
  UPDATE usage_stripes SET minutes_allotted = 0, minutes_reserved = 0, calls = 0, storage_bytes = 0
   WHERE account_id = p_account AND period = p_period;
END
$$;

-- Folds the period's stripes if its room went below zero (a settle charged more than was reserved,
-- or the plan was lowered), so no stripe admits on minutes the plan no longer has.
CREATE FUNCTION usage_fold_if_short(p_account uuid, p_period text) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  room bigint;
BEGIN
  SELECT a.plan_minutes::bigint - u.minutes_used - u.minutes_reserved - u.minutes_allotted INTO room
    FROM usage_periods u JOIN accounts a ON a.id = u.account_id
   WHERE u.account_id = p_account AND u.period = p_period AND u.minutes_allotted > 0
     FOR NO KEY UPDATE OF u;
  IF room < 0 THEN
    PERFORM usage_fold(p_account, p_period);
  END IF;
END
$$;

-- Reserves `p_minutes` of the account's plan for one call in `p_period` (and counts the call and its
-- bytes), or answers false when the plan cannot cover them. Fast path: this connection's stripe
-- (pg_backend_pid() % 8: two transactions in flight are two backends) admits within its room,
-- locking only that stripe. Otherwise, under the period row's lock: the period's room, after taking
-- the stripes' grants back when it alone is short, decides exactly; the call is counted on the stripe
-- and the stripe is granted its minutes plus a sixteenth of what is left, for the calls after it.
CREATE FUNCTION usage_reserve(p_account uuid, p_period text, p_minutes integer, p_bytes bigint)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  s smallint := pg_backend_pid() % 8;
  room bigint;
  grant_ integer;
BEGIN
  -- In a subtransaction of its own: an UPDATE that waited for the stripe and then found too little
  -- room keeps the stripe's lock, and waiting for the period row while holding it would deadlock
  -- with a refill or fold (which hold the period row and want the stripe). Rolling the
  -- subtransaction back gives the lock back first.
  BEGIN
    UPDATE usage_stripes
       SET minutes_reserved = minutes_reserved + p_minutes, calls = calls + 1, storage_bytes = storage_bytes + p_bytes
     WHERE account_id = p_account AND period = p_period AND stripe = s
       AND minutes_allotted - minutes_reserved >= p_minutes;
    IF FOUND THEN
      RETURN true;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'EI002', MESSAGE = 'stripe short';
  EXCEPTION WHEN SQLSTATE 'EI002' THEN
    NULL;
  END;
  INSERT INTO usage_periods (account_id, period) VALUES (p_account, p_period) ON CONFLICT DO NOTHING;
  SELECT a.plan_minutes::bigint - u.minutes_used - u.minutes_reserved - u.minutes_allotted INTO room
    FROM usage_periods u JOIN accounts a ON a.id = u.account_id
   WHERE u.account_id = p_account AND u.period = p_period
     FOR NO KEY UPDATE OF u;
  IF room < p_minutes THEN
    PERFORM usage_fold(p_account, p_period);
    SELECT a.plan_minutes::bigint - u.minutes_used - u.minutes_reserved - u.minutes_allotted INTO room
      FROM usage_periods u JOIN accounts a ON a.id = u.account_id
     WHERE u.account_id = p_account AND u.period = p_period;
    IF room IS NULL OR room < p_minutes THEN
      RETURN false;
    END IF;
  END IF;
  grant_ := least(room, p_minutes + (room - p_minutes) / 16);
  INSERT INTO usage_stripes AS t (account_id, period, stripe, minutes_allotted, minutes_reserved, calls, storage_bytes)
  VALUES (p_account, p_period, s, grant_, p_minutes, 1, p_bytes)
  ON CONFLICT (account_id, period, stripe) DO UPDATE
     SET minutes_allotted = t.minutes_allotted + excluded.minutes_allotted,
         minutes_reserved = t.minutes_reserved + excluded.minutes_reserved,
         calls = t.calls + 1,
         storage_bytes = t.storage_bytes + excluded.storage_bytes;
  UPDATE usage_periods SET minutes_allotted = minutes_allotted + grant_
   WHERE account_id = p_account AND period = p_period;
  RETURN true;
END
$$;

-- A lowered plan takes back every grant of the account's periods (the stripes were granted minutes
-- of the higher plan). Raising it needs nothing: the grants stay within it.
CREATE FUNCTION accounts_plan_lowered() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text;
BEGIN
  FOR p IN SELECT period FROM usage_periods WHERE account_id = NEW.id AND minutes_allotted > 0
             ORDER BY period FOR NO KEY UPDATE LOOP
    PERFORM usage_fold(NEW.id, p);
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_plan_lowered AFTER UPDATE OF plan_minutes ON accounts
  FOR EACH ROW WHEN (NEW.plan_minutes < OLD.plan_minutes) EXECUTE FUNCTION accounts_plan_lowered();
