-- Issue 33 §3: a code entry's start in one round trip (assessments/respondent.ts, limitedEntry).
-- Under the address's transaction lock: record the entry (in flight, ok null) and count the
-- address's failed and in-flight entries before it within the window. Each query of a volatile
-- function takes a fresh snapshot, so the count sees every entry committed before the lock was
-- granted, as the separate count statement after the insert's commit did. The transaction commits
-- without waiting for its WAL flush (synchronous_commit off for it alone): the lock is held only
-- while the rows are written, and a crash can lose no more than the last moment's attempts of a
-- rate limit.
CREATE FUNCTION code_entry_begin(p_ip text, p_at timestamptz, p_since timestamptz, OUT attempt bigint, OUT failed bigint, OUT in_flight bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(3, hashtext(p_ip));
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO code_attempt (ip, at, ok) VALUES (p_ip, p_at, NULL) RETURNING id INTO attempt;
  SELECT count(*) FILTER (WHERE ok = false), count(*) FILTER (WHERE ok IS NULL) INTO failed, in_flight
    FROM code_attempt
    WHERE ip = p_ip AND (ok IS NULL OR ok = false) AND at > p_since AND id < attempt;
END $$;
