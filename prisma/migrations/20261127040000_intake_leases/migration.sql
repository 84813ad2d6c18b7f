-- Issue 29.4: INTAKE_MAX_CONCURRENT_PER_KEY counts uploads in flight across every api process. Each
-- upload holds a lease row while its body is received and stored; its process renews its leases
-- while it runs, so the slots of a process that died free themselves when their lease expires.
CREATE TABLE intake_leases (
  id         uuid PRIMARY KEY,
  key_id     uuid NOT NULL,
  -- The api process that holds it (a random id per process), for its renewals.
  holder     text NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX intake_leases_key_id_idx ON intake_leases (key_id);
CREATE INDEX intake_leases_holder_idx ON intake_leases (holder);

-- Takes one of the key's `cap` slots, or answers NULL when they are all held. The key's advisory
-- lock makes count-then-insert one step across processes; a VOLATILE function reads each statement
-- with a fresh snapshot, so the count sees every lease committed while it waited for the lock.
-- Transaction-scoped, so it works through a transaction pooler too.
CREATE FUNCTION take_intake_lease(p_key uuid, p_holder text, p_cap integer, p_ttl_ms integer)
RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lease uuid;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('intake_lease:' || p_key::text, 0));
  DELETE FROM intake_leases WHERE key_id = p_key AND expires_at <= clock_timestamp();
  IF (SELECT count(*) FROM intake_leases WHERE key_id = p_key) >= p_cap THEN
    RETURN NULL;
  END IF;
  INSERT INTO intake_leases (id, key_id, holder, expires_at)
  VALUES (gen_random_uuid(), p_key, p_holder, clock_timestamp() + p_ttl_ms * interval '1 millisecond')
  RETURNING id INTO lease;
  RETURN lease;
END
$$;
