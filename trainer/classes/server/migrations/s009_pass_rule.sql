ALTER TABLE attempts ADD COLUMN rule integer CHECK (rule IS NULL OR rule >= 1);
CREATE OR REPLACE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    own text;
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
    INSERT INTO trainees (name, created, archived, archived_at, instructor, uid)
        SELECT name, created, archived, archived_at, instructor, uid
        FROM jsonb_to_recordset(batch->'trainees') AS t (name text, created double precision, archived integer, archived_at double precision, instructor integer, uid text)
        ON CONFLICT (uid) DO NOTHING;
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
    SELECT count(*) INTO added FROM added;
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor
