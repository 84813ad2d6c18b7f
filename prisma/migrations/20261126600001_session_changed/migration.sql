-- Sessions are kept in memory by every api process (src/auth/session-cache.ts). Whatever could end
-- or change one tells them at once: a session updated (its sliding expiry) or deleted (signing
-- out, expiry clean-up, a password change), by its token hash; a user updated (role, agent link,
-- removal, name) or deleted (with the account too, by cascade), by user id.
CREATE FUNCTION notify_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('session_changed', 's:' || OLD.token_hash);
  ELSE
    PERFORM pg_notify('session_changed', 'u:' || OLD.id::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_notify_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_session_changed();
CREATE TRIGGER users_notify_session_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_session_changed();
