-- the three *_problem functions are inlined where they are called (no SET clause: they name
-- only pg_catalog's functions, and public.canonical_name), so that each row costs microseconds
CREATE FUNCTION trainee_problem(name text, created double precision, archived_at double precision,
                                uid text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN uid IS NULL OR length(uid) NOT BETWEEN 8 AND 64 OR uid ~ '[^0-9A-Za-z]'
            THEN 'the trainee''s id is not 8 to 64 letters and digits'
        WHEN name IS NULL OR length(name) > 200
            THEN 'the trainee''s name is longer than 200 characters'
        WHEN NOT public.canonical_name(name)
            THEN 'the trainee''s name is not written as the class writes names (no invisible '
                 'characters, single spaces)'
        WHEN NOT coalesce(created BETWEEN 946684800 AND 4102444800, false)
            THEN 'the trainee''s profile was not made between 2000 and 2100'
        WHEN archived_at IS NOT NULL AND NOT archived_at BETWEEN 946684800 AND 4102444800
            THEN 'the trainee''s profile was not archived between 2000 and 2100'
    END
$$;
CREATE FUNCTION attempt_problem(uid text, item_id text, game text, mode text, seed text,
                                started double precision, ended double precision,
                                duration double precision, target double precision,
                                procedure integer, payouts integer, speed integer, total integer,
                                passed integer, critical integer, abandoned integer, log text,
                                source text, rule integer) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN uid IS NULL OR length(uid) NOT BETWEEN 1 AND 64 OR uid ~ '[^0-9A-Za-z_-]'
            THEN 'its id is not 1 to 64 letters, digits, - and _'
        WHEN mode = 'exam'
            THEN 'it is an exam''s: an exam''s result reaches the class as its certificate, '
                 'never as an attempt'
        WHEN mode IS NULL OR mode NOT IN ('practice', 'scenario', 'drill', 'payout-drill')
            THEN 'its mode is not practice, scenario, drill or payout-drill'
        WHEN game IS NULL OR game NOT IN ('props-and-hops', 'three-dice-football', 'high-roll-dice',
                                          'high-roll-dice-6', 'pai-gow-dice')
            THEN 'its game is not one of the class''s games'
        WHEN item_id IS NULL OR length(item_id) NOT BETWEEN 1 AND 200 OR item_id ~ '[\x01-\x1f\x7f]'
                OR (item_id LIKE 'drill:%' AND item_id !~ '^drill:[^:]*:')
            THEN 'its item is not named as the app names items (1 to 200 characters, no control '
                 'characters)'
        WHEN seed IS NOT NULL AND (length(seed) > 200 OR seed ~ '[\x01-\x1f\x7f]')
            THEN 'its seed is longer than 200 characters or holds a control character'
        WHEN source IS NULL OR length(source) > 255 OR source ~ '[\x01-\x1f\x7f]'
            THEN 'its workstation''s name is longer than 255 characters or holds a control character'
        WHEN NOT coalesce(started BETWEEN 946684800 AND 4102444800, false)
            THEN 'it did not start at a time between 2000 and 2100'
        WHEN NOT coalesce(ended BETWEEN started AND 4102444800, false)
            THEN 'it did not end after its start and before 2100'
        WHEN NOT coalesce(duration BETWEEN 0 AND 604800, false)
            THEN 'its duration is not 0 to 604,800 seconds (7 days)'
        WHEN target IS NOT NULL AND NOT target BETWEEN 0 AND 604800
            THEN 'its target time is not 0 to 604,800 seconds (7 days)'
        WHEN NOT coalesce(procedure BETWEEN 0 AND 100 AND payouts BETWEEN 0 AND 100
                          AND speed BETWEEN 0 AND 100 AND total BETWEEN 0 AND 100, false)
            THEN 'a score of it is not a whole number from 0 to 100'
        WHEN NOT coalesce(passed IN (0, 1) AND critical IN (0, 1) AND abandoned IN (0, 1), false)
            THEN 'its passed, critical or abandoned is not 0 or 1'
        WHEN rule IS NOT NULL AND rule < 1
            THEN 'its pass rule is not a rule''s number'
        WHEN log IS NULL OR length(log) > 2000000
            THEN 'its log is longer than 2,000,000 characters'
        WHEN NOT pg_input_is_valid(log, 'jsonb')
            THEN 'its log is not JSON the class server can keep'
        WHEN jsonb_typeof(log::jsonb) <> 'array'
                OR jsonb_path_exists(log::jsonb, 'lax $[*] ? (@.type() != "object"
                    || !(@.do.type() == "string") || !(@.round.type() == "number")
                    || (exists(@.at) && (!(@.at.type() == "number") || @.at < 0 || @.at > 604800)))')
            THEN 'its log is not a list of logged actions (each with what was done, its round and a '
                 'time from 0 to 7 days)'
    END
$$;
CREATE FUNCTION finding_problem(kind text, skill text, citation text, severity text, message text,
                                expected text, actual text) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN kind IS NULL OR length(kind) NOT BETWEEN 1 AND 100
                OR skill IS NULL OR length(skill) NOT BETWEEN 1 AND 100
            THEN 'a finding''s kind or skill is empty or longer than 100 characters'
        WHEN severity IS NULL OR severity NOT IN ('critical', 'major', 'minor')
            THEN 'a finding''s severity is not critical, major or minor'
        WHEN citation IS NULL OR length(citation) > 500
            THEN 'a finding''s citation is longer than 500 characters'
        WHEN message IS NULL OR length(message) NOT BETWEEN 1 AND 4000
                OR (expected IS NOT NULL AND length(expected) > 4000)
            THEN 'a finding''s message is empty, or it or its expected action is longer than 4,000 '
                 'characters'
        WHEN actual IS NULL
            THEN NULL
        WHEN length(actual) > 20000 OR NOT pg_input_is_valid(actual, 'jsonb')
            THEN 'a finding''s action is not a logged action (a JSON object of 20,000 characters at most)'
        WHEN jsonb_typeof(actual::jsonb) <> 'object'
            THEN 'a finding''s action is not a logged action (a JSON object of 20,000 characters at most)'
    END
$$;
ALTER TABLE trainees ADD CONSTRAINT trainees_as_the_class_keeps_them
    CHECK (trainee_problem(name, created, archived_at, uid) IS NULL) NOT VALID;
ALTER TABLE attempts ADD CONSTRAINT attempts_as_the_class_keeps_them
    CHECK (attempt_problem(uid, item_id, game, mode, seed, started, ended, duration, target, procedure,
                           payouts, speed, total, passed, critical, abandoned, log, source, rule) IS NULL)
    NOT VALID;
ALTER TABLE findings ADD CONSTRAINT findings_as_the_class_keeps_them
    CHECK (finding_problem(kind, skill, citation, severity, message, expected, actual) IS NULL) NOT VALID;
ALTER TABLE attempt_skills ADD CONSTRAINT attempt_skills_named
    CHECK (length(skill) BETWEEN 1 AND 100) NOT VALID;
CREATE TABLE retractions (
    attempt_id bigint PRIMARY KEY REFERENCES attempts (id),
    reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500 AND reason = btrim(reason)
                                AND reason !~ '[\x01-\x1f\x7f]'),
    retracted_by text NOT NULL DEFAULT session_user,
    retracted double precision NOT NULL DEFAULT extract(epoch FROM now())
);
ALTER TABLE retractions ENABLE ROW LEVEL SECURITY;
ALTER TABLE retractions FORCE ROW LEVEL SECURITY;
CREATE POLICY retractions_owner ON retractions TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY retractions_staff ON retractions FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY retractions_retract ON retractions FOR INSERT TO class_instructor
    WITH CHECK (retracted_by = session_user);
CREATE POLICY retractions_own ON retractions FOR SELECT TO class_trainee
    USING (attempt_id IN (SELECT id FROM attempts));
REVOKE ALL ON retractions FROM PUBLIC;
GRANT SELECT ON retractions TO class_trainee, class_instructor, class_supervisor;
GRANT INSERT (attempt_id, reason) ON retractions TO class_instructor;
CREATE TRIGGER retractions_append_only BEFORE UPDATE OR DELETE ON retractions FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER retractions_no_truncate BEFORE TRUNCATE ON retractions FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION retract_attempt(attempt text, why text) RETURNS bigint
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
    found_id bigint;
    earlier retractions;
BEGIN
    SELECT id INTO found_id FROM attempts WHERE uid = attempt;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no attempt % is on the class server', left(attempt, 64)
            USING ERRCODE = 'no_data_found';
    END IF;
    SELECT * INTO earlier FROM retractions WHERE attempt_id = found_id;
    IF FOUND THEN
        RAISE EXCEPTION 'attempt % was retracted already, by % (%)', attempt, earlier.retracted_by,
            earlier.reason USING ERRCODE = 'unique_violation';
    END IF;
    INSERT INTO retractions (attempt_id, reason) VALUES (found_id, why);
    RETURN found_id;
END $$;
REVOKE ALL ON FUNCTION retract_attempt(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION retract_attempt(text, text) TO class_instructor;
INSERT INTO retractions (attempt_id, reason, retracted_by)
    SELECT a.id, rtrim(left('stored before the class server checked what it keeps (s010): ' || p.why, 500)),
           'the class server (s010)'
    FROM attempts a JOIN trainees t ON t.id = a.trainee_id
    CROSS JOIN LATERAL (SELECT coalesce(
        attempt_problem(a.uid, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration,
                        a.target, a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical,
                        a.abandoned, a.log, a.source, a.rule),
        trainee_problem(t.name, t.created, t.archived_at, t.uid),
        (SELECT finding_problem(f.kind, f.skill, f.citation, f.severity, f.message, f.expected, f.actual)
         FROM findings f WHERE f.attempt_id = a.id
             AND finding_problem(f.kind, f.skill, f.citation, f.severity, f.message, f.expected,
                                 f.actual) IS NOT NULL LIMIT 1),
        (SELECT 'a skill''s name is empty or longer than 100 characters' FROM attempt_skills k
         WHERE k.attempt_id = a.id AND length(k.skill) NOT BETWEEN 1 AND 100 LIMIT 1)) AS why) p
    WHERE p.why IS NOT NULL;
CREATE OR REPLACE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    added_uids text[];
    own text;
    refused text;
BEGIN
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER')
            AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        SELECT name INTO own FROM trainee_logins WHERE login = session_user;
        IF own IS NULL OR EXISTS (
                SELECT 1 FROM jsonb_to_recordset(batch->'trainees') AS t (name text)
                WHERE t.name IS DISTINCT FROM own) OR EXISTS (
                SELECT 1 FROM jsonb_to_recordset(batch->'attempts') AS a (trainee_uid text)
                LEFT JOIN trainees s ON s.uid = a.trainee_uid
                LEFT JOIN jsonb_to_recordset(batch->'trainees') AS b (uid text, name text)
                    ON b.uid = a.trainee_uid
                WHERE coalesce(s.name, b.name) IS DISTINCT FROM own) THEN
            RAISE EXCEPTION 'a trainee pushes only their own results'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    SELECT format('attempt %s: it is in the batch twice', left(a.uid, 64)) INTO refused
        FROM jsonb_to_recordset(batch->'attempts') AS a (uid text) GROUP BY a.uid HAVING count(*) > 1 LIMIT 1;
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END IF;
    SELECT format('trainee %s: %s', left(t.uid, 64), p.why) INTO refused
        FROM jsonb_to_recordset(batch->'trainees') AS t (name text, created double precision, archived integer, archived_at double precision, instructor integer, uid text)
        CROSS JOIN LATERAL (SELECT trainee_problem(t.name, t.created, t.archived_at, t.uid) AS why OFFSET 0) p
        WHERE p.why IS NOT NULL LIMIT 1;
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END IF;
    INSERT INTO trainees (name, created, archived, archived_at, instructor, uid)
        SELECT name, created, archived, archived_at, instructor, uid
        FROM jsonb_to_recordset(batch->'trainees') AS t (name text, created double precision, archived integer, archived_at double precision, instructor integer, uid text)
        ON CONFLICT (uid) DO NOTHING;
    BEGIN
        WITH a AS (
            SELECT * FROM jsonb_to_recordset(batch->'attempts') AS a (
                uid text, item_id text, game text, mode text, seed text, started double precision, ended double precision, duration double precision, target double precision, procedure integer, payouts integer, speed integer, total integer, passed integer, critical integer, abandoned integer, log text, source text, rule integer, trainee_uid text, skills jsonb, findings jsonb)
        ), added AS (
            INSERT INTO attempts (uid, trainee_id, item_id, game, mode, seed, started, ended, duration, target, procedure, payouts, speed, total, passed, critical, abandoned, log, source, rule)
                SELECT a.uid, t.id, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration, a.target, a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical, a.abandoned, a.log, a.source, a.rule FROM a JOIN trainees t ON t.uid = a.trainee_uid
                ORDER BY a.started
                ON CONFLICT (uid) DO NOTHING
                RETURNING id, uid, trainee_id, started
        ), f AS (
            INSERT INTO findings (attempt_id, kind, skill, citation, severity, message, expected, actual)
                SELECT added.id, f.kind, f.skill, f.citation, f.severity, f.message, f.expected, f.actual
                FROM added JOIN a USING (uid),
                     jsonb_to_recordset(a.findings) AS f (kind text, skill text, citation text, severity text, message text, expected text, actual text)
        ), s AS (
            INSERT INTO attempt_skills (attempt_id, skill, trainee_id, started)
                SELECT added.id, k.skill, added.trainee_id, added.started
                FROM added JOIN a USING (uid), jsonb_array_elements_text(a.skills) AS k (skill)
        )
        SELECT count(*), coalesce(array_agg(uid), '{}') INTO added, added_uids FROM added;
    EXCEPTION WHEN check_violation THEN
        -- which attempt the checks refuse (trainer.classes.server.tables, s010), and why, in words
        WITH a AS (
            SELECT * FROM jsonb_to_recordset(batch->'attempts') AS a (
                uid text, item_id text, game text, mode text, seed text, started double precision, ended double precision, duration double precision, target double precision, procedure integer, payouts integer, speed integer, total integer, passed integer, critical integer, abandoned integer, log text, source text, rule integer, trainee_uid text, skills jsonb, findings jsonb)
        )
        SELECT format('attempt %s: %s', left(a.uid, 64), p.why) INTO refused
            FROM a CROSS JOIN LATERAL (SELECT coalesce(
                attempt_problem(a.uid, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration,
                                a.target, a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical,
                                a.abandoned, a.log, a.source, a.rule),
                (SELECT finding_problem(f.kind, f.skill, f.citation, f.severity, f.message, f.expected, f.actual)
                 FROM jsonb_to_recordset(a.findings) AS f (kind text, skill text, citation text, severity text, message text, expected text, actual text)
                 WHERE finding_problem(f.kind, f.skill, f.citation, f.severity, f.message, f.expected,
                                       f.actual) IS NOT NULL LIMIT 1),
                (SELECT 'a skill''s name is empty or longer than 100 characters'
                 FROM jsonb_array_elements_text(a.skills) AS k (skill)
                 WHERE length(k.skill) NOT BETWEEN 1 AND 100 LIMIT 1)) AS why OFFSET 0) p
            WHERE p.why IS NOT NULL LIMIT 1;
        IF refused IS NULL THEN
            RAISE;
        END IF;
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END;
    -- an attempt not added is refused when its trainee is not in the class, or when the class
    -- holds a different attempt under its id: a copy of one already here (a push repeated) adds
    -- nothing, but the first pushed under an id never hides another sent later. (Checked after
    -- the insert, which waits for another push of the same id to end: no race lets one through.)
    WITH a AS (
        SELECT * FROM jsonb_to_recordset(batch->'attempts') AS a (
            uid text, item_id text, game text, mode text, seed text, started double precision, ended double precision, duration double precision, target double precision, procedure integer, payouts integer, speed integer, total integer, passed integer, critical integer, abandoned integer, log text, source text, rule integer, trainee_uid text, skills jsonb, findings jsonb)
    )
    SELECT format('attempt %s: %s', left(a.uid, 64), CASE WHEN t.id IS NULL OR s.id IS NULL
            THEN 'its trainee is not in the class (the batch does not name them)'
            ELSE 'the class server holds a different attempt under this id, sent before it from '
                 || left(s.source, 60) || ' (the first under an id is kept: ask the instructor, '
                 'who can retract it)' END) INTO refused
        FROM a LEFT JOIN trainees t ON t.uid = a.trainee_uid
        LEFT JOIN attempts s ON s.uid = a.uid
        WHERE a.uid <> ALL(added_uids) AND (t.id IS NULL OR s.id IS NULL OR (
            (t.id, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration, a.target,
             a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical, a.abandoned, a.log, a.source)
            IS DISTINCT FROM
            (s.trainee_id, s.item_id, s.game, s.mode, s.seed, s.started, s.ended, s.duration, s.target,
             s.procedure, s.payouts, s.speed, s.total, s.passed, s.critical, s.abandoned, s.log, s.source)
            OR (s.rule IS NOT NULL AND s.rule IS DISTINCT FROM a.rule)
            OR ARRAY(SELECT ROW(f.kind, f.skill, f.citation, f.severity, f.message, f.expected, f.actual)
                     FROM findings f WHERE f.attempt_id = s.id ORDER BY f.id)
               IS DISTINCT FROM
               ARRAY(SELECT ROW(f.kind, f.skill, f.citation, f.severity, f.message, f.expected, f.actual)
                     FROM jsonb_to_recordset(a.findings) AS f (kind text, skill text, citation text, severity text, message text, expected text, actual text))
            OR ARRAY(SELECT k.skill FROM attempt_skills k WHERE k.attempt_id = s.id ORDER BY 1)
               IS DISTINCT FROM
               ARRAY(SELECT DISTINCT k.skill FROM jsonb_array_elements_text(a.skills) AS k (skill) ORDER BY 1)))
        LIMIT 1;
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END IF;
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor
