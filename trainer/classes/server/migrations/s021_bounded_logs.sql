-- the trainee's seconds to answer in a logged attempt, as trainer.progress.records.answer_gaps
-- reckons them: each action of the trainee's (not the trainer's, not a skipped throw, not an
-- undo) timed from the action before it in time order, or from the round's start; none from a
-- log that is not a list of actions
CREATE FUNCTION log_answer_gaps(log text) RETURNS double precision[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
    SELECT coalesce(array_agg(greatest(0, x.at - coalesce(x.before, 0)) ORDER BY x.at, x.n)
                        FILTER (WHERE x.answer), '{}')
    FROM (SELECT a.n, a.at, lag(a.at) OVER (ORDER BY a.at, a.n) AS before,
                 NOT coalesce(a.e->'by_trainer' NOT IN ('false'::jsonb, 'null'::jsonb, '0'::jsonb, '""'::jsonb), false)
                     AND (a.e->>'do') IS DISTINCT FROM 'skip-throw' AND (a.e->>'do') IS DISTINCT FROM 'undo' AS answer
          FROM (SELECT l.e, l.n, CASE WHEN jsonb_typeof(l.e->'at') = 'number' THEN (l.e->>'at')::float8
                                      ELSE 0 END AS at
                FROM jsonb_array_elements(CASE WHEN pg_input_is_valid(log, 'jsonb')
                                                    AND jsonb_typeof(log::jsonb) = 'array'
                                               THEN log::jsonb ELSE '[]' END) WITH ORDINALITY AS l (e, n)) a) x
$$;
-- each attempt's seconds to answer, kept when it is pushed, so the class's overview reads these
-- and never a log
CREATE TABLE attempt_answer_gaps (
    attempt_id bigint PRIMARY KEY REFERENCES attempts (id),
    trainee_id bigint NOT NULL REFERENCES trainees (id),
    gaps double precision[] NOT NULL
);
ALTER TABLE attempt_answer_gaps ENABLE ROW LEVEL SECURITY;
ALTER TABLE attempt_answer_gaps FORCE ROW LEVEL SECURITY;
CREATE POLICY attempt_answer_gaps_owner ON attempt_answer_gaps TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY attempt_answer_gaps_staff ON attempt_answer_gaps FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY attempt_answer_gaps_own ON attempt_answer_gaps FOR SELECT TO class_trainee USING (trainee_id IN (SELECT id FROM trainees));
REVOKE ALL ON attempt_answer_gaps FROM PUBLIC;
GRANT SELECT ON attempt_answer_gaps TO class_trainee, class_instructor, class_supervisor;
CREATE TRIGGER attempt_answer_gaps_append_only BEFORE UPDATE OR DELETE ON attempt_answer_gaps FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER attempt_answer_gaps_no_truncate BEFORE TRUNCATE ON attempt_answer_gaps FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- the attempts the class holds already
INSERT INTO attempt_answer_gaps (attempt_id, trainee_id, gaps)
    SELECT id, trainee_id, log_answer_gaps(log) FROM attempts;
-- s018's push, under a name no login calls itself; push_attempts bounds each attempt's log
-- before it (the largest log the app writes, a whole round of the longest drill, is about
-- 11,000 bytes and 92 actions), and keeps each new attempt's seconds to answer after it
ALTER FUNCTION push_attempts(jsonb) RENAME TO push_attempts_served;
REVOKE ALL ON FUNCTION push_attempts_served(jsonb) FROM PUBLIC, class_workstation, class_trainee, class_instructor;
CREATE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    refused text;
BEGIN
    SELECT format('attempt %s: %s', left(a.uid, 64), CASE
            WHEN octet_length(a.log) > 262144
                THEN format('its log is %s bytes, more than the 262,144 an attempt''s log may hold',
                            octet_length(a.log))
            ELSE format('its log is %s actions, more than the 2,000 an attempt''s log may hold',
                        jsonb_array_length(a.log::jsonb)) END)
        INTO refused
        FROM jsonb_to_recordset(batch->'attempts') AS a (uid text, log text)
        WHERE octet_length(a.log) > 262144
           OR (pg_input_is_valid(a.log, 'jsonb') AND jsonb_typeof(a.log::jsonb) = 'array'
               AND jsonb_array_length(a.log::jsonb) > 2000)
        LIMIT 1;
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END IF;
    added := push_attempts_served(batch);
    INSERT INTO attempt_answer_gaps (attempt_id, trainee_id, gaps)
        SELECT s.id, s.trainee_id, log_answer_gaps(s.log)
        FROM jsonb_to_recordset(batch->'attempts') AS a (uid text)
        JOIN attempts s ON s.uid = a.uid
        ON CONFLICT (attempt_id) DO NOTHING;
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor;
