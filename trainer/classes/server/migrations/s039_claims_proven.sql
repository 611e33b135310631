-- s032 registered any trainee id the class did not hold to the first trainee's login that claimed
-- it (or pushed it): Tom's login claimed the id of a classmate's profile not sent yet (Bo's, or
-- Ana's made before her login, read from a shared progress file), and it was his; Bo's push was
-- then refused naming Tom, and Ana's own claim refused for good (the fifth cold review, #104).
-- Now a trainee's login's claim registers a new id only when it proves it made it: the id is her login's
-- commitment (`trainee_commitment`: the class, her login and a salt of hers, which the claim
-- reveals), or the instructor settled her claim of it hers. Any other claim of an id the class
-- does not hold is kept as a claim (not held: `held` false) for the instructor to settle, and
-- blocks nobody: the row's push is taken as before
ALTER TABLE trainee_claims DROP CONSTRAINT trainee_claims_trainee_uid_fkey;
ALTER TABLE trainee_claims ADD COLUMN held boolean NOT NULL DEFAULT true;
-- the trainee id the caller's login commits to with `salt` (trainer.classes.server.logins
-- `committed_uid` makes the same): 32 hex digits of SHA-256 of the class's id, the login and the salt
CREATE FUNCTION trainee_commitment(salt text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT left(encode(sha256(convert_to(concat_ws(E'\n', 'dealer-trainer trainee id',
                                                   (SELECT uid FROM class_info), session_user::text, salt),
                                         'UTF8')), 'hex'), 32)
$$;
REVOKE ALL ON FUNCTION trainee_commitment(text) FROM PUBLIC;
-- whether the caller's login may register the trainee id `claimed` the class does not hold: its
-- commitment with `salt`, or an id the instructor settled the caller's claim of hers
CREATE FUNCTION login_made_uid(claimed text, salt text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT (salt IS NOT NULL AND salt ~ '^[0-9a-f]{32}$' AND claimed = trainee_commitment(salt))
        OR EXISTS (SELECT 1 FROM trainee_claims c JOIN trainee_claim_settlements s ON s.claim_id = c.id
                   WHERE c.trainee_uid = claimed AND c.login = session_user AND s.outcome = 'claimant')
$$;
REVOKE ALL ON FUNCTION login_made_uid(text, text) FROM PUBLIC;
-- a trainee's own login claims the trainee id `claimed` (her profile's, made at `made`) as hers:
-- 'registered' when the class did not hold it and her login proves it made it (`salt`, above):
-- sent now under her name, by her login; 'kept' when the class does not hold it and her login
-- does not prove it: the claim is kept for the instructor to settle (dealer-trainer
-- settle-claim), and the id is not registered; 'hers' when the class holds it as hers already;
-- 'held' when it holds it under the name of another person with no login of their own (s032)
CREATE FUNCTION claim_trainee_uid(claimed text, made double precision, salt text) RETURNS text
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
    IF fresh AND login_made_uid(claimed, salt) THEN  -- a push of the same id at once waits for this one
        PERFORM push_attempts_charged(jsonb_build_object('trainees', jsonb_build_array(jsonb_build_object(
            'name', own, 'created', made, 'archived', 0, 'archived_at', NULL, 'instructor', 0,
            'uid', claimed)), 'attempts', '[]'::jsonb));
    ELSIF fresh THEN
        IF NOT EXISTS (SELECT 1 FROM trainee_claims WHERE trainee_uid = claimed AND login = session_user) THEN
            PERFORM charge_login('attempts', 1, 256);  -- as the trainee row it stands for
            INSERT INTO trainee_claims (trainee_uid, login, name, held) VALUES (claimed, session_user, own, false)
                ON CONFLICT (trainee_uid, login) DO NOTHING;
        END IF;
        RETURN 'kept';
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
REVOKE ALL ON FUNCTION claim_trainee_uid(text, double precision, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claim_trainee_uid(text, double precision, text) TO class_trainee;
-- s032's claim, as an app before this one calls it: no salt, so a new id is kept, never registered
CREATE OR REPLACE FUNCTION claim_trainee_uid(claimed text, made double precision) RETURNS text
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT claim_trainee_uid(claimed, made, NULL::text)
$$;
-- s036's push: a workstation's login sends nothing under a trainee id a login claimed while the
-- class held it under another name (a claim made before the id was held blocks nobody), nor a
-- row under an id the class holds under the name of another trainee with a login of their own
-- (refused without naming them: whose it is is the instructor's to tell)
CREATE OR REPLACE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    refused text;
BEGIN
    IF workstation_caller() THEN
        SELECT format('%s %s: %s', r.kind, left(r.uid, 64), CASE
                WHEN EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = r.trainee_uid AND c.held
                             AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s
                                             WHERE s.claim_id = c.id AND s.outcome = 'row')) THEN
                    'a trainee''s own login claims this trainee id as hers: nothing more is sent under it '
                    'from a workstation''s login (unless the instructor settles it the row''s)'
                ELSE 'the class holds this trainee id under the name of another trainee, who has a login '
                     'of their own: nothing is sent under it from a workstation''s login (the instructor '
                     'tells whose it is)' END)
            INTO refused
            FROM (SELECT 'trainee' AS kind, t.uid, t.uid AS trainee_uid, t.name
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'trainees') = 'array'
                                               THEN batch->'trainees' ELSE '[]' END) AS t (uid text, name text)
                  UNION ALL
                  SELECT 'attempt', a.uid, a.trainee_uid, NULL
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'attempts') = 'array'
                                               THEN batch->'attempts' ELSE '[]' END) AS a (uid text, trainee_uid text)) AS r
            WHERE EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = r.trainee_uid AND c.held
                          AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s
                                          WHERE s.claim_id = c.id AND s.outcome = 'row'))
               OR (r.kind = 'trainee' AND EXISTS (
                       SELECT 1 FROM trainees t JOIN trainee_logins l ON l.name = t.name
                       WHERE t.uid = r.trainee_uid AND t.name IS DISTINCT FROM r.name))
            LIMIT 1;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN push_attempts_charged(batch);
END $$
