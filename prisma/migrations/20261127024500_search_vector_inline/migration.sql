-- Issue 30.3: a search checks search_vector on every call it meets (the list's walk of the date
-- index for a common word, the capped count). Stored EXTENDED, the vector (~600 bytes, which pglz
-- cannot shrink) was the column moved out of line whenever a call's row passed 2 kB, so about half
-- the checks read the TOAST table too: 1,000 matches of a word in one call of five cost 40 ms.
-- MAIN keeps it in the row; the transcript's segments (read for one call's page or 25 snippets)
-- go out of line instead. Rows are stored this way when written from now on: calls written before
-- keep their layout until updated (re-analysis rewrites them; `UPDATE calls SET search_text =
-- search_text` rewrites all at once, see docs/benchmarks/scale.md).
ALTER TABLE calls ALTER COLUMN search_vector SET STORAGE MAIN;
