CREATE TABLE workstation_logins (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL CHECK (canonical_name(name) AND length(name) <= 100),
    login text NOT NULL,
    event text NOT NULL CHECK (event IN ('enrolled', 'revoked')),
    at double precision NOT NULL DEFAULT extract(epoch FROM now()),
    done_by text NOT NULL DEFAULT session_user
);
CREATE INDEX workstation_logins_by_name ON workstation_logins (name, id);
ALTER TABLE workstation_logins ENABLE ROW LEVEL SECURITY;
ALTER TABLE workstation_logins FORCE ROW LEVEL SECURITY;
CREATE POLICY workstation_logins_owner ON workstation_logins TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY workstation_logins_staff ON workstation_logins FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON workstation_logins FROM PUBLIC;
GRANT SELECT ON workstation_logins TO class_instructor, class_supervisor;
CREATE TRIGGER workstation_logins_append_only BEFORE UPDATE OR DELETE ON workstation_logins FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER workstation_logins_no_truncate BEFORE TRUNCATE ON workstation_logins FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION enrol_workstation(station text, verifier text) RETURNS text
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
    -- one enrolment at a time, by a lock no other login can take or hold: the staff may only
    -- read the table (ACCESS SHARE, which this mode lets through) and lock none of its rows
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
    INSERT INTO workstation_logins (name, login, event) VALUES (station, login_name, 'enrolled');
    RETURN login_name;
END $$;
CREATE FUNCTION revoke_workstation(station text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    last workstation_logins;
BEGIN
    LOCK TABLE workstation_logins IN SHARE ROW EXCLUSIVE MODE;
    SELECT * INTO last FROM workstation_logins WHERE name = station ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no workstation named % is enrolled in this class',
            quote_literal(coalesce(station, '')) USING ERRCODE = 'no_data_found';
    END IF;
    IF last.event = 'revoked' THEN
        RAISE EXCEPTION 'the workstation % was revoked already', quote_literal(station)
            USING ERRCODE = 'no_data_found';
    END IF;
    -- its connections lose the group's rights at their next statement; it connects no more
    EXECUTE format('REVOKE class_workstation FROM %I', last.login);
    EXECUTE format('ALTER ROLE %I NOLOGIN PASSWORD NULL', last.login);
    INSERT INTO workstation_logins (name, login, event) VALUES (station, last.login, 'revoked');
    RETURN last.login;
END $$;
REVOKE ALL ON FUNCTION enrol_workstation(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION revoke_workstation(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION enrol_workstation(text, text) TO class_instructor;
GRANT EXECUTE ON FUNCTION revoke_workstation(text) TO class_instructor;
CREATE OR REPLACE FUNCTION class_login(trainee text, verifier text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    IF NOT canonical_name(trainee) THEN
        RAISE EXCEPTION 'the name % is not written as the class writes names (no invisible '
            'characters, single spaces)', quote_literal(coalesce(trainee, ''))
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF verifier IS NULL OR verifier !~ '^SCRAM-SHA-256[$]' THEN
        RAISE EXCEPTION 'a trainee''s password reaches the class server as its SCRAM verifier only'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- one login made at a time, by a lock no other login can take or hold (not an advisory
    -- lock, which every login may take for any key)
    LOCK TABLE trainee_logins IN SHARE ROW EXCLUSIVE MODE;
    SELECT login INTO login_name FROM trainee_logins WHERE name = trainee;
    IF FOUND THEN
        EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login_name, verifier);
    ELSE
        login_name := 'trainee_' || left(md5((SELECT uid FROM class_info) || chr(10) || trainee), 24);
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login_name) THEN  -- a class restored
            BEGIN
                EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login_name, verifier);
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'the login % is on this PostgreSQL already, and not the class''s '
                    'to change: an administrator of the server removes it, then the login is '
                    'made again', login_name USING ERRCODE = 'invalid_parameter_value';
            END;
        ELSE
            EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE class_trainee', login_name, verifier);
        END IF;
        INSERT INTO trainee_logins (name, login) VALUES (trainee, login_name);
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), login_name);
    RETURN login_name;
END $$;
CREATE OR REPLACE FUNCTION start_exam_attempt_as_asked(result text, trainee text, form text,
                                                       allowed integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    used integer;
BEGIN
    -- no lock: the attempt's number is unique per trainee and form, so of two starts counted at
    -- once the second waits for the first and counts again. Only a start of the same trainee at
    -- the same form can make it wait, and only a login allowed to start for them makes one.
    LOOP
        IF EXISTS (SELECT 1 FROM exam_starts WHERE result_uid = result) THEN
            RAISE EXCEPTION 'this attempt was already started';
        END IF;
        used := exam_attempts_used(trainee, form);
        IF used >= allowed THEN
            RAISE EXCEPTION '% has used % of the % attempt(s) allowed at this exam (counted by the class server)',
                trainee, used, allowed;
        END IF;
        BEGIN
            INSERT INTO exam_starts (result_uid, trainee_name, form_uid, attempt, started)
                VALUES (result, trainee, form, used + 1, extract(epoch FROM now()));
            RETURN used + 1;
        EXCEPTION WHEN unique_violation THEN
            NULL;  -- counted by another start that came first: count again
        END;
    END LOOP;
END $$;
ALTER TABLE class_info ADD COLUMN channel text NOT NULL
    DEFAULT 'class_attempts_' || replace(gen_random_uuid()::text, '-', '');
REVOKE SELECT ON class_info FROM class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT SELECT (uid, created, one) ON class_info TO class_trainee, class_workstation;
GRANT SELECT ON class_info TO class_instructor, class_supervisor;
CREATE OR REPLACE FUNCTION announce_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify((SELECT channel FROM public.class_info), NEW.id::text);
    RETURN NULL;
END $$
