CREATE TABLE class_info (uid text PRIMARY KEY DEFAULT md5(random()::text || clock_timestamp()::text),
    created double precision NOT NULL DEFAULT extract(epoch FROM now()),
    one boolean NOT NULL DEFAULT true UNIQUE CHECK (one));
INSERT INTO class_info DEFAULT VALUES;
GRANT SELECT ON class_info TO class_trainee, class_instructor, class_supervisor, class_workstation;
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: its rows are never changed or removed', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TABLE trainees (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    created double precision NOT NULL,
    archived integer NOT NULL CHECK (archived IN (0, 1)),
    archived_at double precision,
    instructor integer NOT NULL CHECK (instructor IN (0, 1)),
    uid text NOT NULL,
    UNIQUE (uid),
    login text UNIQUE
);
CREATE TRIGGER trainees_no_delete BEFORE DELETE ON trainees FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainees_no_truncate BEFORE TRUNCATE ON trainees
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION trainee_uid_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.uid IS DISTINCT FROM OLD.uid THEN
        RAISE EXCEPTION 'a trainee id never changes' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER trainees_uid_fixed BEFORE UPDATE ON trainees FOR EACH ROW EXECUTE FUNCTION trainee_uid_fixed();
CREATE TABLE attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uid text NOT NULL,
    trainee_id bigint NOT NULL REFERENCES trainees (id),
    item_id text NOT NULL,
    game text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('practice', 'scenario', 'drill', 'payout-drill', 'exam')),
    seed text,
    started double precision NOT NULL,
    ended double precision NOT NULL,
    duration double precision NOT NULL,
    target double precision,
    procedure integer NOT NULL CHECK (procedure BETWEEN 0 AND 100),
    payouts integer NOT NULL CHECK (payouts BETWEEN 0 AND 100),
    speed integer NOT NULL CHECK (speed BETWEEN 0 AND 100),
    total integer NOT NULL CHECK (total BETWEEN 0 AND 100),
    passed integer NOT NULL CHECK (passed IN (0, 1)),
    critical integer NOT NULL CHECK (critical IN (0, 1)),
    abandoned integer NOT NULL CHECK (abandoned IN (0, 1)),
    log text NOT NULL CHECK (log IS JSON),
    source text NOT NULL,
    UNIQUE (uid)
);
CREATE INDEX attempts_trainee ON attempts (trainee_id, started);
CREATE INDEX attempts_item ON attempts (item_id, started);
CREATE TABLE findings (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    attempt_id bigint NOT NULL REFERENCES attempts (id),
    kind text NOT NULL,
    skill text NOT NULL,
    citation text NOT NULL,
    severity text NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
    message text NOT NULL,
    expected text,
    actual text CHECK (actual IS JSON)
);
CREATE INDEX findings_attempt ON findings (attempt_id, skill);
CREATE TABLE attempt_skills (
    attempt_id bigint NOT NULL REFERENCES attempts (id),
    skill text NOT NULL,
    trainee_id integer NOT NULL,
    started double precision NOT NULL,
    PRIMARY KEY (attempt_id, skill)
);
CREATE INDEX attempt_skills_recent ON attempt_skills (trainee_id, skill, started);
CREATE TRIGGER attempts_append_only BEFORE UPDATE OR DELETE ON attempts FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER attempts_no_truncate BEFORE TRUNCATE ON attempts FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER findings_append_only BEFORE UPDATE OR DELETE ON findings FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER findings_no_truncate BEFORE TRUNCATE ON findings FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER attempt_skills_append_only BEFORE UPDATE OR DELETE ON attempt_skills FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER attempt_skills_no_truncate BEFORE TRUNCATE ON attempt_skills FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
ALTER TABLE trainees ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainees FORCE ROW LEVEL SECURITY;
CREATE POLICY trainees_owner ON trainees TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY trainees_staff ON trainees FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY trainees_own ON trainees FOR SELECT TO class_trainee USING (login = current_user);
REVOKE ALL ON trainees FROM PUBLIC;
GRANT SELECT ON trainees TO class_trainee, class_instructor, class_supervisor;
ALTER TABLE attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE attempts FORCE ROW LEVEL SECURITY;
CREATE POLICY attempts_owner ON attempts TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY attempts_staff ON attempts FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY attempts_own ON attempts FOR SELECT TO class_trainee USING (trainee_id IN (SELECT id FROM trainees));
REVOKE ALL ON attempts FROM PUBLIC;
GRANT SELECT ON attempts TO class_trainee, class_instructor, class_supervisor;
ALTER TABLE findings ENABLE ROW LEVEL SECURITY;
ALTER TABLE findings FORCE ROW LEVEL SECURITY;
CREATE POLICY findings_owner ON findings TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY findings_staff ON findings FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY findings_own ON findings FOR SELECT TO class_trainee USING (attempt_id IN (SELECT id FROM attempts));
REVOKE ALL ON findings FROM PUBLIC;
GRANT SELECT ON findings TO class_trainee, class_instructor, class_supervisor;
ALTER TABLE attempt_skills ENABLE ROW LEVEL SECURITY;
ALTER TABLE attempt_skills FORCE ROW LEVEL SECURITY;
CREATE POLICY attempt_skills_owner ON attempt_skills TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY attempt_skills_staff ON attempt_skills FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY attempt_skills_own ON attempt_skills FOR SELECT TO class_trainee USING (trainee_id IN (SELECT id FROM trainees));
REVOKE ALL ON attempt_skills FROM PUBLIC;
GRANT SELECT ON attempt_skills TO class_trainee, class_instructor, class_supervisor;
CREATE FUNCTION announce_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('class_attempts', NEW.id::text);
    RETURN NULL;
END $$;
CREATE TRIGGER attempts_announce AFTER INSERT ON attempts FOR EACH ROW EXECUTE FUNCTION announce_attempt();
CREATE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    own text;
BEGIN
    IF pg_has_role(session_user, 'class_trainee', 'MEMBER')
            AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        SELECT uid INTO own FROM trainees WHERE login = session_user;
        IF EXISTS (SELECT 1 FROM jsonb_to_recordset(batch->'trainees') AS t (uid text)
                   WHERE t.uid IS DISTINCT FROM own) THEN
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
            uid text, item_id text, game text, mode text, seed text, started double precision, ended double precision, duration double precision, target double precision, procedure integer, payouts integer, speed integer, total integer, passed integer, critical integer, abandoned integer, log text, source text, trainee_uid text, skills jsonb, findings jsonb)
    ), added AS (
        INSERT INTO attempts (uid, trainee_id, item_id, game, mode, seed, started, ended, duration, target, procedure, payouts, speed, total, passed, critical, abandoned, log, source)
            SELECT a.uid, t.id, a.item_id, a.game, a.mode, a.seed, a.started, a.ended, a.duration, a.target, a.procedure, a.payouts, a.speed, a.total, a.passed, a.critical, a.abandoned, a.log, a.source FROM a JOIN trainees t ON t.uid = a.trainee_uid
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
