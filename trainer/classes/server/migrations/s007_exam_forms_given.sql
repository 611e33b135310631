CREATE TABLE exam_forms_given (
    form_uid text PRIMARY KEY,
    form_digest text NOT NULL,
    name text NOT NULL,
    attempts_allowed integer NOT NULL CHECK (attempts_allowed >= 1),
    given double precision NOT NULL DEFAULT extract(epoch FROM now()),
    given_by text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_forms_given ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_forms_given FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_forms_given_owner ON exam_forms_given TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_forms_given_staff ON exam_forms_given FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY exam_forms_given_give ON exam_forms_given FOR INSERT TO class_instructor
    WITH CHECK (given_by = session_user);
REVOKE ALL ON exam_forms_given FROM PUBLIC;
GRANT SELECT ON exam_forms_given TO class_instructor, class_supervisor;
GRANT INSERT ON exam_forms_given TO class_instructor;
CREATE TRIGGER exam_forms_given_append_only BEFORE UPDATE OR DELETE ON exam_forms_given FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_forms_given_no_truncate BEFORE TRUNCATE ON exam_forms_given FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
DROP FUNCTION start_exam_attempt(text, text, text, integer);
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    allowed integer;
BEGIN
    PERFORM exam_start_allowed(trainee, true);
    SELECT attempts_allowed INTO allowed FROM exam_forms_given WHERE form_uid = form;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this exam was not given to the class: the instructor gives it with '
            'Exam › Forms › Give to class';
    END IF;
    RETURN start_exam_attempt_as_asked(result, trainee, form, allowed);
END $$;
CREATE FUNCTION exam_attempts_allowed(form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT attempts_allowed FROM exam_forms_given WHERE form_uid = form
$$;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_attempts_allowed(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT EXECUTE ON FUNCTION exam_attempts_allowed(text) TO class_trainee, class_instructor, class_supervisor, class_workstation
