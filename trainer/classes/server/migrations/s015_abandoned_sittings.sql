CREATE TABLE exam_sitting_abandonments (
    nonce text PRIMARY KEY REFERENCES exam_sitting_links (nonce),
    reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500 AND reason !~ '[[:cntrl:]]'),
    recorded double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_sitting_abandonments ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_abandonments FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_abandonments_owner ON exam_sitting_abandonments TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_abandonments_staff ON exam_sitting_abandonments FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_sitting_abandonments FROM PUBLIC;
GRANT SELECT ON exam_sitting_abandonments TO class_instructor, class_supervisor;
CREATE TRIGGER exam_sitting_abandonments_append_only BEFORE UPDATE OR DELETE ON exam_sitting_abandonments FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_abandonments_no_truncate BEFORE TRUNCATE ON exam_sitting_abandonments FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION abandon_exam_sitting(sitting text, why text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    a exam_sitting_abandonments;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login records a sitting abandoned';
    END IF;
    why := btrim(regexp_replace(coalesce(why, ''), '[[:space:][:cntrl:]]+', ' ', 'g'));
    IF why = '' THEN
        RAISE EXCEPTION 'recording a sitting abandoned needs a reason';
    END IF;
    IF length(why) > 500 THEN
        RAISE EXCEPTION 'a reason is at most 500 characters, not %', length(why);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM exam_sitting_steps WHERE nonce = sitting AND step = 1) THEN
        RAISE EXCEPTION 'sitting % was never started on this class server', sitting;
    END IF;
    IF EXISTS (SELECT 1 FROM exam_sitting_steps WHERE nonce = sitting AND kind = 'end') THEN
        RAISE EXCEPTION 'sitting % has ended on the class server: certify it as it ended', sitting;
    END IF;
    SELECT * INTO a FROM exam_sitting_abandonments WHERE nonce = sitting;
    IF FOUND THEN
        RAISE EXCEPTION 'sitting % was recorded abandoned already, by % (%)', sitting, a.login, a.reason;
    END IF;
    INSERT INTO exam_sitting_abandonments (nonce, reason) VALUES (sitting, why);
END $$;
REVOKE ALL ON FUNCTION abandon_exam_sitting(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION abandon_exam_sitting(text, text) TO class_instructor
