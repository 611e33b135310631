-- s039 made a trainee's login's claim of a new trainee id register it only with proof that her
-- login made it, but her login's push still registered any id the class did not hold, first
-- wins: Tom's push of {Tom Reyes, Bo's unsent id} (read from a shared progress file) was taken,
-- and Bo's workstation was then refused it (the fifth cold review, #104). Now a trainee's own
-- login's push registers a trainee id the class does not hold only with the same proof: the
-- trainee row carries the salt her login made the id with (`salt`: the profile keeps it, the
-- progress file's m024; s039's login_made_uid checks it), or the instructor settled her claim of
-- it hers. Any other such row is refused by name, its results kept on the workstation, and her
-- claim of it (s039's 'kept') is the instructor's to settle. A workstation's login is checked
-- as in s039.
CREATE OR REPLACE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    refused text;
    added integer;
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
    ELSIF pg_has_role(session_user, 'class_trainee', 'MEMBER')
            AND NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        -- a trainee's own login registers a new id only with the proof that it made it; found
        -- before the push, refused after it, so that a row the push refuses anyway (another's
        -- name, an exam's attempt) is refused for that
        SELECT format('trainee %s: the class does not hold this trainee id yet, and this login did not '
                      'make it (a profile made before the login, or another''s): nothing is sent under '
                      'it until the instructor settles this login''s claim of it hers (dealer-trainer '
                      'settle-claim)', left(coalesce(t.uid, ''), 64))
            INTO refused
            FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'trainees') = 'array'
                                         THEN batch->'trainees' ELSE '[]' END) AS t (uid text, salt text)
            WHERE NOT EXISTS (SELECT 1 FROM trainees s WHERE s.uid = t.uid)
              AND NOT login_made_uid(t.uid, t.salt)
            LIMIT 1;
    END IF;
    added := push_attempts_charged(batch);
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
    END IF;
    RETURN added;
END $$
