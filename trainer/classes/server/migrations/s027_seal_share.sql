-- a sitting issued in the class is sealed under its start code and a share the class server
-- keeps: the instructor records the share when issuing the sitting, no login reads it, and only
-- the start of the sitting releases it, in the transaction that records that start
CREATE TABLE exam_sitting_shares (
    nonce text PRIMARY KEY REFERENCES exam_sitting_links (nonce),
    share bytea NOT NULL CHECK (length(share) = 32),
    recorded double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user
);
ALTER TABLE exam_sitting_shares ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_shares FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_shares_owner ON exam_sitting_shares TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_shares_issue ON exam_sitting_shares FOR INSERT TO class_instructor WITH CHECK (true);
REVOKE ALL ON exam_sitting_shares FROM PUBLIC;
GRANT INSERT ON exam_sitting_shares TO class_instructor;
CREATE TRIGGER exam_sitting_shares_append_only BEFORE UPDATE OR DELETE ON exam_sitting_shares FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_shares_no_truncate BEFORE TRUNCATE ON exam_sitting_shares FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- the start of a sitting (s012's start_exam_sitting, with the share of one that proves its code):
-- the server's record of the start (its nonce, its time by the server's clock) and the share, in
-- one transaction; asked again for the same result with the same link before any answer reached
-- the server (a reply lost, a start cancelled), the same record and the same share
CREATE FUNCTION open_exam_sitting(sitting text, trainee text, digest text, result text, proof bytea)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    l exam_sitting_links;
    s exam_sittings;
    first exam_sitting_steps;
    attempt integer;
BEGIN
    SELECT * INTO l FROM exam_sitting_links WHERE nonce = sitting;
    IF NOT FOUND THEN  -- issued without a verifier, or not here: started as s012 starts it, no share
        RETURN start_exam_sitting(sitting, trainee,
                                  coalesce(digest, (SELECT form_digest FROM exam_sittings WHERE nonce = sitting)),
                                  result, proof) || jsonb_build_object('share', NULL);
    END IF;
    IF proof IS NULL OR sha256(proof) IS DISTINCT FROM l.verifier THEN
        RAISE EXCEPTION 'this sitting starts only with its start code, typed by the proctor: '
            'the start code was not proven to the class server';
    END IF;
    -- one start of a sitting at a time (only whoever proved its code gets here)
    PERFORM 1 FROM exam_sitting_links WHERE nonce = sitting FOR UPDATE;
    SELECT * INTO first FROM exam_sitting_steps WHERE nonce = sitting AND step = 1;
    IF NOT FOUND THEN
        SELECT * INTO s FROM exam_sittings WHERE nonce = sitting;
        attempt := use_exam_sitting(sitting, trainee, coalesce(digest, s.form_digest), result);
        INSERT INTO exam_sitting_steps (nonce, step, link, kind, opened, result_uid)
            VALUES (sitting, 1, proof, 'start',
                    replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
                    result)
            RETURNING * INTO first;
    ELSE
        SELECT * INTO s FROM exam_sittings WHERE nonce = sitting;
        PERFORM exam_start_allowed(trainee, false);
        IF shared_login_closed() AND pg_has_role(session_user, 'class_workstation', 'MEMBER')
                AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
                AND NOT enrolled_workstation(session_user) THEN
            RAISE EXCEPTION 'the shared workstation login is closed in this class: only the workstations '
                'the instructor enrolled, each with a login of its own, send results and start exams'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF s.trainee_name IS DISTINCT FROM trainee THEN
            RAISE EXCEPTION 'this sitting was issued to %, not %', s.trainee_name, trainee;
        END IF;
        IF digest IS NOT NULL AND s.form_digest IS DISTINCT FROM digest THEN
            RAISE EXCEPTION 'this sitting is for another exam';
        END IF;
        IF first.result_uid IS DISTINCT FROM result OR first.link IS DISTINCT FROM proof
                OR EXISTS (SELECT 1 FROM exam_sitting_steps WHERE nonce = sitting AND step > 1)
                OR EXISTS (SELECT 1 FROM exam_sitting_voids WHERE nonce = sitting)
                OR EXISTS (SELECT 1 FROM exam_sitting_abandonments WHERE nonce = sitting) THEN
            RAISE EXCEPTION 'this sitting was already used (attempt % of % at this exam): a sitting is good '
                'for one attempt; ask the instructor for a new one', s.attempt, s.trainee_name;
        END IF;
        attempt := s.attempt;
    END IF;
    RETURN jsonb_build_object('attempt', attempt, 'opened', first.opened, 'started', first.received,
                              'share', (SELECT encode(share, 'hex') FROM exam_sitting_shares WHERE nonce = sitting));
END $$;
REVOKE ALL ON FUNCTION open_exam_sitting(text, text, text, text, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION open_exam_sitting(text, text, text, text, bytea) TO class_trainee, class_instructor, class_supervisor, class_workstation
