-- the rounds a trainee supervised (trainer.progress.supervised), pushed with the attempts: one
-- row per round by its uid (trainer.progress.supervised `round_uid`), its faults each
-- with its class and whether it was caught; checked here, bounded, append-only
CREATE TABLE supervised_rounds (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uid text NOT NULL UNIQUE CHECK (uid ~ '^[0-9a-f]{64}$'),
    trainee_id bigint NOT NULL REFERENCES trainees (id),
    round_uid text NOT NULL CHECK (length(round_uid) BETWEEN 1 AND 400),
    game text NOT NULL CHECK (game IN ('props-and-hops', 'three-dice-football', 'high-roll-dice',
                                       'high-roll-dice-6', 'pai-gow-dice')),
    difficulty integer NOT NULL CHECK (difficulty BETWEEN 1 AND 5),
    finished double precision NOT NULL CHECK (finished BETWEEN 0 AND 1e11),
    pace double precision NOT NULL CHECK (pace > 0 AND pace <= 3600),
    score text NOT NULL CHECK (score ~ '^[0-9]{1,19}(/[0-9]{1,19})?$'),
    d_prime double precision NOT NULL CHECK (d_prime BETWEEN -100 AND 100),
    false_alarms integer NOT NULL CHECK (false_alarms BETWEEN 0 AND 10000),
    flags text NOT NULL CHECK (octet_length(flags) <= 65536),
    source text NOT NULL DEFAULT session_user
);
CREATE INDEX supervised_rounds_trainee ON supervised_rounds (trainee_id, finished);
CREATE TABLE supervised_faults (
    round_id bigint NOT NULL REFERENCES supervised_rounds (id),
    n integer NOT NULL CHECK (n BETWEEN 0 AND 99),
    kind text NOT NULL CHECK (kind ~ '^[a-z0-9-]{1,60}$'),
    fault_class text NOT NULL CHECK (fault_class IN ('money', 'calls', 'records', 'security', 'order')),
    caught boolean NOT NULL,
    seconds double precision CONSTRAINT supervised_faults_seconds_check CHECK ((seconds IS NULL) = (NOT caught) AND (seconds IS NULL OR seconds BETWEEN 0 AND 86400)),
    PRIMARY KEY (round_id, n)
);
ALTER TABLE supervised_rounds ENABLE ROW LEVEL SECURITY;
ALTER TABLE supervised_rounds FORCE ROW LEVEL SECURITY;
ALTER TABLE supervised_faults ENABLE ROW LEVEL SECURITY;
ALTER TABLE supervised_faults FORCE ROW LEVEL SECURITY;
CREATE POLICY supervised_rounds_owner ON supervised_rounds TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY supervised_rounds_staff ON supervised_rounds FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY supervised_rounds_own ON supervised_rounds FOR SELECT TO class_trainee USING (trainee_id IN (SELECT id FROM trainees));
CREATE POLICY supervised_faults_owner ON supervised_faults TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY supervised_faults_staff ON supervised_faults FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY supervised_faults_own ON supervised_faults FOR SELECT TO class_trainee USING (round_id IN (SELECT id FROM supervised_rounds));
REVOKE ALL ON supervised_rounds, supervised_faults FROM PUBLIC;
GRANT SELECT ON supervised_rounds, supervised_faults TO class_instructor, class_supervisor, class_trainee;
CREATE TRIGGER supervised_rounds_append_only BEFORE UPDATE OR DELETE ON supervised_rounds FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER supervised_rounds_no_truncate BEFORE TRUNCATE ON supervised_rounds FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER supervised_faults_append_only BEFORE UPDATE OR DELETE ON supervised_faults FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER supervised_faults_no_truncate BEFORE TRUNCATE ON supervised_faults FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- a supervised round announced on the class's channel as an attempt is (s011, s016), by its id
-- negated, so that the live Class tab reads the catch rates again (an attempt's id is positive)
CREATE FUNCTION announce_supervised_round() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_notification_queue_usage() < 0.5 THEN
        PERFORM pg_notify((SELECT channel FROM public.class_info), (-NEW.id)::text);
    END IF;
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION announce_supervised_round() FROM PUBLIC;
CREATE TRIGGER supervised_rounds_announced AFTER INSERT ON supervised_rounds FOR EACH ROW
    EXECUTE FUNCTION announce_supervised_round();
-- what a login has had the class keep counts its supervised rounds too (s023's login_storage)
ALTER TABLE login_storage DROP CONSTRAINT login_storage_what_check;
ALTER TABLE login_storage ADD CONSTRAINT login_storage_what_check
    CHECK (what IN ('attempts', 'exam steps', 'supervised rounds'));
-- why the caller may not send rows of the trainee `trainee` (NULL: it may), as push_attempts
-- decides for attempts: a trainee's own login, only her own; a workstation's login, only the
-- trainees it serves, none with a login of their own and none an own login claimed
CREATE FUNCTION supervised_sender_problem(trainee text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE
        WHEN s.id IS NULL THEN 'its trainee is not in the class (the batch does not name them)'
        WHEN pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN NULL
        WHEN pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
            CASE WHEN s.name IS DISTINCT FROM (SELECT name FROM trainee_logins WHERE login = session_user)
                 THEN 'a trainee pushes only their own results' END
        WHEN workstation_caller() THEN CASE
            WHEN EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = s.name) THEN
                format('%s has a login of their own in this class: their results reach it from '
                       'that login only, not from a workstation''s', s.name)
            WHEN EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = s.uid) THEN
                'a trainee''s own login claims this trainee id as hers, and the class holds it under another name'
            WHEN NOT serves_trainee(s.uid) THEN
                'this trainee was registered in the class by another workstation''s login'
            END
        ELSE 'this login sends no results' END
    FROM (SELECT trainee AS uid) AS asked LEFT JOIN trainees s ON s.uid = asked.uid
$$;
REVOKE ALL ON FUNCTION supervised_sender_problem(text) FROM PUBLIC;
-- a batch of supervised rounds ({"rounds": [{uid, trainee_uid, round_uid, game, difficulty,
-- finished, pace, score, d_prime, false_alarms, flags, faults: [{n, kind, fault_class, caught,
-- seconds}]}]}; their trainees sent first by push_attempts, in the same transaction): each
-- round checked, the caller's login charged for the new ones; a round the class holds already
-- under its uid adds nothing, one that differs from it is refused. How many were added.
CREATE FUNCTION push_supervised(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    r record;
    f record;
    held supervised_rounds;
    row_id bigint;
    refused text;
    added integer := 0;
    new_rows bigint := 0;
    new_bytes bigint := 0;
BEGIN
    IF jsonb_typeof(batch->'rounds') IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'refused the batch: it holds no list of rounds' USING ERRCODE = 'check_violation';
    END IF;
    IF jsonb_array_length(batch->'rounds') > 1000 THEN
        RAISE EXCEPTION 'refused the batch: more than 1,000 rounds' USING ERRCODE = 'check_violation';
    END IF;
    FOR r IN SELECT e, x.* FROM jsonb_array_elements(batch->'rounds') AS a (e),
            LATERAL jsonb_to_record(CASE WHEN jsonb_typeof(e) = 'object' THEN e ELSE '{}' END) AS x (
                uid text, trainee_uid text, round_uid text, game text, difficulty integer, finished double precision,
                pace double precision, score text, d_prime double precision, false_alarms integer, flags text, faults jsonb)
    LOOP
        refused := supervised_sender_problem(r.trainee_uid);
        IF refused IS NULL AND (jsonb_typeof(r.faults) IS DISTINCT FROM 'array' OR jsonb_array_length(r.faults) > 100) THEN
            refused := 'its faults are not a list of at most 100';
        END IF;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused supervised round %: %', left(coalesce(r.uid, ''), 64), refused
                USING ERRCODE = CASE WHEN refused LIKE 'a trainee pushes%' THEN 'insufficient_privilege' ELSE 'check_violation' END;
        END IF;
        SELECT * INTO held FROM supervised_rounds WHERE uid = r.uid;
        IF FOUND THEN
            IF (held.trainee_id, held.round_uid, held.game, held.difficulty, held.finished, held.pace, held.score,
                held.d_prime, held.false_alarms, held.flags) IS DISTINCT FROM
               ((SELECT id FROM trainees WHERE uid = r.trainee_uid), r.round_uid, r.game, r.difficulty, r.finished,
                r.pace, r.score, r.d_prime, r.false_alarms, r.flags) THEN
                RAISE EXCEPTION 'refused supervised round %: the class holds a different round under this id',
                    left(r.uid, 64) USING ERRCODE = 'check_violation';
            END IF;
            CONTINUE;
        END IF;
        BEGIN
            INSERT INTO supervised_rounds (uid, trainee_id, round_uid, game, difficulty, finished, pace, score,
                                           d_prime, false_alarms, flags)
                SELECT r.uid, t.id, r.round_uid, r.game, r.difficulty, r.finished, r.pace, r.score, r.d_prime,
                       r.false_alarms, r.flags FROM trainees t WHERE t.uid = r.trainee_uid
                RETURNING id INTO row_id;
            INSERT INTO supervised_faults (round_id, n, kind, fault_class, caught, seconds)
                SELECT row_id, x.n, x.kind, x.fault_class, x.caught, x.seconds
                FROM jsonb_to_recordset(r.faults) AS x (n integer, kind text, fault_class text, caught boolean,
                                                        seconds double precision);
        EXCEPTION WHEN check_violation OR not_null_violation OR unique_violation THEN
            RAISE EXCEPTION 'refused supervised round %: %', left(coalesce(r.uid, ''), 64), SQLERRM
                USING ERRCODE = 'check_violation';
        END;
        added := added + 1;
        new_rows := new_rows + 1 + jsonb_array_length(r.faults);
        new_bytes := new_bytes + octet_length(r.e::text);
    END LOOP;
    PERFORM charge_login('supervised rounds', new_rows, new_bytes);
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_supervised(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_supervised(jsonb) TO class_workstation, class_trainee, class_instructor
