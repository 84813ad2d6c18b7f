-- The calls list filters by a failed criterion (`criteria @> '[{"key": …, "result": "failed"}]'`);
-- a GIN index over the criteria array answers that containment without reading every call.
CREATE INDEX calls_criteria_idx ON calls USING gin (criteria jsonb_path_ops);
