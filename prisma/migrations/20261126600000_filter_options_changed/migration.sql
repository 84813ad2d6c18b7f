-- The calls list's filter options (callFilterOptions) are kept in memory per account by every api
-- process (src/calls/filter-options-cache.ts). Whatever could change the answer tells them at
-- once, by account id: a facet value coming into use or going out of use (a counter row appearing,
-- disappearing, or crossing zero: the counts themselves change with every call and are not part of
-- the answer), and any change to the account's agents, campaigns or templates (names, labels,
-- criteria). pg_notify folds repeats within one transaction into one notification.
CREATE FUNCTION notify_filter_options_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('filter_options_changed', OLD.account_id::text);
  ELSE
    PERFORM pg_notify('filter_options_changed', NEW.account_id::text);
    IF TG_OP = 'UPDATE' AND OLD.account_id IS DISTINCT FROM NEW.account_id THEN
      PERFORM pg_notify('filter_options_changed', OLD.account_id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER call_facets_notify_in_use AFTER INSERT OR DELETE ON call_facets
  FOR EACH ROW EXECUTE FUNCTION notify_filter_options_changed();
CREATE TRIGGER call_facets_notify_zero AFTER UPDATE ON call_facets
  FOR EACH ROW WHEN ((OLD.calls > 0) IS DISTINCT FROM (NEW.calls > 0) OR OLD.account_id IS DISTINCT FROM NEW.account_id)
  EXECUTE FUNCTION notify_filter_options_changed();
CREATE TRIGGER agents_notify_filter_options AFTER INSERT OR UPDATE OR DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION notify_filter_options_changed();
CREATE TRIGGER campaigns_notify_filter_options AFTER INSERT OR UPDATE OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION notify_filter_options_changed();
CREATE TRIGGER templates_notify_filter_options AFTER INSERT OR UPDATE OR DELETE ON templates
  FOR EACH ROW EXECUTE FUNCTION notify_filter_options_changed();
