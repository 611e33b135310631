-- an answer the class server takes for an item is one the instructor's re-grading can read:
-- JSON that PostgreSQL's jsonb reads (no lone surrogate), nested at most 8 deep, with no run of
-- more than 40 digits (an amount has at most 13, a time 17); refused at the door, by name
CREATE FUNCTION exam_answer_refused(given text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS $$
DECLARE
    j jsonb;
BEGIN
    IF given IS NULL THEN
        RETURN NULL;
    END IF;
    IF NOT pg_input_is_valid(given, 'jsonb') THEN
        RETURN 'it is not JSON the class reads (a lone surrogate, or text that is no character)';
    END IF;
    IF given ~ '[0-9]{41}' THEN  -- no log holds 41 digits in a row, in a number or a text
        RETURN 'it holds a number of more than 40 digits';
    END IF;
    j := given::jsonb;
    -- a container 8 levels below the top one is the ninth nested
    IF jsonb_path_exists(j, 'strict $.**{8 to last} ? (@.type() == "array" || @.type() == "object")') THEN
        RETURN 'it is nested more than 8 levels deep';
    END IF;
    RETURN NULL;
END $$;
CREATE FUNCTION exam_answer_readable(given text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = public, pg_catalog AS $$
DECLARE
    why text := exam_answer_refused(given);
BEGIN
    IF why IS NOT NULL THEN
        RAISE EXCEPTION 'an answer the instructor cannot re-grade is refused: %', why;
    END IF;
    RETURN true;
END $$;
REVOKE ALL ON FUNCTION exam_answer_refused(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_answer_readable(text) FROM PUBLIC;
-- the answers kept before are not checked again: certification reads them as hostile data
ALTER TABLE exam_sitting_steps ADD CONSTRAINT exam_sitting_steps_answer_readable
    CHECK (exam_answer_readable(answer)) NOT VALID;
-- an attempt started with no sitting (start_exam_attempt) that the instructor gives back, with a
-- reason the class keeps (a classmate's login spent it, or an outage): insert-only, as a voided
-- sitting (s019), and no longer spent
CREATE TABLE exam_start_voids (
    result_uid text PRIMARY KEY REFERENCES exam_starts (result_uid),
    reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500 AND reason !~ '[[:cntrl:]]'),
    recorded double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_start_voids ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_start_voids FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_start_voids_owner ON exam_start_voids TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_start_voids_staff ON exam_start_voids FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_start_voids FROM PUBLIC;
GRANT SELECT ON exam_start_voids TO class_instructor, class_supervisor;
CREATE TRIGGER exam_start_voids_append_only BEFORE UPDATE OR DELETE ON exam_start_voids FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_start_voids_no_truncate BEFORE TRUNCATE ON exam_start_voids FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION void_exam_start(result text, why text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v exam_start_voids;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login gives an attempt back' USING ERRCODE = 'insufficient_privilege';
    END IF;
    why := btrim(regexp_replace(coalesce(why, ''), '[[:space:][:cntrl:]]+', ' ', 'g'));
    IF why = '' THEN
        RAISE EXCEPTION 'giving an attempt back needs a reason';
    END IF;
    IF length(why) > 500 THEN
        RAISE EXCEPTION 'a reason is at most 500 characters, not %', length(why);
    END IF;
    PERFORM 1 FROM exam_starts WHERE result_uid = result FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'attempt % was not started in this class with no sitting', left(coalesce(result, ''), 64);
    END IF;
    SELECT * INTO v FROM exam_start_voids WHERE result_uid = result;
    IF FOUND THEN
        RAISE EXCEPTION 'attempt % was given back already, by % (%)', result, v.login, v.reason;
    END IF;
    INSERT INTO exam_start_voids (result_uid, reason) VALUES (result, why);
END $$;
-- the attempts spent at a form: those counted, less the sittings voided (s019) and the attempts
-- with no sitting given back
CREATE OR REPLACE FUNCTION exam_attempts_spent(trainee text, form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT exam_attempts_used(trainee, form) - (SELECT count(*) FROM exam_sitting_voids v
        JOIN exam_sittings s ON s.nonce = v.nonce WHERE s.trainee_name = trainee AND s.form_uid = form)::integer
        - (SELECT count(*) FROM exam_start_voids v JOIN exam_starts s ON s.result_uid = v.result_uid
           WHERE s.trainee_name = trainee AND s.form_uid = form)::integer
$$;
REVOKE ALL ON FUNCTION void_exam_start(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION void_exam_start(text, text) TO class_instructor;
