-- s023 (and s030 after it) refused an answer over an item's bounds (262,144 bytes, 2,000
-- actions) by raising, so the class kept nothing of it: `certify --class` found the item
-- unanswered and could not say why. Now such a refusal is kept like any refusal of a step, in
-- exam_sitting_refusals (append-only, at most 100 a sitting, s012), with its reason and the
-- answer's size in bytes, never its text, and the step answers 'refused: why'. Only a step that
-- proves the sitting's start code (the link of the step before it, as every step does) and names
-- an item of the sitting has its refusal kept; any other is refused as before, keeping nothing
ALTER TABLE exam_sitting_refusals ADD COLUMN answer_bytes integer CHECK (answer_bytes >= 0);
CREATE OR REPLACE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    why text;
    items integer;
    link_before bytea;
BEGIN
    IF what = 'answer' AND octet_length(given) > 262144 THEN
        why := format('an answer''s log is %s bytes, more than the 262,144 an item''s log may hold',
                      octet_length(given));
    ELSIF what = 'answer' AND pg_input_is_valid(given, 'jsonb') AND jsonb_typeof(given::jsonb) = 'array'
            AND jsonb_array_length(given::jsonb) > 2000 THEN
        why := format('an answer''s log is %s actions, more than the 2,000 an item''s log may hold',
                      jsonb_array_length(given::jsonb));
    END IF;
    IF why IS NULL THEN
        RETURN exam_sitting_step_timed(sitting, at_step, proof, what, item, given, how);
    END IF;
    SELECT l.items INTO items FROM exam_sitting_links l WHERE l.nonce = sitting;
    SELECT s.link INTO link_before FROM exam_sitting_steps s WHERE s.nonce = sitting AND s.step = at_step - 1;
    IF items IS NULL OR link_before IS NULL OR proof IS NULL OR sha256(proof) IS DISTINCT FROM link_before
            OR at_step > items + 2 OR item IS NULL OR item < 0 OR item >= items THEN
        RAISE EXCEPTION '%', why;
    END IF;
    IF (SELECT count(*) FROM exam_sitting_refusals r WHERE r.nonce = sitting) < 100 THEN
        INSERT INTO exam_sitting_refusals (nonce, step, kind, position, reason, answer_bytes)
            VALUES (sitting, at_step, 'answer', item, why, octet_length(given));
    END IF;
    RETURN 'refused: ' || why;
END $$;
REVOKE ALL ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text)
    TO class_trainee, class_instructor, class_supervisor, class_workstation;
