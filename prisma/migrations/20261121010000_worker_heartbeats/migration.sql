-- graphile-worker keeps a crashed worker's jobs locked for four hours. Each worker process records
-- its worker ids here every few seconds; others unlock the jobs of ids whose heartbeat went stale.
CREATE TABLE worker_heartbeats (
  worker_id text NOT NULL PRIMARY KEY,
  last_seen_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
