-- a trainee id a trainee's own login claimed as hers (her password proven, the id her profile's)
-- while the class held it under another name: kept, insert-only, so that whose the id is stays
-- in question until the instructor settles it; the staff read it
CREATE TABLE trainee_claims (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trainee_uid text NOT NULL REFERENCES trainees (uid),
    login text NOT NULL,
    name text NOT NULL,
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    UNIQUE (trainee_uid, login)
);
ALTER TABLE trainee_claims ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainee_claims FORCE ROW LEVEL SECURITY;
CREATE POLICY trainee_claims_owner ON trainee_claims TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY trainee_claims_staff ON trainee_claims FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON trainee_claims FROM PUBLIC;
GRANT SELECT ON trainee_claims TO class_instructor, class_supervisor;
CREATE TRIGGER trainee_claims_append_only BEFORE UPDATE OR DELETE ON trainee_claims FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainee_claims_no_truncate BEFORE TRUNCATE ON trainee_claims FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- the trainee ids of the caller's own person (a trainee's login): every row of its name, and
-- the rows merged with one of them, as s029's login_trainee_uid finds the first of them
CREATE FUNCTION login_person_uids() RETURNS SETOF text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH RECURSIVE
    merged AS (SELECT DISTINCT ON (uid, other_uid) uid, other_uid, event
               FROM trainee_merges ORDER BY uid, other_uid, id DESC),
    pairs (one, other) AS (SELECT uid, other_uid FROM merged WHERE event = 'merged'
                           UNION ALL SELECT other_uid, uid FROM merged WHERE event = 'merged'),
    person (uid) AS (
        SELECT t.uid FROM trainees t JOIN trainee_logins l ON l.name = t.name
        WHERE l.login = session_user AND pg_has_role(session_user, 'class_trainee', 'MEMBER')
        UNION
        SELECT n.uid FROM person p JOIN pairs ON pairs.one = p.uid JOIN trainees m ON m.uid = pairs.other
        JOIN trainees n ON n.uid = m.uid
                        OR (n.name = m.name AND EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = m.name))
    )
    SELECT uid FROM person
$$;
REVOKE ALL ON FUNCTION login_person_uids() FROM PUBLIC;
-- a trainee's own login claims the trainee id `claimed` (her profile's, made at `made`) as hers:
-- 'registered' when the class did not hold it (it is sent now, under her login's name and by her
-- login, as her push would send it: no workstation's login can register it first); 'hers' when
-- the class holds it as hers already; 'held' when it holds it under the name of another person
-- with no login of their own (a workstation's trainee; an id of a login's is refused): the
-- claim is kept (trainee_claims), no workstation's login sends under that id any more, and the
-- exports refuse it by name until the instructor settles whose it is
CREATE FUNCTION claim_trainee_uid(claimed text, made double precision) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    own text;
    why text;
    fresh boolean;
BEGIN
    SELECT name INTO own FROM trainee_logins WHERE login = session_user;
    IF own IS NULL OR NOT pg_has_role(session_user, 'class_trainee', 'MEMBER')
            OR pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only a trainee''s own login claims a trainee id as hers'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    why := trainee_problem(own, made, NULL, claimed);
    IF why IS NOT NULL THEN
        RAISE EXCEPTION 'refused trainee %: %', left(coalesce(claimed, ''), 64), why
            USING ERRCODE = 'check_violation';
    END IF;
    fresh := NOT EXISTS (SELECT 1 FROM trainees WHERE uid = claimed);
    IF fresh THEN  -- a push of the same id at once waits for this one, or this for it
        PERFORM push_attempts(jsonb_build_object('trainees', jsonb_build_array(jsonb_build_object(
            'name', own, 'created', made, 'archived', 0, 'archived_at', NULL, 'instructor', 0,
            'uid', claimed)), 'attempts', '[]'::jsonb));
    END IF;
    IF claimed IN (SELECT login_person_uids()) THEN
        RETURN CASE WHEN fresh THEN 'registered' ELSE 'hers' END;
    END IF;
    -- an id of a name with a login of its own is that login's: no other login disputes it
    IF EXISTS (SELECT 1 FROM trainees t JOIN trainee_logins l ON l.name = t.name WHERE t.uid = claimed) THEN
        RAISE EXCEPTION 'refused trainee %: the class holds this id as another trainee''s, who has a '
            'login of their own', left(claimed, 64) USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO trainee_claims (trainee_uid, login, name) VALUES (claimed, session_user, own)
        ON CONFLICT (trainee_uid, login) DO NOTHING;
    RETURN 'held';
END $$;
REVOKE ALL ON FUNCTION claim_trainee_uid(text, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claim_trainee_uid(text, double precision) TO class_trainee;
-- s023's push, under a name no login calls itself; push_attempts refuses a workstation's login
-- any row under a trainee id a trainee's own login claimed
ALTER FUNCTION push_attempts(jsonb) RENAME TO push_attempts_charged;
REVOKE ALL ON FUNCTION push_attempts_charged(jsonb) FROM PUBLIC, class_workstation, class_trainee, class_instructor;
CREATE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    refused text;
BEGIN
    IF workstation_caller() THEN
        SELECT format('%s %s: a trainee''s own login claims this trainee id as hers, and the class '
                      'holds it under another name: nothing more is sent under it from a '
                      'workstation''s login until the instructor settles whose it is', r.kind, left(r.uid, 64))
            INTO refused
            FROM (SELECT 'trainee' AS kind, t.uid, t.uid AS trainee_uid
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'trainees') = 'array'
                                               THEN batch->'trainees' ELSE '[]' END) AS t (uid text)
                  UNION ALL
                  SELECT 'attempt', a.uid, a.trainee_uid
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'attempts') = 'array'
                                               THEN batch->'attempts' ELSE '[]' END) AS a (uid text, trainee_uid text)) AS r
            WHERE EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = r.trainee_uid)
            LIMIT 1;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN push_attempts_charged(batch);
END $$;
REVOKE ALL ON FUNCTION push_attempts(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_attempts(jsonb) TO class_workstation, class_trainee, class_instructor
