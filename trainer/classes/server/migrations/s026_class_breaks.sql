-- an answer the class server takes for an item is one the instructor's re-grading can read:
-- JSON that PostgreSQL's jsonb reads (no lone surrogate), nested at most 8 deep, with no number
-- of more than 40 digits (an amount is at most 13, a time 17); refused at the door, by name
CREATE FUNCTION exam_answer_refused(given text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog AS $$
DECLARE
    bare text;
    depth integer := 0;
BEGIN
    IF given IS NULL THEN
        RETURN NULL;
    END IF;
    IF NOT pg_input_is_valid(given, 'jsonb') THEN
        RETURN 'it is not JSON the class reads (a lone surrogate, or text that is no character)';
    END IF;
    bare := regexp_replace(given, '"(\\.|[^"\\])*"', '""', 'g');  -- what the texts do not hold
    IF bare ~ '[0-9]{41}' THEN
        RETURN 'it holds a number of more than 40 digits';
    END IF;
    bare := regexp_replace(bare, '[^][{}]', '', 'g');
    WHILE bare <> '' LOOP
        depth := depth + 1;
        IF depth > 8 THEN
            RETURN 'it is nested more than 8 levels deep';
        END IF;
        bare := regexp_replace(bare, '\[\]|\{\}', '', 'g');
    END LOOP;
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
