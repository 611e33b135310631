CREATE TABLE exam_starts (
    result_uid text PRIMARY KEY,
    trainee_name text NOT NULL,
    form_uid text NOT NULL,
    attempt integer NOT NULL CHECK (attempt >= 1),
    started double precision NOT NULL,
    UNIQUE (trainee_name, form_uid, attempt)
);
CREATE TABLE exam_certificates (
    result_uid text PRIMARY KEY,
    nonce text NOT NULL UNIQUE,
    trainee_name text NOT NULL,
    signer text NOT NULL,
    certificate text NOT NULL CHECK (certificate IS JSON),
    signed double precision NOT NULL
);
ALTER TABLE exam_starts ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_starts FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_starts_owner ON exam_starts TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_starts_staff ON exam_starts FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_starts FROM PUBLIC;
GRANT SELECT ON exam_starts TO class_instructor, class_supervisor;
CREATE TRIGGER exam_starts_append_only BEFORE UPDATE OR DELETE ON exam_starts FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_starts_no_truncate BEFORE TRUNCATE ON exam_starts FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
ALTER TABLE exam_certificates ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_certificates FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_certificates_owner ON exam_certificates TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_certificates_staff ON exam_certificates FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_certificates FROM PUBLIC;
GRANT SELECT ON exam_certificates TO class_instructor, class_supervisor;
CREATE TRIGGER exam_certificates_append_only BEFORE UPDATE OR DELETE ON exam_certificates FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_certificates_no_truncate BEFORE TRUNCATE ON exam_certificates FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE POLICY exam_certificates_sign ON exam_certificates FOR INSERT TO class_instructor WITH CHECK (true);
GRANT INSERT ON exam_certificates TO class_instructor;
CREATE FUNCTION exam_attempts_used(trainee text, form text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT ((SELECT count(*) FROM exam_sittings WHERE trainee_name = trainee AND form_uid = form)
            + (SELECT count(*) FROM exam_starts WHERE trainee_name = trainee AND form_uid = form))::integer
$$;
CREATE FUNCTION use_exam_sitting(sitting text, trainee text, digest text, result text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    s exam_sittings;
BEGIN
    SELECT * INTO s FROM exam_sittings WHERE nonce = sitting;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this sitting was not issued in this class';
    END IF;
    IF s.trainee_name IS DISTINCT FROM trainee THEN
        RAISE EXCEPTION 'this sitting was issued to %, not %', s.trainee_name, trainee;
    END IF;
    IF s.form_digest IS DISTINCT FROM digest THEN
        RAISE EXCEPTION 'this sitting is for another exam';
    END IF;
    IF s.expires < extract(epoch FROM now()) THEN
        RAISE EXCEPTION 'this sitting has expired (by the class server''s clock): '
            'ask the instructor for a new one';
    END IF;
    INSERT INTO exam_sitting_uses (nonce, result_uid, used)
        VALUES (sitting, result, extract(epoch FROM now())) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this sitting was already used (attempt % of % at this exam): a sitting is good '
            'for one attempt; ask the instructor for a new one', s.attempt, s.trainee_name;
    END IF;
    RETURN s.attempt;
END $$;
CREATE FUNCTION start_exam_attempt(result text, trainee text, form text, allowed integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    used integer;
BEGIN
    PERFORM pg_advisory_xact_lock(
        hashtextextended('exam attempts' || chr(10) || trainee || chr(10) || form, 0));
    IF EXISTS (SELECT 1 FROM exam_starts WHERE result_uid = result) THEN
        RAISE EXCEPTION 'this attempt was already started';
    END IF;
    used := exam_attempts_used(trainee, form);
    IF used >= allowed THEN
        RAISE EXCEPTION '% has used % of the % attempt(s) allowed at this exam (counted by the class server)',
            trainee, used, allowed;
    END IF;
    INSERT INTO exam_starts (result_uid, trainee_name, form_uid, attempt, started)
        VALUES (result, trainee, form, used + 1, extract(epoch FROM now()));
    RETURN used + 1;
END $$;
REVOKE ALL ON FUNCTION exam_attempts_used(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION use_exam_sitting(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION start_exam_attempt(text, text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_attempts_used(text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT EXECUTE ON FUNCTION use_exam_sitting(text, text, text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT EXECUTE ON FUNCTION start_exam_attempt(text, text, text, integer) TO class_trainee, class_instructor, class_supervisor, class_workstation
