ALTER FUNCTION use_exam_sitting(text, text, text, text) RENAME TO use_exam_sitting_as_asked;
ALTER FUNCTION start_exam_attempt(text, text, text, integer) RENAME TO start_exam_attempt_as_asked;
REVOKE ALL ON FUNCTION use_exam_sitting_as_asked(text, text, text, text) FROM class_trainee, class_instructor, class_supervisor, class_workstation;
REVOKE ALL ON FUNCTION start_exam_attempt_as_asked(text, text, text, integer) FROM class_trainee, class_instructor, class_supervisor, class_workstation;
CREATE FUNCTION exam_start_allowed(trainee text, unsigned boolean) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    own text;
BEGIN
    IF pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RETURN;
    END IF;
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
        SELECT name INTO own FROM trainees WHERE login = session_user;
        IF own IS DISTINCT FROM trainee THEN
            RAISE EXCEPTION 'this login starts exams for % only, not for %', own, trainee
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSIF unsigned AND EXISTS (SELECT 1 FROM trainees WHERE name = trainee AND login IS NOT NULL) THEN
        RAISE EXCEPTION '% has a login of their own in this class: an exam with no sitting starts '
            'for them only on a workstation joined with it', trainee
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;
CREATE FUNCTION use_exam_sitting(sitting text, trainee text, digest text, result text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_start_allowed(trainee, false);
    RETURN use_exam_sitting_as_asked(sitting, trainee, digest, result);
END $$;
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text, allowed integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_start_allowed(trainee, true);
    RETURN start_exam_attempt_as_asked(result, trainee, form, allowed);
END $$;
REVOKE ALL ON FUNCTION exam_start_allowed(text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION use_exam_sitting(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION use_exam_sitting(text, text, text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text, integer) TO class_trainee, class_instructor, class_supervisor, class_workstation
