-- intake_refuse() raises with a SQLSTATE of its own (class EI, "Escucha intake"; PostgreSQL uses no
-- class starting with E), so intake recognises its refusal by the error's code rather than by reading
-- the text of a generic P0001 that any other RAISE could also produce.
CREATE OR REPLACE FUNCTION intake_refuse(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'EI001', MESSAGE = reason, HINT = 'intake_refused';
END
$$;
