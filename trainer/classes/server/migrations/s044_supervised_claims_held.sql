-- s041's sender check of supervised rounds, reading s039's `held` as push_attempts does: a claim
-- made while the class did not hold the id (kept for the instructor, `held` false) blocks no
-- workstation's rounds, as it blocks none of its attempts
CREATE OR REPLACE FUNCTION supervised_sender_problem(trainee text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE
        WHEN s.id IS NULL THEN 'its trainee is not in the class (the batch does not name them)'
        WHEN pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN NULL
        WHEN pg_has_role(session_user, 'class_trainee', 'MEMBER') THEN
            CASE WHEN s.uid NOT IN (SELECT login_person_uids())
                      AND NOT EXISTS (SELECT 1 FROM trainee_claims c JOIN trainee_claim_settlements x ON x.claim_id = c.id
                                      WHERE c.trainee_uid = s.uid AND c.login = session_user
                                        AND x.outcome = 'claimant')
                 THEN 'a trainee pushes only their own results' END
        WHEN workstation_caller() THEN CASE
            WHEN EXISTS (SELECT 1 FROM trainee_logins l WHERE l.name = s.name) THEN
                format('%s has a login of their own in this class: their results reach it from '
                       'that login only, not from a workstation''s', s.name)
            WHEN EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = s.uid AND c.held
                         AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements x
                                         WHERE x.claim_id = c.id AND x.outcome = 'row')) THEN
                'a trainee''s own login claims this trainee id as hers: nothing more is sent under it '
                'from a workstation''s login (unless the instructor settles it the row''s)'
            WHEN NOT serves_trainee(s.uid) THEN
                'this trainee was registered in the class by another workstation''s login'
            END
        ELSE 'this login sends no results' END
    FROM (SELECT trainee AS uid) AS asked LEFT JOIN trainees s ON s.uid = asked.uid
$$;
