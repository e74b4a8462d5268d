-- code_entry_begin (0043) counts an address's failed and in-flight entries on a plan its connection
-- makes once and keeps. Made while code_attempt was small, that plan reads the whole table, which
-- keeps every address's entries of a day: in bench:task (issue 33 §3) the count read 500 pages an
-- entry after 2,000 students of one school. The partial index of 0044 holds exactly the rows it
-- counts: the count looks them up there, whatever plan the table's statistics would favour (as 0049
-- does for the statistics functions).
ALTER FUNCTION code_entry_begin(text, timestamptz, timestamptz) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
