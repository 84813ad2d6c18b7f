-- Intake writes a call, its reservation, ledger entry, history row and transcription job in one
-- statement outside any interactive transaction (src/intake/intake-sql.ts). When the plan cannot
-- cover the reservation, the statement must leave nothing behind: it calls this, which raises, so
-- the whole statement rolls back. The reason is the message; intake turns it into its JSON error.
CREATE FUNCTION intake_refuse(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason, HINT = 'intake_refused';
END
$$;
