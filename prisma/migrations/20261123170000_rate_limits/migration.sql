-- Counters of the intake and sign-in limiters (rate-limiter-flexible's Postgres store), shared by
-- every api process so N processes enforce one limit. `key` is the limiter's prefix and the counted
-- key (account id, IP, email|IP); `expire` is when the window ends, in epoch milliseconds.
-- Created here rather than by the library at run time; hourly housekeeping deletes ended windows.
CREATE TABLE rate_limits (
  key text NOT NULL PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
