CREATE TABLE exam_sitting_links (
    nonce text PRIMARY KEY REFERENCES exam_sittings (nonce),
    items integer NOT NULL CHECK (items BETWEEN 1 AND 1000),
    verifier bytea NOT NULL CHECK (length(verifier) = 32),
    registered double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp())
);
CREATE TABLE exam_sitting_steps (
    nonce text NOT NULL REFERENCES exam_sitting_links (nonce),
    step integer NOT NULL CHECK (step >= 1),
    link bytea NOT NULL CHECK (length(link) = 32),
    kind text NOT NULL CHECK (kind IN ('start', 'answer', 'end')),
    opened text,
    result_uid text,
    position integer CHECK (position >= 0),
    answer text CHECK (answer IS JSON ARRAY AND octet_length(answer) <= 1048576),
    ending text CHECK (ending IN ('finished', 'time-up', 'left')),
    received double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user,
    PRIMARY KEY (nonce, step),
    CHECK ((kind = 'start') = (step = 1)),
    CHECK ((kind = 'start') = (opened IS NOT NULL AND result_uid IS NOT NULL)),
    CHECK ((kind = 'answer') = (position IS NOT NULL AND answer IS NOT NULL)),
    CHECK ((kind = 'end') = (ending IS NOT NULL))
);
CREATE UNIQUE INDEX exam_sitting_steps_first_answer ON exam_sitting_steps (nonce, position) WHERE kind = 'answer';
CREATE UNIQUE INDEX exam_sitting_steps_one_end ON exam_sitting_steps (nonce) WHERE kind = 'end';
CREATE TABLE exam_sitting_refusals (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    nonce text NOT NULL REFERENCES exam_sitting_links (nonce),
    step integer NOT NULL,
    kind text NOT NULL,
    position integer,
    answer_sha256 bytea,
    ending text,
    reason text NOT NULL,
    received double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    login text NOT NULL DEFAULT session_user
);
CREATE INDEX exam_sitting_refusals_sitting ON exam_sitting_refusals (nonce, id);
ALTER TABLE exam_sitting_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_links FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_links_owner ON exam_sitting_links TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_links_staff ON exam_sitting_links FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY exam_sitting_links_issue ON exam_sitting_links FOR INSERT TO class_instructor WITH CHECK (true);
REVOKE ALL ON exam_sitting_links FROM PUBLIC;
GRANT SELECT ON exam_sitting_links TO class_instructor, class_supervisor;
GRANT INSERT ON exam_sitting_links TO class_instructor;
CREATE TRIGGER exam_sitting_links_append_only BEFORE UPDATE OR DELETE ON exam_sitting_links FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_links_no_truncate BEFORE TRUNCATE ON exam_sitting_links FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
ALTER TABLE exam_sitting_steps ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_steps FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_steps_owner ON exam_sitting_steps TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_steps_staff ON exam_sitting_steps FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_sitting_steps FROM PUBLIC;
GRANT SELECT ON exam_sitting_steps TO class_instructor, class_supervisor;
CREATE TRIGGER exam_sitting_steps_append_only BEFORE UPDATE OR DELETE ON exam_sitting_steps FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_steps_no_truncate BEFORE TRUNCATE ON exam_sitting_steps FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
ALTER TABLE exam_sitting_refusals ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_sitting_refusals FORCE ROW LEVEL SECURITY;
CREATE POLICY exam_sitting_refusals_owner ON exam_sitting_refusals TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY exam_sitting_refusals_staff ON exam_sitting_refusals FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON exam_sitting_refusals FROM PUBLIC;
GRANT SELECT ON exam_sitting_refusals TO class_instructor, class_supervisor;
CREATE TRIGGER exam_sitting_refusals_append_only BEFORE UPDATE OR DELETE ON exam_sitting_refusals FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER exam_sitting_refusals_no_truncate BEFORE TRUNCATE ON exam_sitting_refusals FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
REVOKE ALL ON FUNCTION use_exam_sitting(text, text, text, text) FROM class_trainee, class_instructor, class_supervisor, class_workstation;
CREATE FUNCTION start_exam_sitting(sitting text, trainee text, digest text, result text, proof bytea)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    l exam_sitting_links;
    attempt integer;
    opened text;
