-- Issue 31.1–31.2: calibration sessions (several graders score the same calls blind, then compare)
-- and how often people agree with the machine, per criterion.

-- Percent of checked verdicts the machine must get right before a criterion is flagged (dashboard, template editor).
ALTER TABLE accounts ADD COLUMN machine_agreement_threshold integer NOT NULL DEFAULT 80;

CREATE TABLE calibration_sessions (
  id            uuid PRIMARY KEY,
  account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
  name          text NOT NULL,
  template_id   uuid REFERENCES templates(id) ON DELETE SET NULL ON UPDATE CASCADE,
  -- The template's criteria ({key, label}) when the session was made: what every grader answers.
  criteria      jsonb NOT NULL,
  -- open | closed
  status        text NOT NULL DEFAULT 'open',
  created_by_id uuid REFERENCES users(id) ON DELETE SET NULL ON UPDATE CASCADE,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  closed_at     timestamptz(3),
  -- When the manager applied the benchmark's answers to the calls as overrides.
  applied_at    timestamptz(3)
);
CREATE INDEX calibration_sessions_account_id_created_at_idx ON calibration_sessions (account_id, created_at);

CREATE TABLE calibration_calls (
  session_id uuid NOT NULL REFERENCES calibration_sessions(id) ON DELETE CASCADE ON UPDATE CASCADE,
  call_id    uuid NOT NULL REFERENCES calls(id) ON DELETE CASCADE ON UPDATE CASCADE,
  position   integer NOT NULL,
  -- The machine's answer per criterion key when the session closed (what graders are compared with).
  machine    jsonb,
  PRIMARY KEY (session_id, call_id)
);
CREATE INDEX calibration_calls_call_id_idx ON calibration_calls (call_id);

CREATE TABLE calibration_graders (
  session_id   uuid NOT NULL REFERENCES calibration_sessions(id) ON DELETE CASCADE ON UPDATE CASCADE,
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE ON UPDATE CASCADE,
  benchmark    boolean NOT NULL DEFAULT false,
  -- Set when this grader has answered every criterion of every call.
  submitted_at timestamptz(3),
  PRIMARY KEY (session_id, user_id)
);
CREATE INDEX calibration_graders_user_id_idx ON calibration_graders (user_id);

CREATE TABLE calibration_answers (
  session_id    uuid NOT NULL,
  call_id       uuid NOT NULL,
  user_id       uuid NOT NULL,
  criterion_key text NOT NULL,
  -- passed | failed | na
  result        text NOT NULL,
  updated_at    timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, call_id, user_id, criterion_key),
  FOREIGN KEY (session_id, call_id) REFERENCES calibration_calls(session_id, call_id) ON DELETE CASCADE ON UPDATE CASCADE,
  FOREIGN KEY (session_id, user_id) REFERENCES calibration_graders(session_id, user_id) ON DELETE CASCADE ON UPDATE CASCADE
);

-- Every verdict a person gave on a criterion of a call, against the machine's, one row per call and
-- criterion: the call's own word first (an override, kept in the criterion's auto_result, or a
-- resolved dispute, whose rejection leaves the machine standing), else the latest closed
-- calibration's reference answer (the benchmark's, or the graders' strict majority without one).
-- One definition for the agreement report and the calls list's filter, so the two never disagree.
CREATE FUNCTION human_checks(p_account uuid)
RETURNS TABLE (call_id uuid, criterion_key text, machine text, human text, source text)
LANGUAGE sql STABLE AS $$
  WITH on_call AS (
    SELECT c.id AS call_id, e->>'key' AS criterion_key,
           coalesce(e->>'auto_result', e->>'result') AS machine, e->>'result' AS human,
           CASE WHEN e ? 'auto_result' THEN 'override' ELSE 'dispute' END AS source
      FROM calls c CROSS JOIN LATERAL jsonb_array_elements(c.criteria) e
     WHERE c.account_id = p_account AND jsonb_typeof(c.criteria) = 'array'
       AND (c.reviewed_at IS NOT NULL
            OR c.id IN (SELECT d.call_id FROM disputes d WHERE d.account_id = p_account AND d.status <> 'open'))
       AND (e ? 'auto_result'
            OR EXISTS (SELECT 1 FROM disputes d
                        WHERE d.call_id = c.id AND d.criterion_key = e->>'key' AND d.status <> 'open'))
  ), votes AS (
    SELECT s.id AS session_id, s.closed_at, a.call_id, a.criterion_key, a.result, g.benchmark,
           EXISTS (SELECT 1 FROM calibration_graders b WHERE b.session_id = s.id AND b.benchmark) AS has_benchmark,
           (SELECT count(*) FROM calibration_graders x WHERE x.session_id = s.id AND NOT x.benchmark) AS graders
      FROM calibration_sessions s
      JOIN calibration_answers a ON a.session_id = s.id
      JOIN calibration_graders g ON g.session_id = a.session_id AND g.user_id = a.user_id
     WHERE s.account_id = p_account AND s.status = 'closed'
  ), reference AS (
    SELECT session_id, closed_at, call_id, criterion_key, result FROM votes WHERE benchmark
    UNION ALL
    SELECT session_id, max(closed_at), call_id, criterion_key, result FROM votes
     WHERE NOT benchmark AND NOT has_benchmark
     GROUP BY session_id, call_id, criterion_key, result
    HAVING count(*) * 2 > max(graders)
  ), calibrated AS (
    SELECT DISTINCT ON (r.call_id, r.criterion_key)
           r.call_id, r.criterion_key, cc.machine->>r.criterion_key AS machine, r.result AS human,
           'calibration' AS source
      FROM reference r
      JOIN calibration_calls cc ON cc.session_id = r.session_id AND cc.call_id = r.call_id
     WHERE cc.machine ? r.criterion_key
     ORDER BY r.call_id, r.criterion_key, r.closed_at DESC
  )
  SELECT * FROM on_call
  UNION ALL
  SELECT k.* FROM calibrated k
   WHERE NOT EXISTS (SELECT 1 FROM on_call o WHERE o.call_id = k.call_id AND o.criterion_key = k.criterion_key)
$$;
