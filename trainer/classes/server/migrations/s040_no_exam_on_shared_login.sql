-- Every session of the shared workstation login (the one in the password file of every
-- workstation not enrolled) may cancel or end every other session of that login
-- (pg_cancel_backend, pg_terminate_backend: PostgreSQL lets a role signal its own sessions, and no
-- grant takes that away) and reads their statements in pg_stat_activity. So no exam starts or
-- steps with it: a sitting's start, each of its answers and its end, and an exam with no sitting,
-- go from an enrolled workstation's login or a trainee's own, which no other login may signal.
-- The shared login still sends practice (a push is sent again until the class keeps it, once).
CREATE FUNCTION shared_workstation_caller() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT workstation_caller() AND NOT enrolled_workstation(session_user)
$$;
CREATE FUNCTION refuse_exam_on_shared_login() RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF shared_workstation_caller() THEN
        RAISE EXCEPTION 'no exam starts or sends its answers with the shared workstation login, which '
            'any workstation that shares it can stop: ask the instructor to enrol this workstation '
            '(Class tab › Workstations…) and join the class with its own login'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;
ALTER FUNCTION open_exam_sitting(text, text, text, text, bytea) RENAME TO open_exam_sitting_any_login;
ALTER FUNCTION start_exam_sitting(text, text, text, text, bytea) RENAME TO start_exam_sitting_any_login;
ALTER FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) RENAME TO exam_sitting_step_any_login;
ALTER FUNCTION start_exam_attempt(text, text, text) RENAME TO start_exam_attempt_any_login;
REVOKE ALL ON FUNCTION open_exam_sitting_any_login(text, text, text, text, bytea),
                       start_exam_sitting_any_login(text, text, text, text, bytea),
                       exam_sitting_step_any_login(text, integer, bytea, text, integer, text, text),
                       start_exam_attempt_any_login(text, text, text)
    FROM PUBLIC, class_trainee, class_instructor, class_supervisor, class_workstation;
CREATE FUNCTION open_exam_sitting(sitting text, trainee text, digest text, result text, proof bytea)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM refuse_exam_on_shared_login();
    RETURN open_exam_sitting_any_login(sitting, trainee, digest, result, proof);
END $$;
CREATE FUNCTION start_exam_sitting(sitting text, trainee text, digest text, result text, proof bytea)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM refuse_exam_on_shared_login();
    RETURN start_exam_sitting_any_login(sitting, trainee, digest, result, proof);
END $$;
CREATE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM refuse_exam_on_shared_login();
    RETURN exam_sitting_step_any_login(sitting, at_step, proof, what, item, given, how);
END $$;
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM refuse_exam_on_shared_login();
    RETURN start_exam_attempt_any_login(result, trainee, form);
END $$;
REVOKE ALL ON FUNCTION shared_workstation_caller(), refuse_exam_on_shared_login() FROM PUBLIC;
REVOKE ALL ON FUNCTION open_exam_sitting(text, text, text, text, bytea),
                       start_exam_sitting(text, text, text, text, bytea),
                       exam_sitting_step(text, integer, bytea, text, integer, text, text),
                       start_exam_attempt(text, text, text)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION open_exam_sitting(text, text, text, text, bytea),
                          start_exam_sitting(text, text, text, text, bytea),
                          exam_sitting_step(text, integer, bytea, text, integer, text, text),
                          start_exam_attempt(text, text, text)
    TO class_trainee, class_instructor, class_supervisor, class_workstation
