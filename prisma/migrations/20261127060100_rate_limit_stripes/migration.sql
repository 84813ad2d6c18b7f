-- Issue 29.5: every intake request of an account counted on its one rate_limits row (key
-- `intake:<account id>`), so its requests queued on that row's lock. rate_take() counts them on one of
-- 8 stripes instead, and stays exact ("N per minute", across every api process) the way usage_reserve
-- does for minutes: a stripe admits only requests its window's row granted it, and the row counts
-- every grant as used. Grants come, under the row's lock, only out of what the window has left
-- (limit - points); when that is not enough, the stripes' unused grants are taken back first, so a
-- refusal means the window's requests truly reached the limit. Near the limit grants shrink to one
-- request: serialised there, as before. Windows are timed by the database's clock, one clock for
-- every process: a stripe belongs to the window whose end (`expire`) it carries and is dead after it.
CREATE TABLE rate_limit_stripes (
  key      text     NOT NULL,
  stripe   smallint NOT NULL,
  -- The end of the window it was granted for (epoch milliseconds, the row's `expire` then).
  expire   bigint   NOT NULL,
  -- Requests granted by the row for that window, and those counted on this stripe.
  allotted integer  NOT NULL DEFAULT 0,
  points   integer  NOT NULL DEFAULT 0,
  CONSTRAINT rate_limit_stripes_pkey PRIMARY KEY (key, stripe),
  CONSTRAINT rate_limit_stripes_key_fkey FOREIGN KEY (key) REFERENCES rate_limits (key) ON DELETE CASCADE ON UPDATE CASCADE
);

-- Counts one request of `p_key` against `p_limit` per window of `p_duration_ms`. Answers the window's
-- end and `points`: at most p_limit when the request is within the limit, above it when refused
-- (a refused request is counted too, so the window stays past its limit until it ends).
CREATE FUNCTION rate_take(p_key text, p_limit integer, p_duration_ms bigint, OUT points integer, OUT expire bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  s smallint := pg_backend_pid() % 8;
  now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  room bigint;
  grant_ integer;
BEGIN
  -- Fast path, in a subtransaction for the reason given in usage_reserve (migration usage_stripes).
  BEGIN
    UPDATE rate_limit_stripes t SET points = t.points + 1
     WHERE t.key = p_key AND t.stripe = s AND t.expire > now_ms AND t.points < t.allotted
    RETURNING t.points, t.expire INTO points, expire;
    IF FOUND THEN
      -- Within its grant, so within the limit (its own count is only a lower bound of the window's).
      RETURN;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'EI002', MESSAGE = 'stripe short';
  EXCEPTION WHEN SQLSTATE 'EI002' THEN
    NULL;
  END;
  -- The row's lock; an ended window restarts with nothing granted (its stripes are dead with it).
  INSERT INTO rate_limits AS r (key, points, expire) VALUES (p_key, 0, now_ms + p_duration_ms)
  ON CONFLICT (key) DO UPDATE
     SET points = CASE WHEN coalesce(r.expire, 0) <= now_ms THEN 0 ELSE r.points END,
         expire = CASE WHEN coalesce(r.expire, 0) <= now_ms THEN now_ms + p_duration_ms ELSE r.expire END
  RETURNING r.points, r.expire INTO points, expire;
  room := p_limit::bigint - points;
  IF room < 1 THEN
    PERFORM 1 FROM rate_limit_stripes t WHERE t.key = p_key ORDER BY t.stripe FOR UPDATE;
    UPDATE rate_limits r
       SET points = r.points - coalesce((SELECT sum(t.allotted - t.points) FROM rate_limit_stripes t
                                          WHERE t.key = p_key AND t.expire = r.expire), 0)
     WHERE r.key = p_key
    RETURNING r.points INTO points;
    UPDATE rate_limit_stripes t SET allotted = t.points WHERE t.key = p_key AND t.expire = rate_take.expire;
    room := p_limit::bigint - points;
  END IF;
  IF room < 1 THEN
    UPDATE rate_limits r SET points = r.points + 1 WHERE r.key = p_key RETURNING r.points INTO points;
    RETURN;
  END IF;
  grant_ := least(room, 1 + (room - 1) / 16);
  INSERT INTO rate_limit_stripes AS t (key, stripe, expire, allotted, points)
  VALUES (p_key, s, rate_take.expire, grant_, 1)
  ON CONFLICT (key, stripe) DO UPDATE
     SET allotted = CASE WHEN t.expire = excluded.expire THEN t.allotted + excluded.allotted ELSE excluded.allotted END,
         points = CASE WHEN t.expire = excluded.expire THEN t.points + 1 ELSE 1 END,
         expire = excluded.expire;
  UPDATE rate_limits r SET points = r.points + grant_ WHERE r.key = p_key RETURNING r.points INTO points;
END
$$;
