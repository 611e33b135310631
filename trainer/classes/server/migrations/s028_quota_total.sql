-- s023's quota read the sum of every row login_storage holds for the caller's login at each push
-- or step: a push's cost grew with the login's pushes (8 ms on a fresh class, 19-22 ms after
-- 3,000). The sums are kept instead, one row per login, brought up to date by charge_login in the
-- transaction of the push or step it charges; login_storage keeps its row of each as before
CREATE TABLE login_totals (
    login text PRIMARY KEY,
    rows bigint NOT NULL CHECK (rows >= 0),
    bytes bigint NOT NULL CHECK (bytes >= 0)
);
ALTER TABLE login_totals ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_totals FORCE ROW LEVEL SECURITY;
CREATE POLICY login_totals_owner ON login_totals TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY login_totals_staff ON login_totals FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON login_totals FROM PUBLIC;
GRANT SELECT ON login_totals TO class_instructor, class_supervisor;
CREATE TRIGGER login_totals_no_truncate BEFORE TRUNCATE ON login_totals FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- a total is never taken back: it only grows, by what its login had the class keep
CREATE FUNCTION refuse_smaller_total() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.login IS DISTINCT FROM OLD.login OR NEW.rows < OLD.rows OR NEW.bytes < OLD.bytes THEN
        RAISE EXCEPTION 'what a login has had the class keep is never taken back' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION refuse_smaller_total() FROM PUBLIC;
CREATE TRIGGER login_totals_only_grow BEFORE UPDATE OR DELETE ON login_totals FOR EACH ROW EXECUTE FUNCTION refuse_smaller_total();
INSERT INTO login_totals (login, rows, bytes)
    SELECT login, sum(rows), sum(bytes) FROM login_storage GROUP BY login;
-- what the caller's login has had stored, and may: its total's row
CREATE OR REPLACE FUNCTION login_stored(OUT rows bigint, OUT bytes bigint, OUT quota_rows bigint, OUT quota_bytes bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce(t.rows, 0)::bigint, coalesce(t.bytes, 0)::bigint, q.rows, q.bytes
    FROM login_quota(session_user) AS q LEFT JOIN login_totals t ON t.login = session_user
$$;
-- s023's charge, the refusal in the same words, against the login's total: its row is locked
-- (FOR UPDATE) until the push or step commits, so two pushes of one login are counted one after
-- the other and never both pass the quota on the same total. Only a push of the same login waits
-- (a login holds no row of another's); a session that holds it is ended by the class's watch
-- (trainer.classes.server.sessions)
CREATE OR REPLACE FUNCTION charge_login(what text, new_rows bigint, new_bytes bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    held login_totals;
    quota record;
BEGIN
    IF new_rows <= 0 OR pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RETURN;
    END IF;
    SELECT * INTO held FROM login_totals WHERE login = session_user FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO login_totals (login, rows, bytes) VALUES (session_user, 0, 0) ON CONFLICT (login) DO NOTHING;
        SELECT * INTO held FROM login_totals WHERE login = session_user FOR UPDATE;
    END IF;
    SELECT * INTO quota FROM login_quota(session_user);
    IF held.rows + new_rows > quota.rows OR held.bytes + new_bytes > quota.bytes THEN
        RAISE EXCEPTION 'the class keeps no more from login %: it holds % rows (% bytes) from it, '
            'and a login may have it keep % rows (% bytes); these % would pass that',
            session_user, held.rows, held.bytes, quota.rows, quota.bytes, what;
    END IF;
    UPDATE login_totals SET rows = rows + new_rows, bytes = bytes + new_bytes WHERE login = session_user;
    INSERT INTO login_storage (what, rows, bytes) VALUES (what, new_rows, new_bytes);
END $$;
REVOKE ALL ON FUNCTION charge_login(text, bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION login_stored() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION login_stored() TO class_trainee, class_instructor, class_supervisor, class_workstation;
-- the shared workstation login of a class with logins of its own (s024, `<class>_workstation`)
-- serves every workstation not enrolled, as the class-server's `workstation` does: ten times the
-- quota of a trainee's login, as s023 gave that one
CREATE OR REPLACE FUNCTION login_quota(login_name text, OUT rows bigint, OUT bytes bigint)
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
    SELECT CASE WHEN shared THEN 500000 ELSE 50000 END::bigint,
           CASE WHEN shared THEN 2684354560 ELSE 268435456 END::bigint
    FROM (SELECT login_name = 'workstation'
                 OR EXISTS (SELECT 1 FROM class_logins l WHERE l.login = login_name AND l.kind = 'workstation')
          AS shared) AS s
$$
