-- s023's step charged an exam's answers to the login that sent them, so a trainee who spent a
-- workstation's (or the shared login's) quota had a classmate's honest answers at it refused. A
-- sitting's answers are bounded by the sitting itself (its n + 2 steps, each answer's log of
-- 262,144 bytes and 2,000 actions at most, 100 refusals: s012, s023), and sittings by the
-- instructor who issues them: exam_sitting_step charges no login's quota now
CREATE OR REPLACE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF what = 'answer' AND octet_length(given) > 262144 THEN
        RAISE EXCEPTION 'an answer''s log is % bytes, more than the 262,144 an item''s log may hold',
            octet_length(given);
    END IF;
    IF what = 'answer' AND pg_input_is_valid(given, 'jsonb') AND jsonb_typeof(given::jsonb) = 'array'
            AND jsonb_array_length(given::jsonb) > 2000 THEN
        RAISE EXCEPTION 'an answer''s log is % actions, more than the 2,000 an item''s log may hold',
            jsonb_array_length(given::jsonb);
    END IF;
    RETURN exam_sitting_step_timed(sitting, at_step, proof, what, item, given, how);
END $$;
REVOKE ALL ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text)
    TO class_trainee, class_instructor, class_supervisor, class_workstation;
-- the instructor gives a login its quota again: what it had the class keep until then no longer
-- counts (login_storage and its totals only grow: the login's quota grows by what it held),
-- with a reason, insert-only, read by the staff
CREATE TABLE login_quota_resets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    login text NOT NULL,
    rows bigint NOT NULL CHECK (rows >= 0),
    bytes bigint NOT NULL CHECK (bytes >= 0),
    reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500 AND reason !~ '[[:cntrl:]]'),
    recorded double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    by_login text NOT NULL DEFAULT session_user
);
CREATE INDEX login_quota_resets_by_login ON login_quota_resets (login) INCLUDE (rows, bytes);
ALTER TABLE login_quota_resets ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_quota_resets FORCE ROW LEVEL SECURITY;
CREATE POLICY login_quota_resets_owner ON login_quota_resets TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY login_quota_resets_staff ON login_quota_resets FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON login_quota_resets FROM PUBLIC;
GRANT SELECT ON login_quota_resets TO class_instructor, class_supervisor;
CREATE TRIGGER login_quota_resets_append_only BEFORE UPDATE OR DELETE ON login_quota_resets FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER login_quota_resets_no_truncate BEFORE TRUNCATE ON login_quota_resets FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- a login's quota: 50,000 rows and 256 MiB, ten times that for a shared workstation login (the
-- class-server's `workstation`, or a class's own, s024), plus what it held at each reset
CREATE OR REPLACE FUNCTION login_quota(login_name text, OUT rows bigint, OUT bytes bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE WHEN shared THEN 500000 ELSE 50000 END::bigint + r.rows,
           CASE WHEN shared THEN 2684354560 ELSE 268435456 END::bigint + r.bytes
    FROM (SELECT login_name = 'workstation'
                 OR EXISTS (SELECT 1 FROM class_logins l WHERE l.login = login_name AND l.kind = 'workstation')
          AS shared) AS s,
         (SELECT coalesce(sum(q.rows), 0)::bigint AS rows, coalesce(sum(q.bytes), 0)::bigint AS bytes
          FROM login_quota_resets q WHERE q.login = login_name) AS r
$$;
REVOKE ALL ON FUNCTION login_quota(text) FROM PUBLIC;
-- reset the quota of the enrolled workstation `station`, or (NULL) of the shared workstation
-- login: the login's name, with the rows and bytes it no longer counts
CREATE FUNCTION reset_login_quota(station text, why text, OUT login text, OUT rows bigint, OUT bytes bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    held record;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login resets a login''s quota' USING ERRCODE = 'insufficient_privilege';
    END IF;
    why := btrim(regexp_replace(coalesce(why, ''), '[[:space:][:cntrl:]]+', ' ', 'g'));
    IF why = '' THEN
        RAISE EXCEPTION 'resetting a quota needs a reason';
    END IF;
    IF length(why) > 500 THEN
        RAISE EXCEPTION 'a reason is at most 500 characters, not %', length(why);
    END IF;
    IF station IS NULL THEN
        login := coalesce((SELECT l.login FROM class_logins l WHERE l.kind = 'workstation' ORDER BY l.at LIMIT 1),
                          'workstation');
    ELSE
        SELECT w.login INTO login FROM workstation_logins w WHERE w.name = station ORDER BY w.id DESC LIMIT 1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no workstation named % is enrolled in the class', left(station, 100)
                USING ERRCODE = 'no_data_found';
        END IF;
    END IF;
    LOCK TABLE login_quota_resets IN SHARE ROW EXCLUSIVE MODE;  -- one reset at a time: none counted twice
    SELECT coalesce(sum(s.rows), 0)::bigint AS rows, coalesce(sum(s.bytes), 0)::bigint AS bytes
        INTO held FROM login_storage s WHERE s.login = reset_login_quota.login;
    rows := held.rows - (SELECT coalesce(sum(q.rows), 0) FROM login_quota_resets q WHERE q.login = reset_login_quota.login);
    bytes := held.bytes - (SELECT coalesce(sum(q.bytes), 0) FROM login_quota_resets q WHERE q.login = reset_login_quota.login);
    INSERT INTO login_quota_resets (login, rows, bytes, reason) VALUES (login, rows, bytes, why);
END $$;
REVOKE ALL ON FUNCTION reset_login_quota(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION reset_login_quota(text, text) TO class_instructor
