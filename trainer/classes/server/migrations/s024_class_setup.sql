-- A class on a PostgreSQL it shares with other classes: the group roles are the cluster's, so
-- no group is given the right to connect to a class's database; each login of the class is
CREATE TABLE class_logins (
    login text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('instructor', 'supervisor', 'workstation')),
    at double precision NOT NULL DEFAULT extract(epoch FROM now())
);
ALTER TABLE class_logins ENABLE ROW LEVEL SECURITY;
ALTER TABLE class_logins FORCE ROW LEVEL SECURITY;
CREATE POLICY class_logins_owner ON class_logins TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY class_logins_staff ON class_logins FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON class_logins FROM PUBLIC;
GRANT SELECT ON class_logins TO class_instructor, class_supervisor;
CREATE TRIGGER class_logins_append_only BEFORE UPDATE OR DELETE ON class_logins FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER class_logins_no_truncate BEFORE TRUNCATE ON class_logins FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- the shared workstation login of a class with logins of its own is that login, not the group
-- every class's workstations are in: closing and opening it take and give that login's right
ALTER FUNCTION close_shared_login() RENAME TO close_shared_login_group;
REVOKE ALL ON FUNCTION close_shared_login_group() FROM PUBLIC, class_instructor;
CREATE FUNCTION close_shared_login() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    enrolled integer;
    login_name text;
BEGIN
    enrolled := close_shared_login_group();
    FOR login_name IN SELECT login FROM class_logins WHERE kind = 'workstation' LOOP
        EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM %I', current_database(), login_name);
    END LOOP;
    RETURN enrolled;
END $$;
REVOKE ALL ON FUNCTION close_shared_login() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION close_shared_login() TO class_instructor;
CREATE OR REPLACE FUNCTION open_shared_login() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    LOCK TABLE shared_login_events IN SHARE ROW EXCLUSIVE MODE;
    IF NOT shared_login_closed() THEN
        RAISE EXCEPTION 'the shared workstation login is open already' USING ERRCODE = 'no_data_found';
    END IF;
    IF EXISTS (SELECT FROM class_logins WHERE kind = 'workstation') THEN
        FOR login_name IN SELECT login FROM class_logins WHERE kind = 'workstation' LOOP
            EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
        END LOOP;
    ELSE  -- a class alone on its PostgreSQL (class-server): its group is its own
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO class_workstation', current_database());
    END IF;
    INSERT INTO shared_login_events (event) VALUES ('opened');
END $$;
-- a workstation enrolled before the shared login could be closed connected through the group:
-- it is given a right of its own, so that a class that moves to logins of its own keeps it
DO $$
DECLARE
    login_name text;
BEGIN
    FOR login_name IN SELECT last.login FROM (SELECT DISTINCT ON (name) login, event
                                              FROM workstation_logins ORDER BY name, id DESC) AS last
                      WHERE last.event = 'enrolled' LOOP
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
    END LOOP;
END $$
