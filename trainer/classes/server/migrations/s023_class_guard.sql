-- What each login that is not the staff's has had the class store: one row per push or step that
-- stored anything (its rows and bytes), insert-only, read by the staff; login_quota is what it
-- may have stored in all
CREATE TABLE login_storage (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    login text NOT NULL DEFAULT session_user,
    what text NOT NULL CHECK (what IN ('attempts', 'exam steps')),
    rows bigint NOT NULL CHECK (rows >= 0),
    bytes bigint NOT NULL CHECK (bytes >= 0),
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp())
);
CREATE INDEX login_storage_by_login ON login_storage (login) INCLUDE (rows, bytes);
ALTER TABLE login_storage ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_storage FORCE ROW LEVEL SECURITY;
CREATE POLICY login_storage_owner ON login_storage TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY login_storage_staff ON login_storage FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON login_storage FROM PUBLIC;
GRANT SELECT ON login_storage TO class_instructor, class_supervisor;
CREATE TRIGGER login_storage_append_only BEFORE UPDATE OR DELETE ON login_storage FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER login_storage_no_truncate BEFORE TRUNCATE ON login_storage FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- the rows and bytes a login may have the class store: the shared workstation login serves every
-- workstation not enrolled, so ten times what a trainee's login or an enrolled workstation's may
-- (a trainee who practised eight hours a day for six weeks, a round a minute, stored about 14,400
-- attempts and 45 MB)
CREATE FUNCTION login_quota(login_name text, OUT rows bigint, OUT bytes bigint)
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN login_name = 'workstation' THEN 500000 ELSE 50000 END::bigint,
           CASE WHEN login_name = 'workstation' THEN 2684354560 ELSE 268435456 END::bigint
