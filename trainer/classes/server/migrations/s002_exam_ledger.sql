CREATE TABLE exam_sittings (
    nonce text NOT NULL,
    trainee_name text NOT NULL,
    form_uid text NOT NULL,
    form_digest text NOT NULL,
    attempt integer NOT NULL,
    issued double precision NOT NULL,
    expires double precision NOT NULL,
    signer text NOT NULL,
    token text NOT NULL CHECK (token IS JSON),
    draw text CHECK (draw IS JSON),
    PRIMARY KEY (nonce),
    CHECK (attempt >= 1),
    UNIQUE (trainee_name, form_uid, attempt)
);
CREATE TABLE exam_sitting_uses (
    nonce text PRIMARY KEY REFERENCES exam_sittings (nonce),
    result_uid text NOT NULL UNIQUE,
    used double precision NOT NULL
);
ALTER TABLE exam_sittings ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sittings FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sittings_owner ON exam_sittings TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sittings_staff ON exam_sittings FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY exam_sittings_issue ON exam_sittings FOR INSERT TO class_instructor WITH CHECK (true);
REVOKE ALL ON exam_sittings FROM PUBLIC;
GRANT SELECT ON exam_sittings TO class_instructor, class_supervisor;
GRANT INSERT ON exam_sittings TO class_instructor;
CREATE TRIGGER exam_sittings_append_only BEFORE UPDATE OR DELETE ON exam_sittings FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sittings_no_truncate BEFORE TRUNCATE ON exam_sittings FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
ALTER TABLE exam_sitting_uses ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_uses FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_uses_owner ON exam_sitting_uses TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_uses_staff ON exam_sitting_uses FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY exam_sitting_uses_issue ON exam_sitting_uses FOR INSERT TO class_instructor WITH CHECK (true);
REVOKE ALL ON exam_sitting_uses FROM PUBLIC;
GRANT SELECT ON exam_sitting_uses TO class_instructor, class_supervisor;
GRANT INSERT ON exam_sitting_uses TO class_instructor;
CREATE TRIGGER exam_sitting_uses_append_only BEFORE UPDATE OR DELETE ON exam_sitting_uses FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_uses_no_truncate BEFORE TRUNCATE ON exam_sitting_uses FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()
