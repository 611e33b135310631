ALTER TABLE exam_sitting_links ADD COLUMN time_limit integer CHECK (time_limit BETWEEN 1 AND 86400);
ALTER TABLE exam_sitting_links ADD CONSTRAINT exam_sitting_links_time_limit_given CHECK (time_limit IS NOT NULL) NOT VALID;
ALTER TABLE exam_sitting_steps ADD COLUMN late double precision CHECK (late > 0);
CREATE FUNCTION exam_queue_allowance() RETURNS integer
LANGUAGE sql IMMUTABLE AS $$ SELECT 120 $$;
CREATE FUNCTION exam_step_reply(late double precision) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN late IS NULL THEN 'recorded'
           ELSE format('recorded late: it reached the class server %s s after the time limit (the '
                       'class allows %s s for the queue), and counts as not answered',
                       floor(late)::bigint, exam_queue_allowance()) END
$$;
CREATE OR REPLACE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    l exam_sitting_links;
    before exam_sitting_steps;
    taken exam_sitting_steps;
    why text;
    tries integer := 0;
    arrived double precision := extract(epoch FROM clock_timestamp());
    opened_at double precision;
    after_limit double precision;
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
    -- the time limit, by the server's own clock from its own record of the start, with the
    -- queue's allowance: a step that reaches the class later is kept, marked late (seconds after
    -- the time limit), and an answer marked late is certified as not answered
    SELECT received INTO opened_at FROM exam_sitting_steps WHERE nonce = sitting AND step = 1;
    IF l.time_limit IS NOT NULL AND arrived > opened_at + l.time_limit + exam_queue_allowance() THEN
        after_limit := arrived - (opened_at + l.time_limit);
    END IF;
    LOOP
        SELECT * INTO taken FROM exam_sitting_steps WHERE nonce = sitting AND step = at_step;
        IF FOUND THEN
            IF taken.link = proof AND taken.kind = what AND taken.position IS NOT DISTINCT FROM item
                    AND taken.answer IS NOT DISTINCT FROM given AND taken.ending IS NOT DISTINCT FROM how THEN
                RETURN exam_step_reply(taken.late);
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
        INSERT INTO exam_sitting_steps (nonce, step, link, kind, position, answer, ending, received, late)
            VALUES (sitting, at_step, proof, what, CASE WHEN what = 'answer' THEN item END,
                    CASE WHEN what = 'answer' THEN given END, CASE WHEN what = 'end' THEN how END,
                    arrived, after_limit)
            ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN exam_step_reply(after_limit);
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
REVOKE ALL ON FUNCTION exam_queue_allowance() FROM PUBLIC;
REVOKE ALL ON FUNCTION exam_step_reply(double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_queue_allowance() TO class_trainee, class_instructor, class_supervisor, class_workstation