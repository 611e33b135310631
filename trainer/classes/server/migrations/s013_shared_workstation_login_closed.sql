CREATE TABLE shared_login_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event text NOT NULL CHECK (event IN ('closed', 'opened')),
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    done_by text NOT NULL DEFAULT session_user
);
ALTER TABLE shared_login_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE shared_login_events FORCE ROW LEVEL SECURITY;
CREATE POLICY shared_login_events_owner ON shared_login_events TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY shared_login_events_staff ON shared_login_events FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON shared_login_events FROM PUBLIC;
GRANT SELECT ON shared_login_events TO class_instructor, class_supervisor;
CREATE TRIGGER shared_login_events_append_only BEFORE UPDATE OR DELETE ON shared_login_events FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER shared_login_events_no_truncate BEFORE TRUNCATE ON shared_login_events FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION shared_login_closed() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce((SELECT event = 'closed' FROM shared_login_events ORDER BY id DESC LIMIT 1), false)
$$;
CREATE FUNCTION enrolled_workstation(login_name text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT FROM (SELECT DISTINCT ON (name) login, event FROM workstation_logins
                                ORDER BY name, id DESC) AS last
                   WHERE last.login = login_name AND last.event = 'enrolled')
$$;
CREATE FUNCTION refuse_shared_login() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF shared_login_closed()
            AND pg_has_role(session_user, 'class_workstation', 'MEMBER')
            AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
            AND NOT enrolled_workstation(session_user) THEN
        RAISE EXCEPTION 'the shared workstation login is closed in this class: only the workstations '
            'the instructor enrolled, each with a login of its own, send results and start exams'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER trainees_shared_login BEFORE INSERT ON trainees FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE TRIGGER attempts_shared_login BEFORE INSERT ON attempts FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE TRIGGER exam_starts_shared_login BEFORE INSERT ON exam_starts FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE TRIGGER exam_sitting_uses_shared_login BEFORE INSERT ON exam_sitting_uses FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE TRIGGER exam_sitting_steps_shared_login BEFORE INSERT ON exam_sitting_steps FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE TRIGGER exam_sitting_refusals_shared_login BEFORE INSERT ON exam_sitting_refusals FOR EACH STATEMENT EXECUTE FUNCTION refuse_shared_login();
CREATE FUNCTION close_shared_login() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    enrolled text[];
    login_name text;
BEGIN
    -- one change at a time, and none while a workstation is enrolled or revoked: locks no other
    -- login can take or hold (the staff may only read these tables)
    LOCK TABLE shared_login_events IN SHARE ROW EXCLUSIVE MODE;
    LOCK TABLE workstation_logins IN SHARE ROW EXCLUSIVE MODE;
    IF shared_login_closed() THEN
        RAISE EXCEPTION 'the shared workstation login is closed already' USING ERRCODE = 'no_data_found';
    END IF;
    SELECT array_agg(last.login ORDER BY last.name) INTO enrolled
        FROM (SELECT DISTINCT ON (name) name, login, event FROM workstation_logins ORDER BY name, id DESC) AS last
        WHERE last.event = 'enrolled';
    IF enrolled IS NULL THEN
        RAISE EXCEPTION 'no workstation is enrolled in this class: enrol every workstation (each with a '
            'login of its own) before closing the shared workstation login, or every workstation stops'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- each enrolled workstation connects with a right of its own; the shared login's group no more
    FOREACH login_name IN ARRAY enrolled LOOP
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
    END LOOP;
    EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM class_workstation', current_database());
    INSERT INTO shared_login_events (event) VALUES ('closed');
    RETURN cardinality(enrolled);
END $$;
CREATE FUNCTION open_shared_login() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    LOCK TABLE shared_login_events IN SHARE ROW EXCLUSIVE MODE;
    IF NOT shared_login_closed() THEN
        RAISE EXCEPTION 'the shared workstation login is open already' USING ERRCODE = 'no_data_found';
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO class_workstation', current_database());
    INSERT INTO shared_login_events (event) VALUES ('opened');
END $$;
CREATE OR REPLACE FUNCTION enrol_workstation(station text, verifier text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    IF NOT canonical_name(station) OR length(station) > 100 THEN
        RAISE EXCEPTION 'the workstation name % is not written as the class writes names (no '
            'invisible characters, single spaces, at most 100 characters)',
            quote_literal(coalesce(station, '')) USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF verifier IS NULL OR verifier !~ '^SCRAM-SHA-256[$]' THEN
        RAISE EXCEPTION 'a workstation''s password reaches the class server as its SCRAM verifier only'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    LOCK TABLE workstation_logins IN SHARE ROW EXCLUSIVE MODE;
    SELECT login INTO login_name FROM workstation_logins WHERE name = station ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        login_name := 'workstation_' || left(md5((SELECT uid FROM class_info) || chr(10) || station), 24);
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN  -- enrolled again, or restored
        BEGIN
            EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login_name, verifier);
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE EXCEPTION 'the login % is on this PostgreSQL already, and not the class''s '
                'to change: an administrator of the server removes it, then the workstation is '
                'enrolled again', login_name USING ERRCODE = 'invalid_parameter_value';
        END;
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L', login_name, verifier);
    END IF;
    EXECUTE format('GRANT class_workstation TO %I', login_name);
    -- a right of its own to connect: it joins whether the shared login is open or closed
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
    INSERT INTO workstation_logins (name, login, event) VALUES (station, login_name, 'enrolled');
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION shared_login_closed() FROM PUBLIC;
REVOKE ALL ON FUNCTION enrolled_workstation(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION refuse_shared_login() FROM PUBLIC;
REVOKE ALL ON FUNCTION close_shared_login() FROM PUBLIC;
REVOKE ALL ON FUNCTION open_shared_login() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION shared_login_closed() TO class_instructor, class_supervisor;
GRANT EXECUTE ON FUNCTION close_shared_login() TO class_instructor;
GRANT EXECUTE ON FUNCTION open_shared_login() TO class_instructor