$$;
-- what the caller's login has had stored, and may (an instructor's: no quota)
CREATE FUNCTION login_stored(OUT rows bigint, OUT bytes bigint, OUT quota_rows bigint, OUT quota_bytes bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce(sum(s.rows), 0)::bigint, coalesce(sum(s.bytes), 0)::bigint, q.rows, q.bytes
    FROM login_quota(session_user) AS q LEFT JOIN login_storage s ON s.login = session_user
    GROUP BY q.rows, q.bytes
$$;
-- the caller's login has the class store `new_rows` rows of `new_bytes` bytes more: refused,
-- naming the quota, past it (not a row's refusal: the workstation keeps its rows waiting)
CREATE FUNCTION charge_login(what text, new_rows bigint, new_bytes bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    held record;
BEGIN
    IF new_rows <= 0 OR pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RETURN;
    END IF;
    SELECT * INTO held FROM login_stored();
    IF held.rows + new_rows > held.quota_rows OR held.bytes + new_bytes > held.quota_bytes THEN
        RAISE EXCEPTION 'the class keeps no more from login %: it holds % rows (% bytes) from it, '
            'and a login may have it keep % rows (% bytes); these % would pass that',
            session_user, held.rows, held.bytes, held.quota_rows, held.quota_bytes, what;
    END IF;
    INSERT INTO login_storage (what, rows, bytes) VALUES (what, new_rows, new_bytes);
END $$;
REVOKE ALL ON FUNCTION login_quota(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION login_stored() FROM PUBLIC;
REVOKE ALL ON FUNCTION charge_login(text, bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION login_stored() TO class_trainee, class_instructor, class_supervisor, class_workstation;
-- s021's push, under a name no login calls itself; push_attempts charges the caller's login with
-- the trainees and attempts (their findings and skills) that the class did not hold
ALTER FUNCTION push_attempts(jsonb) RENAME TO push_attempts_bounded;
REVOKE ALL ON FUNCTION push_attempts_bounded(jsonb) FROM PUBLIC, class_workstation, class_trainee, class_instructor;
CREATE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    added integer;
    new_rows bigint;
    new_bytes bigint;
BEGIN
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
    added := push_attempts_bounded(batch);
    PERFORM charge_login('attempts', new_rows, new_bytes);
    RETURN added;
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor;
-- s014's step, under a name no login calls itself; exam_sitting_step bounds an answer's log as
-- push_attempts bounds an attempt's (an item is one round), and charges the caller's login with
-- the step or refusal it kept. A sitting of n items has n + 2 steps at most (its start, an answer
-- to each item, its end) and 100 refusals (s012): so a sitting holds n times 262,144 bytes of logs
-- at most
ALTER FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) RENAME TO exam_sitting_step_timed;
REVOKE ALL ON FUNCTION exam_sitting_step_timed(text, integer, bytea, text, integer, text, text)
    FROM PUBLIC, class_trainee, class_instructor, class_supervisor, class_workstation;
CREATE FUNCTION exam_sitting_step(sitting text, at_step integer, proof bytea, what text, item integer,
                                  given text, how text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    reply text;
    kept_before bigint;
    refused_before bigint;
    kept bigint;
    refused bigint;
BEGIN
    IF what = 'answer' AND octet_length(given) > 262144 THEN
        RAISE EXCEPTION 'an answer''s log is % bytes, more than the 262,144 an item''s log may hold',
            octet_length(given);
    END IF;
    IF what = 'answer' AND pg_input_is_valid(given, 'jsonb') AND jsonb_typeof(given::jsonb) = 'array'
            AND jsonb_array_length(given::jsonb) > 2000 THEN
        RAISE EXCEPTION 'an answer''s log is % actions, more than the 2,000 an item''s log may hold',
            jsonb_array_length(given::jsonb);
    END IF;
    SELECT count(*) INTO kept_before FROM exam_sitting_steps WHERE nonce = sitting;
    SELECT count(*) INTO refused_before FROM exam_sitting_refusals WHERE nonce = sitting;
    reply := exam_sitting_step_timed(sitting, at_step, proof, what, item, given, how);
    SELECT count(*) INTO kept FROM exam_sitting_steps WHERE nonce = sitting;
    SELECT count(*) INTO refused FROM exam_sitting_refusals WHERE nonce = sitting;
    IF kept > kept_before THEN
        PERFORM charge_login('exam steps', 1, 256 + coalesce(octet_length(given), 0));
    ELSIF refused > refused_before THEN
        PERFORM charge_login('exam steps', 1, 256);
    END IF;
    RETURN reply;
END $$;
REVOKE ALL ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_sitting_step(text, integer, bytea, text, integer, text, text)
    TO class_trainee, class_instructor, class_supervisor, class_workstation;
-- a name of the class is its registering login's: a workstation's login registers no new trainee
-- id under a name the class holds, unless it serves one of that name's ids (else it is another
-- workstation's trainee, whose rows the instructor would read as theirs); the instructor
-- attaches that trainee to this workstation first. Two such pushes at once: the second waits on the name's
-- row in class_names (s017, whose trigger runs before this one), then sees the first.
CREATE FUNCTION refuse_name_served_elsewhere() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF workstation_caller() AND NOT EXISTS (SELECT 1 FROM trainees t WHERE t.uid = NEW.uid)
            AND NOT EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = NEW.name)  -- s018 refuses it
            AND EXISTS (SELECT 1 FROM trainees t WHERE t.name = NEW.name)
            AND NOT EXISTS (SELECT 1 FROM trainees t WHERE t.name = NEW.name AND serves_trainee(t.uid)) THEN
        RAISE EXCEPTION 'refused trainee %: ''%'' is in the class already, registered by another '
            'workstation''s login: the instructor attaches them to this workstation '
            '(dealer-trainer class-workstation attach) or gives them a login of their own',
            left(NEW.uid, 40), NEW.name USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION refuse_name_served_elsewhere() FROM PUBLIC;
CREATE TRIGGER trainees_served_name BEFORE INSERT ON trainees
    FOR EACH ROW EXECUTE FUNCTION refuse_name_served_elsewhere();
-- a name of the class the caller may be told: an instructor's or supervisor's login, any; a
-- trainee's login, its own name; a workstation's login, the names of the trainees it serves
CREATE FUNCTION name_told(other text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT pg_has_role(session_user, 'class_instructor', 'MEMBER')
        OR pg_has_role(session_user, 'class_supervisor', 'MEMBER')
        OR EXISTS (SELECT 1 FROM trainee_logins l WHERE l.login = session_user AND l.name = other)
        OR (workstation_caller() AND EXISTS (SELECT 1 FROM trainees t WHERE t.name = other AND serves_trainee(t.uid)))
$$;
REVOKE ALL ON FUNCTION name_told(text) FROM PUBLIC;
-- s017's look-alike question answers a login only with a name it may be told (else none: the
-- push then refuses the name, without naming the other)
CREATE OR REPLACE FUNCTION name_look_alike(name text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT c.name
    FROM (SELECT name_skeleton(name_look_alike.name) AS folded,
                 name_skeleton(name_look_alike.name, true) AS written
          WHERE length(name_look_alike.name) <= 200) AS k
    JOIN class_names c ON (c.skeleton, c.cased) IN ((k.folded, false), (k.written, true))
    WHERE c.name <> name_look_alike.name AND name_told(c.name)
    ORDER BY c.cased LIMIT 1
$$;
-- s017's refusal of a look-alike names the other name only to a login that may be told it
CREATE OR REPLACE FUNCTION refuse_look_alike_name() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    uid text := to_jsonb(NEW) ->> 'uid';
    who text := '';
    written boolean;
    key text;
    first text;
    scripts text[];
BEGIN
    IF NEW.name IS NULL OR length(NEW.name) > 200 THEN
        RETURN NEW;  -- refused by the table's own checks
    END IF;
    IF TG_TABLE_NAME = 'trainees' THEN
        IF EXISTS (SELECT 1 FROM trainees t WHERE t.uid = NEW.uid) THEN
            RETURN NEW;
        END IF;
        who := 'refused trainee ' || left(uid, 40) || ': ';
    END IF;
    FOREACH written IN ARRAY ARRAY[false, true] LOOP
        key := name_skeleton(NEW.name, written);
        INSERT INTO class_names (skeleton, cased, name) VALUES (key, written, NEW.name)
            ON CONFLICT (skeleton, cased) DO NOTHING;
        SELECT c.name INTO first FROM class_names c WHERE c.skeleton = key AND c.cased = written;
        IF first IS DISTINCT FROM NEW.name THEN
            IF name_told(first) THEN
                RAISE EXCEPTION '%''%'' looks like ''%'', already in the class', who, NEW.name, first
                    USING ERRCODE = 'check_violation';
            END IF;
            RAISE EXCEPTION '%''%'' looks like a name already in the class', who, NEW.name
                USING ERRCODE = 'check_violation';
        END IF;
    END LOOP;
    scripts := name_scripts(NEW.name);
    IF cardinality(scripts) > 1 THEN
        RAISE EXCEPTION '%''%'' mixes % letters, which read alike',
            who, NEW.name, array_to_string(trim_array(scripts, 1), ', ') || ' and ' || scripts[cardinality(scripts)]
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$
