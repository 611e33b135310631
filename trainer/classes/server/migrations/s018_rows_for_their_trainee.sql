CREATE TABLE trainee_workstations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trainee_uid text NOT NULL REFERENCES trainees (uid),
    login text NOT NULL,
    how text NOT NULL CHECK (how IN ('registered', 'attached')),
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    done_by text NOT NULL DEFAULT session_user
);
CREATE UNIQUE INDEX trainee_workstations_registered ON trainee_workstations (trainee_uid) WHERE how = 'registered';
CREATE INDEX trainee_workstations_by_login ON trainee_workstations (login, trainee_uid);
ALTER TABLE trainee_workstations ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainee_workstations FORCE ROW LEVEL SECURITY;
CREATE POLICY trainee_workstations_owner ON trainee_workstations TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY trainee_workstations_staff ON trainee_workstations FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON trainee_workstations FROM PUBLIC;
GRANT SELECT ON trainee_workstations TO class_instructor, class_supervisor;
CREATE TRIGGER trainee_workstations_append_only BEFORE UPDATE OR DELETE ON trainee_workstations FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainee_workstations_no_truncate BEFORE TRUNCATE ON trainee_workstations FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- whether the caller is a workstation's login (the shared one, or an enrolled one): not a
-- trainee's own, not the staff's
CREATE FUNCTION workstation_caller() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT pg_has_role(session_user, 'class_workstation', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_trainee', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER')
       AND NOT pg_has_role(session_user, 'class_supervisor', 'MEMBER')
       AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
$$;
-- the trainee ids the caller's login serves: those it registered, and those the instructor attached to it
CREATE FUNCTION serves_trainee(trainee_uid text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM trainee_workstations w
                   WHERE w.trainee_uid = serves_trainee.trainee_uid AND w.login = session_user)
$$;
-- s010's push, under a name no login calls itself; push_attempts checks whose rows a
-- workstation's login sends, after it
ALTER FUNCTION push_attempts(jsonb) RENAME TO push_attempts_checked;
REVOKE ALL ON FUNCTION push_attempts_checked(jsonb) FROM PUBLIC, class_workstation, class_trainee, class_instructor;
CREATE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    refused text;
BEGIN
    added := push_attempts_checked(batch);
    -- each trainee id is registered by the first login that sends it (a class's ids from before
    -- this migration: the first that sends it from now on); waits for another push of it to end
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
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor;
-- an instructor attaches a trainee id to an enrolled workstation, whose login then sends for it
CREATE FUNCTION attach_trainee(trainee text, station text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    login_name text;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login attaches a trainee to a workstation'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainees WHERE uid = trainee) THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', left(coalesce(trainee, ''), 64)
            USING ERRCODE = 'no_data_found';
    END IF;
    SELECT last.login INTO login_name
        FROM (SELECT login, event FROM workstation_logins WHERE name = station ORDER BY id DESC LIMIT 1) AS last
        WHERE last.event = 'enrolled';
    IF login_name IS NULL THEN
        RAISE EXCEPTION 'no workstation % is enrolled in this class', quote_literal(left(coalesce(station, ''), 100))
            USING ERRCODE = 'no_data_found';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainee_workstations WHERE trainee_uid = trainee AND login = login_name) THEN
        INSERT INTO trainee_workstations (trainee_uid, login, how) VALUES (trainee, login_name, 'attached');
    END IF;
    RETURN login_name;
END $$;
REVOKE ALL ON FUNCTION attach_trainee(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION attach_trainee(text, text) TO class_instructor;
-- the attempts a trainee used at a form, to whom they concern: the staff read any trainee's, a
-- trainee's login its own name's only, a workstation's login those of the trainees it serves
-- who have no login of their own (s004's exam_attempts_used, which the class's own calls count
-- with, no login calls itself any more)
REVOKE ALL ON FUNCTION exam_attempts_used(text, text) FROM PUBLIC, class_trainee, class_workstation;
CREATE FUNCTION exam_attempts_readable(trainee text) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF pg_has_role(session_user, 'class_instructor', 'MEMBER')
            OR pg_has_role(session_user, 'class_supervisor', 'MEMBER') THEN
        RETURN;
    ELSIF pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
        IF NOT EXISTS (SELECT 1 FROM trainee_logins WHERE login = session_user AND name = trainee) THEN
            RAISE EXCEPTION 'this login reads its own trainee''s attempts only'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSIF NOT workstation_caller()
            OR EXISTS (SELECT 1 FROM trainee_logins WHERE name = trainee)
            OR NOT EXISTS (SELECT 1 FROM trainees s WHERE s.name = trainee AND serves_trainee(s.uid)) THEN
        RAISE EXCEPTION 'a workstation''s login reads the attempts of the trainees it serves only '
            '(a trainee with a login of their own reads theirs with it)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;
CREATE FUNCTION exam_attempts_of(trainee text, form text) RETURNS integer
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM exam_attempts_readable(trainee);
    RETURN exam_attempts_used(trainee, form);
END $$;
REVOKE ALL ON FUNCTION exam_attempts_of(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_attempts_of(text, text) TO class_trainee, class_instructor, class_supervisor, class_workstation;
-- a name's login: a trainee's login is told its own only (a workstation is told, for it asks the
-- trainee's password; the login's name is a digest of the class and the name)
CREATE OR REPLACE FUNCTION trainee_login_of(trainee text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT login FROM trainee_logins WHERE name = trainee
        AND (login = session_user OR NOT pg_has_role(session_user, 'class_trainee', 'MEMBER')
             OR pg_has_role(session_user, 'class_instructor', 'MEMBER'))
$$;
REVOKE ALL ON FUNCTION exam_attempts_readable(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION workstation_caller() FROM PUBLIC;
REVOKE ALL ON FUNCTION serves_trainee(text) FROM PUBLIC
