-- the trainee id the class knows the caller's own login by (a trainee's login; none for any
-- other): the first the class holds of its person, as the class's readers group them
-- (trainer.classes.server.people): every row of the login's name, each row merged with one of
-- them by an instructor (the last record of a pair in force), and every row of such a row's name
-- when that name has a login too; the lowest server id of them all. NULL when the class holds no
-- row of the name yet. A workstation whose trainee proves her login with her password makes her
-- profile there under this id, so that the class has one trainee id for her
CREATE FUNCTION login_trainee_uid() RETURNS text
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
    SELECT t.uid FROM trainees t WHERE t.uid IN (SELECT uid FROM person) ORDER BY t.id LIMIT 1
$$;
REVOKE ALL ON FUNCTION login_trainee_uid() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION login_trainee_uid() TO class_trainee
