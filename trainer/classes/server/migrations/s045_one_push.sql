-- A push ran as a chain: s010's push, renamed push_attempts_checked by s018 and wrapped, that
-- wrapper renamed push_attempts_served by s021 and wrapped, that one renamed push_attempts_bounded
-- by s023 and wrapped, that one renamed push_attempts_charged by s032 under the push_attempts of
-- s043 (s036 and s039 replaced only that outermost one). Each layer was a PL/pgSQL function of its
-- own, compiled again on each new connection. push_attempts_charged is now the three layers under
-- it and itself in one function, each step in the order the chain ran it, with the same
-- refusals, messages, locks and rights; push_attempts stays s043's, over it, since s039's
-- claim_trainee_uid calls push_attempts_charged itself (a claim proves its id with a salt the row
-- it pushes does not carry). The three inner layers are dropped: nothing else calls them.
-- Both plan each statement once per connection (plan_cache_mode), not again at each of its first
-- five pushes: every statement reads the batch, which tells the planner nothing (a jsonb list's
-- rows are guessed as 100 whatever it holds), so each of those plans was the same plan made again.
CREATE OR REPLACE FUNCTION push_attempts_charged(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    added integer;
    added_uids text[];
    own text;
    refused text;
    new_rows bigint;
    new_bytes bigint;
BEGIN
    -- s023: what the trainees and attempts the class does not hold yet will charge the login
    SELECT coalesce(sum(1 + CASE WHEN jsonb_typeof(e->'findings') = 'array' THEN jsonb_array_length(e->'findings') ELSE 0 END
                          + CASE WHEN jsonb_typeof(e->'skills') = 'array' THEN jsonb_array_length(e->'skills') ELSE 0 END), 0),
           coalesce(sum(octet_length(e::text)), 0)
        INTO new_rows, new_bytes
        FROM (SELECT e FROM jsonb_array_elements(CASE WHEN jsonb_typeof(batch->'attempts') = 'array'
                                                      THEN batch->'attempts' ELSE '[]' END) AS a (e)
              WHERE NOT EXISTS (SELECT 1 FROM attempts s WHERE s.uid = e->>'uid')
              UNION ALL
              SELECT e FROM jsonb_array_elements(CASE WHEN jsonb_typeof(batch->'trainees') = 'array'
                                                      THEN batch->'trainees' ELSE '[]' END) AS t (e)
              WHERE NOT EXISTS (SELECT 1 FROM trainees s WHERE s.uid = e->>'uid')) AS fresh;
    -- s021: each attempt's log bounded
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
    -- s010: a trainee's login pushes her own rows only; each row checked, then written
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
    -- s018: each trainee id is registered by the first login that sends it (a class's ids from
    -- before s018: the first that sends it since); waits for another push of it to end
    INSERT INTO trainee_workstations (trainee_uid, login, how)
        SELECT DISTINCT u.uid, session_user, 'registered'
        FROM (SELECT t.uid FROM jsonb_to_recordset(batch->'trainees') AS t (uid text)
              UNION SELECT a.trainee_uid FROM jsonb_to_recordset(batch->'attempts') AS a (trainee_uid text)) AS u
        JOIN trainees s ON s.uid = u.uid
        ON CONFLICT (trainee_uid) WHERE how = 'registered' DO NOTHING;
    IF workstation_caller() THEN
        -- a workstation's login sends rows only for the trainees it serves, and none for a
        -- trainee with a login of their own: those reach the class from that login only
        SELECT format('%s %s: %s', r.kind, left(r.uid, 64), CASE
                WHEN EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = s.name) THEN
                    format('%s has a login of their own in this class: their results reach it from '
                           'that login only, not from a workstation''s', s.name)
                ELSE 'this trainee was registered in the class by another workstation''s login: '
                     'the instructor attaches them to this workstation (dealer-trainer class-workstation attach)' END)
            INTO refused
            FROM (SELECT 'trainee' AS kind, t.uid, t.uid AS trainee_uid
                  FROM jsonb_to_recordset(batch->'trainees') AS t (uid text)
                  UNION ALL
                  SELECT 'attempt', a.uid, a.trainee_uid
                  FROM jsonb_to_recordset(batch->'attempts') AS a (uid text, trainee_uid text)) AS r
            JOIN trainees s ON s.uid = r.trainee_uid
            WHERE EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = s.name)
               OR NOT serves_trainee(r.trainee_uid)
            LIMIT 1;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    -- s021: each new attempt's seconds to answer kept
    INSERT INTO attempt_answer_gaps (attempt_id, trainee_id, gaps)
        SELECT s.id, s.trainee_id, log_answer_gaps(s.log)
        FROM jsonb_to_recordset(batch->'attempts') AS a (uid text)
        JOIN attempts s ON s.uid = a.uid
        ON CONFLICT (attempt_id) DO NOTHING;
    -- s023: the login charged
    PERFORM charge_login('attempts', new_rows, new_bytes);
    RETURN added;
END $$;
DROP FUNCTION push_attempts_bounded(jsonb);
DROP FUNCTION push_attempts_served(jsonb);
DROP FUNCTION push_attempts_checked(jsonb);
ALTER FUNCTION push_attempts(jsonb) SET plan_cache_mode = force_generic_plan;
-- s018's workstation_caller, which each push asks twice (and each exam call and supervised push
-- once), in PL/pgSQL: the same answer, its statement planned once per connection, where as SQL
-- (SECURITY DEFINER, never inlined) it was parsed and planned again at every call
CREATE OR REPLACE FUNCTION workstation_caller() RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN pg_has_role(session_user, 'class_workstation', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_trainee', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_supervisor', 'MEMBER')
       AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user);
END $$;
