CREATE TABLE exam_sitting_voids (
    nonce text PRIMARY KEY REFERENCES exam_sittings (nonce),
    reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500 AND reason !~ '[[:cntrl:]]'),
    recorded double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_sitting_voids ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_voids FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_voids_owner ON exam_sitting_voids TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_voids_staff ON exam_sitting_voids FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_sitting_voids FROM PUBLIC;
GRANT SELECT ON exam_sitting_voids TO class_instructor, class_supervisor;
CREATE TRIGGER exam_sitting_voids_append_only BEFORE UPDATE OR DELETE ON exam_sitting_voids FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_voids_no_truncate BEFORE TRUNCATE ON exam_sitting_voids FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION void_exam_sitting(sitting text, why text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v exam_sitting_voids;
    signed text;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login voids a sitting' USING ERRCODE = 'insufficient_privilege';
    END IF;
    why := btrim(regexp_replace(coalesce(why, ''), '[[:space:][:cntrl:]]+', ' ', 'g'));
    IF why = '' THEN
        RAISE EXCEPTION 'voiding a sitting needs a reason';
    END IF;
    IF length(why) > 500 THEN
        RAISE EXCEPTION 'a reason is at most 500 characters, not %', length(why);
    END IF;
    -- one at a time with a certificate of the sitting (the trigger below takes the same row)
    PERFORM 1 FROM exam_sittings WHERE nonce = sitting FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'sitting % was not issued in this class', left(coalesce(sitting, ''), 64);
    END IF;
    SELECT result_uid INTO signed FROM exam_certificates WHERE nonce = sitting;
    IF FOUND THEN
        RAISE EXCEPTION 'sitting % is certified already (result %): a certified sitting is not voided',
            sitting, signed;
    END IF;
    SELECT * INTO v FROM exam_sitting_voids WHERE nonce = sitting;
    IF FOUND THEN
        RAISE EXCEPTION 'sitting % was voided already, by % (%)', sitting, v.login, v.reason;
    END IF;
    INSERT INTO exam_sitting_voids (nonce, reason) VALUES (sitting, why);
END $$;
-- a voided sitting is never started, nor certified
CREATE FUNCTION refuse_voided_sitting() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v exam_sitting_voids;
BEGIN
    PERFORM 1 FROM exam_sittings WHERE nonce = NEW.nonce FOR SHARE;
    SELECT * INTO v FROM exam_sitting_voids WHERE nonce = NEW.nonce;
    IF FOUND THEN
        RAISE EXCEPTION 'sitting % was voided by % (%): it is never started nor certified, and its '
            'attempt was given back', NEW.nonce, v.login, v.reason USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER exam_certificates_not_voided BEFORE INSERT ON exam_certificates FOR EACH ROW EXECUTE FUNCTION refuse_voided_sitting();
CREATE TRIGGER exam_sitting_uses_not_voided BEFORE INSERT ON exam_sitting_uses FOR EACH ROW EXECUTE FUNCTION refuse_voided_sitting();
-- the attempts spent at a form: those counted (s004's exam_attempts_used), less the sittings voided
CREATE FUNCTION exam_attempts_spent(trainee text, form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT exam_attempts_used(trainee, form) - (SELECT count(*) FROM exam_sitting_voids v
        JOIN exam_sittings s ON s.nonce = v.nonce WHERE s.trainee_name = trainee AND s.form_uid = form)::integer
$$;
CREATE OR REPLACE FUNCTION exam_attempts_of(trainee text, form text) RETURNS integer
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_attempts_readable(trainee);
    RETURN exam_attempts_spent(trainee, form);
END $$;
-- an exam with no sitting is numbered after every attempt counted, and allowed while those
-- spent (the voided sittings given back) are fewer than the form allows
CREATE OR REPLACE FUNCTION start_exam_attempt_as_asked(result text, trainee text, form text, allowed integer)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    used integer;
    spent integer;
BEGIN
    LOOP
        IF EXISTS (SELECT 1 FROM exam_starts WHERE result_uid = result) THEN
            RAISE EXCEPTION 'this attempt was already started';
        END IF;
        used := exam_attempts_used(trainee, form);
        spent := exam_attempts_spent(trainee, form);
        IF spent >= allowed THEN
            RAISE EXCEPTION '% has used % of the % attempt(s) allowed at this exam (counted by the class server)',
                trainee, spent, allowed;
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
REVOKE ALL ON FUNCTION void_exam_sitting(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION void_exam_sitting(text, text) TO class_instructor;
REVOKE ALL ON FUNCTION refuse_voided_sitting() FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_attempts_spent(text, text) FROM PUBLIC
