-- What PostgreSQL gives every login (PUBLIC) that a login could fill or hold for the others; the
-- cluster's own objects, which the superuser alone may change
RESET ROLE;
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = 'pg_catalog'::regnamespace
               AND (p.proname ~ '^lo_' OR p.proname IN ('loread', 'lowrite')  -- large objects
                    OR p.proname ~ '^pg_(try_)?advisory_'                     -- advisory locks
                    OR p.proname = 'pg_notify')                                -- the NOTIFY queue
    LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    END LOOP;
END $$;
-- the large objects a login made before: the class keeps none
SELECT lo_unlink(oid) FROM pg_largeobject_metadata;
-- announce_attempt notifies as the owner (within push_attempts); revoke_workstation ends the
-- sessions of the login it revokes; the instructor connects when every other slot is taken
GRANT EXECUTE ON FUNCTION pg_notify(text, text) TO class_owner;
GRANT pg_signal_backend TO class_owner;
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pg_use_reserved_connections') THEN  -- 16 on
        GRANT pg_use_reserved_connections TO class_instructor;
    END IF;
END $$;
-- a trainee's or workstation's login holds a few connections at most
DO $$
DECLARE
    login_name text;
BEGIN
    FOR login_name IN SELECT login FROM trainee_logins UNION SELECT login FROM workstation_logins LOOP
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN
            EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 4', login_name);
        END IF;
    END LOOP;
END $$;
SET ROLE class_owner;
-- the logins the class makes from now on hold a few connections at most
ALTER FUNCTION class_login(text, text) RENAME TO class_login_unlimited;
REVOKE ALL ON FUNCTION class_login_unlimited(text, text) FROM PUBLIC, class_instructor;
CREATE FUNCTION class_login(trainee text, verifier text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    login_name := class_login_unlimited(trainee, verifier);
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 4', login_name);
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION class_login(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_login(text, text) TO class_instructor;
ALTER FUNCTION enrol_workstation(text, text) RENAME TO enrol_workstation_unlimited;
REVOKE ALL ON FUNCTION enrol_workstation_unlimited(text, text) FROM PUBLIC, class_instructor;
CREATE FUNCTION enrol_workstation(station text, verifier text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    login_name := enrol_workstation_unlimited(station, verifier);
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 4', login_name);
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION enrol_workstation(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION enrol_workstation(text, text) TO class_instructor;
-- a revoked workstation's open sessions end with its revocation
ALTER FUNCTION revoke_workstation(text) RENAME TO revoke_workstation_only;
REVOKE ALL ON FUNCTION revoke_workstation_only(text) FROM PUBLIC, class_instructor;
CREATE FUNCTION revoke_workstation(station text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    login_name := revoke_workstation_only(station);
    PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = login_name;
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION revoke_workstation(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION revoke_workstation(text) TO class_instructor;
-- a full NOTIFY queue (a login listening in a transaction it keeps open) fails no push: past
-- half full, attempts are not announced (the Class view reads them at its next refresh)
CREATE OR REPLACE FUNCTION announce_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_notification_queue_usage() < 0.5 THEN
        PERFORM pg_notify((SELECT channel FROM public.class_info), NEW.id::text);
    END IF;
    RETURN NULL;
END $$