BEGIN
    SELECT * INTO l FROM exam_sitting_links WHERE nonce = sitting;
    IF FOUND AND (proof IS NULL OR sha256(proof) IS DISTINCT FROM l.verifier) THEN
        RAISE EXCEPTION 'this sitting starts only with its start code, typed by the proctor: '
            'the start code was not proven to the class server';
    END IF;
    attempt := use_exam_sitting(sitting, trainee, digest, result);
    IF l.nonce IS NOT NULL THEN
        opened := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
        INSERT INTO exam_sitting_steps (nonce, step, link, kind, opened, result_uid)
            VALUES (sitting, 1, proof, 'start', opened, result);
    END IF;
    RETURN jsonb_build_object('attempt', attempt, 'opened', opened);
END $$;
CREATE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    l exam_sitting_links;
    before exam_sitting_steps;
    taken exam_sitting_steps;
    why text;
    tries integer := 0;
BEGIN
    IF what IS NULL OR what NOT IN ('answer', 'end') THEN
        RAISE EXCEPTION 'a step of a sitting is an answer or its end, not %', what;
    END IF;
    SELECT * INTO l FROM exam_sitting_links WHERE nonce = sitting;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this sitting does not prove its start code on this class server';
    END IF;
    IF at_step IS NULL OR at_step < 2 OR at_step > l.items + 2 THEN
        RAISE EXCEPTION 'a sitting of % items has no step %', l.items, at_step;
    END IF;
    SELECT * INTO before FROM exam_sitting_steps WHERE nonce = sitting AND step = at_step - 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'step % of this sitting came before step %: the steps are sent in order',
            at_step, at_step - 1;
    END IF;
    IF proof IS NULL OR sha256(proof) IS DISTINCT FROM before.link THEN
        RAISE EXCEPTION 'this step does not prove the sitting''s start code';
    END IF;
    IF what = 'answer' AND (item IS NULL OR item < 0 OR item >= l.items OR given IS NULL
                            OR NOT (given IS JSON ARRAY) OR octet_length(given) > 1048576) THEN
        RAISE EXCEPTION 'an answer names an item of the sitting (0 to %) and gives its log', l.items - 1;
    END IF;
    IF what = 'end' AND (how IS NULL OR how NOT IN ('finished', 'time-up', 'left')) THEN
        RAISE EXCEPTION 'a sitting ends finished, time-up or left, not %', how;
    END IF;
    LOOP
        SELECT * INTO taken FROM exam_sitting_steps WHERE nonce = sitting AND step = at_step;
        IF FOUND THEN
            IF taken.link = proof AND taken.kind = what AND taken.position IS NOT DISTINCT FROM item
                    AND taken.answer IS NOT DISTINCT FROM given AND taken.ending IS NOT DISTINCT FROM how THEN
                RETURN 'recorded';
            END IF;
            why := format('step %s was taken first (%s)', at_step,
                          CASE taken.kind WHEN 'answer' THEN format('item %s', taken.position + 1)
                          ELSE 'its end' END);
        ELSIF before.kind = 'end' THEN
            why := 'the sitting had ended';
        ELSIF what = 'answer' THEN
            SELECT * INTO taken FROM exam_sitting_steps
                WHERE nonce = sitting AND kind = 'answer' AND position = item;
            IF FOUND THEN
                why := format('item %s was answered first, at step %s', item + 1, taken.step);
            END IF;
        END IF;
        EXIT WHEN why IS NOT NULL;
        INSERT INTO exam_sitting_steps (nonce, step, link, kind, position, answer, ending)
            VALUES (sitting, at_step, proof, what, CASE WHEN what = 'answer' THEN item END,
                    CASE WHEN what = 'answer' THEN given END, CASE WHEN what = 'end' THEN how END)
            ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN 'recorded';
        END IF;
        tries := tries + 1;
        IF tries > 1 THEN
            RAISE EXCEPTION 'step % of this sitting could not be recorded: try again', at_step;
        END IF;
    END LOOP;
    IF (SELECT count(*) FROM exam_sitting_refusals WHERE nonce = sitting) < 100 THEN
        INSERT INTO exam_sitting_refusals (nonce, step, kind, position, answer_sha256, ending, reason)
            VALUES (sitting, at_step, what, item, sha256(convert_to(given, 'UTF8')), how, why);
    END IF;
    RETURN 'refused: ' || why || ' (first wins)';
END $$;
REVOKE ALL ON FUNCTION start_exam_sitting(text, text, text, text, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION start_exam_sitting(text, text, text, text, bytea) TO class_trainee, class_instructor, class_supervisor, class_workstation;
GRANT EXECUTE ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation