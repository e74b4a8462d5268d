-- The statistics functions that take a list of keys (0042, 0047) run on plans each connection makes
-- once and keeps (generic plans, for a submission's few keys). A plan made while a table was empty or
-- small reads the whole table and compares each row with every key of the list, so a batch of n keys
-- costs n times the table's rows: a 50,000-row roster import, the first into its table, spent 31 s in
-- stats_person_add (bench/import.ts, issue 33 §2), and a quarter of that at half the rows. Every key
-- they look up is indexed: inside them rows are found by key, whatever plan the table's statistics or
-- the session's settings would favour.
ALTER FUNCTION stats_person_add(text[], int) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
--> statement-breakpoint
ALTER FUNCTION stats_code_add(text[], int) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
--> statement-breakpoint
ALTER FUNCTION stats_report_add(text[], int) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
--> statement-breakpoint
ALTER FUNCTION stats_report_fill(text[]) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
--> statement-breakpoint
ALTER FUNCTION stats_refresh(text[]) SET enable_seqscan = off SET enable_indexscan = on SET enable_bitmapscan = on;
