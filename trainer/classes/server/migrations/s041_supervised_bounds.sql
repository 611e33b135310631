-- the supervised rounds the class keeps are checked as its attempts are (s010): a round's every
-- field bounded to what the app writes, so that a row no reader can use is refused at push; the
-- uid is the round's own (sha256 of its trainee's id, its deal and when it was finished, as
-- trainer.progress.supervised `round_uid` makes it), so that nobody sends under a classmate's
-- round's uid first; an instructor retracts a supervised round as an attempt, insert-only with
-- its reason; and who may send a trainee's rounds follows push_attempts's rules (s036)
--
-- the fault types of trainer.supervise.catalogue, each with its game and class, as this version
-- deals them (a type a later version adds comes with a migration that gives this function again)
CREATE FUNCTION supervised_fault_kinds() RETURNS TABLE (kind text, game text, fault_class text)
LANGUAGE sql IMMUTABLE AS $$
    SELECT * FROM (VALUES
        ('hrd-cocked-die-called-valid', 'high-roll-dice', 'security'),
        ('hrd-dice-not-boxed', 'high-roll-dice', 'records'),
        ('hrd-dice-wrong-box', 'high-roll-dice', 'records'),
        ('hrd-even-money', 'high-roll-dice', 'money'),
        ('hrd-extra-roll-not-collected', 'high-roll-dice', 'money'),
        ('hrd-extra-roll-not-locked', 'high-roll-dice', 'records'),
        ('hrd-extra-roll-not-made', 'high-roll-dice', 'records'),
        ('hrd-held-like-kind-collected', 'high-roll-dice', 'money'),
        ('hrd-improper-wager-accepted', 'high-roll-dice', 'security'),
        ('hrd-loser-left', 'high-roll-dice', 'money'),
        ('hrd-loser-paid', 'high-roll-dice', 'money'),
        ('hrd-no-more-bets-missed', 'high-roll-dice', 'calls'),
        ('hrd-no-roll-missed', 'high-roll-dice', 'calls'),
        ('hrd-overpay', 'high-roll-dice', 'money'),
        ('hrd-paid-twice', 'high-roll-dice', 'money'),
        ('hrd-settled-late', 'high-roll-dice', 'money'),
        ('hrd-settled-out-of-order', 'high-roll-dice', 'order'),
        ('hrd-short-pay', 'high-roll-dice', 'money'),
        ('hrd-valid-roll-called-no-roll', 'high-roll-dice', 'calls'),
        ('hrd-winner-collected', 'high-roll-dice', 'money'),
        ('hrd-winner-unpaid', 'high-roll-dice', 'money'),
        ('hrd-wrong-call', 'high-roll-dice', 'calls'),
        ('hrd6-cocked-die-called-valid', 'high-roll-dice-6', 'security'),
        ('hrd6-dice-not-boxed', 'high-roll-dice-6', 'records'),
        ('hrd6-dice-wrong-box', 'high-roll-dice-6', 'records'),
        ('hrd6-even-money', 'high-roll-dice-6', 'money'),
        ('hrd6-improper-wager-accepted', 'high-roll-dice-6', 'security'),
        ('hrd6-loser-left', 'high-roll-dice-6', 'money'),
        ('hrd6-loser-paid', 'high-roll-dice-6', 'money'),
        ('hrd6-no-more-bets-missed', 'high-roll-dice-6', 'calls'),
        ('hrd6-no-roll-missed', 'high-roll-dice-6', 'calls'),
        ('hrd6-not-shaken', 'high-roll-dice-6', 'records'),
        ('hrd6-overpay', 'high-roll-dice-6', 'money'),
        ('hrd6-paid-twice', 'high-roll-dice-6', 'money'),
        ('hrd6-short-pay', 'high-roll-dice-6', 'money'),
        ('hrd6-valid-roll-called-no-roll', 'high-roll-dice-6', 'calls'),
        ('hrd6-wager-after-no-more-bets', 'high-roll-dice-6', 'order'),
        ('hrd6-winner-collected', 'high-roll-dice-6', 'money'),
        ('hrd6-winner-unpaid', 'high-roll-dice-6', 'money'),
        ('hrd6-wrong-call', 'high-roll-dice-6', 'calls'),
        ('pgd-even-money', 'pai-gow-dice', 'money'),
        ('pgd-late-wager-accepted', 'pai-gow-dice', 'security'),
        ('pgd-loser-left', 'pai-gow-dice', 'money'),
        ('pgd-loser-paid', 'pai-gow-dice', 'money'),
        ('pgd-no-more-bets-missed', 'pai-gow-dice', 'calls'),
        ('pgd-overpay', 'pai-gow-dice', 'money'),
        ('pgd-paid-twice', 'pai-gow-dice', 'money'),
        ('pgd-short-pay', 'pai-gow-dice', 'money'),
        ('pgd-valid-roll-called-no-roll', 'pai-gow-dice', 'calls'),
        ('pgd-wager-after-no-more-bets', 'pai-gow-dice', 'order'),
        ('pgd-winner-collected', 'pai-gow-dice', 'money'),
        ('pgd-winner-unpaid', 'pai-gow-dice', 'money'),
        ('pgd-wrong-call', 'pai-gow-dice', 'calls'),
        ('ph-even-money', 'props-and-hops', 'money'),
        ('ph-improper-wager-accepted', 'props-and-hops', 'security'),
        ('ph-lammer-not-moved', 'props-and-hops', 'records'),
        ('ph-lammers-not-placed', 'props-and-hops', 'records'),
        ('ph-late-wager-accepted', 'props-and-hops', 'security'),
        ('ph-loser-left', 'props-and-hops', 'money'),
        ('ph-loser-paid', 'props-and-hops', 'money'),
        ('ph-no-more-bets-missed', 'props-and-hops', 'calls'),
        ('ph-no-roll-missed', 'props-and-hops', 'calls'),
        ('ph-no-roll-reason', 'props-and-hops', 'calls'),
        ('ph-overpay', 'props-and-hops', 'money'),
        ('ph-paid-before-collected', 'props-and-hops', 'order'),
        ('ph-paid-twice', 'props-and-hops', 'money'),
        ('ph-pointer-missed', 'props-and-hops', 'records'),
        ('ph-pointer-wrong', 'props-and-hops', 'records'),
        ('ph-settled-late', 'props-and-hops', 'money'),
        ('ph-shake-collected-working', 'props-and-hops', 'money'),
        ('ph-shaker-not-shaken', 'props-and-hops', 'records'),
        ('ph-shaker-to-wrong-player', 'props-and-hops', 'records'),
        ('ph-short-pay', 'props-and-hops', 'money'),
        ('ph-take-down-kept', 'props-and-hops', 'money'),
        ('ph-valid-roll-called-no-roll', 'props-and-hops', 'calls'),
        ('ph-wager-after-no-more-bets', 'props-and-hops', 'order'),
        ('ph-winner-collected', 'props-and-hops', 'money'),
        ('ph-winner-unpaid', 'props-and-hops', 'money'),
        ('ph-wrong-call', 'props-and-hops', 'calls'),
        ('ph-wrong-lammer', 'props-and-hops', 'records'),
        ('tdf-cocked-die-called-valid', 'three-dice-football', 'security'),
        ('tdf-dice-to-wrong-player', 'three-dice-football', 'records'),
        ('tdf-down-missed', 'three-dice-football', 'calls'),
        ('tdf-down-wrong', 'three-dice-football', 'calls'),
        ('tdf-even-money', 'three-dice-football', 'money'),
        ('tdf-extra-point-missed', 'three-dice-football', 'calls'),
        ('tdf-full-game-collected-working', 'three-dice-football', 'money'),
        ('tdf-late-wager-accepted', 'three-dice-football', 'security'),
        ('tdf-loser-left', 'three-dice-football', 'money'),
        ('tdf-loser-paid', 'three-dice-football', 'money'),
        ('tdf-lost-die-no-new-set', 'three-dice-football', 'security'),
        ('tdf-markers-not-moved', 'three-dice-football', 'records'),
        ('tdf-markers-not-set', 'three-dice-football', 'records'),
        ('tdf-no-roll-missed', 'three-dice-football', 'calls'),
        ('tdf-no-roll-reason', 'three-dice-football', 'calls'),
        ('tdf-overpay', 'three-dice-football', 'money'),
        ('tdf-settled-late', 'three-dice-football', 'money'),
        ('tdf-settled-out-of-order', 'three-dice-football', 'order'),
        ('tdf-short-pay', 'three-dice-football', 'money'),
        ('tdf-valid-throw-called-no-roll', 'three-dice-football', 'calls'),
        ('tdf-winner-collected', 'three-dice-football', 'money'),
        ('tdf-winner-unpaid', 'three-dice-football', 'money'),
        ('tdf-wrong-call', 'three-dice-football', 'calls'),
        ('tdf-yard-marker-wrong', 'three-dice-football', 'records')) AS k (kind, game, fault_class)
$$;
-- why a supervised round's row is not one the app writes (NULL: it is), in words: its uid a
-- digest; its deal's id "supervise-v1:SCENARIO:FAULTS:SEED" (trainer.supervise.rounds
-- `round_id`: no control, format or bidirectional characters, 0 to 50 faults dealt); finished
-- between 2000 and 2100 as an attempt (s010); a pace of a form's (0 to 60 s); the score an exact
-- fraction from 0 to 1 in lowest terms, as str(Fraction) writes it; d' and the false alarms
-- bounded; the flags a JSON list of at most 1,000 flags as trainer.supervise.scoring
-- `flags_from_json` reads them
CREATE FUNCTION supervised_round_problem(uid text, round_uid text, game text, difficulty integer,
                                         finished double precision, pace double precision, score text,
                                         d_prime double precision, false_alarms integer, flags text)
RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN uid IS NULL OR uid !~ '^[0-9a-f]{64}$'
            THEN 'its id is not a SHA-256 digest (64 hexadecimal digits)'
        WHEN round_uid IS NULL OR length(round_uid) > 300
                OR round_uid !~ '^supervise-v1:[^:]{1,200}:[0-9]{1,2}:[^:]{1,64}$'
                OR round_uid ~ '[\x01-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]'
            THEN 'its deal''s id is not one the app deals (supervise-v1:SCENARIO:FAULTS:SEED, 0 to 50 '
                 'faults, no control, format or bidirectional characters)'
        WHEN split_part(round_uid, ':', 3)::integer > 50
            THEN 'its deal''s id is not one the app deals (supervise-v1:SCENARIO:FAULTS:SEED, 0 to 50 '
                 'faults, no control, format or bidirectional characters)'
        WHEN game IS NULL OR game NOT IN ('props-and-hops', 'three-dice-football', 'high-roll-dice',
                                          'high-roll-dice-6', 'pai-gow-dice')
            THEN 'its game is not one of the class''s games'
        WHEN difficulty IS NULL OR difficulty NOT BETWEEN 1 AND 5
            THEN 'its difficulty is not 1 to 5'
        WHEN NOT coalesce(finished BETWEEN 946684800 AND 4102444800, false)
            THEN 'it was not finished at a time between 2000 and 2100'
        WHEN NOT coalesce(pace > 0 AND pace <= 60, false)
            THEN 'its pace is not more than 0 and at most 60 seconds an action'
        WHEN score IS NULL OR score !~ '^(0|1|[1-9][0-9]{0,5}/[1-9][0-9]{0,5})$'
            THEN 'its score is not a fraction from 0 to 1 in lowest terms (0, 1 or p/q with p < q)'
        WHEN CASE WHEN score LIKE '%/%'
                  THEN NOT (split_part(score, '/', 1)::integer < split_part(score, '/', 2)::integer
                            AND gcd(split_part(score, '/', 1)::integer, split_part(score, '/', 2)::integer) = 1)
                  ELSE false END
            THEN 'its score is not a fraction from 0 to 1 in lowest terms (0, 1 or p/q with p < q)'
        WHEN NOT coalesce(d_prime BETWEEN -100 AND 100, false)
            THEN 'its d'' is not a number from -100 to 100'
        WHEN NOT coalesce(false_alarms BETWEEN 0 AND 1000, false)
            THEN 'its false alarms are not 0 to 1,000'
        WHEN flags IS NULL OR octet_length(flags) > 65536 OR NOT pg_input_is_valid(flags, 'jsonb')
            THEN 'its flags are not JSON of 65,536 bytes at most'
        WHEN jsonb_typeof(flags::jsonb) <> 'array' OR jsonb_array_length(flags::jsonb) > 1000
                OR jsonb_path_exists(flags::jsonb, 'lax $[*] ? (@.type() != "object"
                    || !(@.at.type() == "number") || @.at < 0 || @.at > 86400
                    || !(@.target like_regex "^[A-Za-z0-9 ._-]{1,64}$")
                    || !(@.kind like_regex "^[A-Za-z0-9 ._-]{1,64}$"))')
            THEN 'its flags are not a list of at most 1,000 flags (each a time from 0 to a day, a target '
                 'and a fault''s kind of 1 to 64 letters, digits, spaces, "-", "_" or ".")'
        WHEN false_alarms > jsonb_array_length(flags::jsonb)
            THEN 'it has more false alarms than flags'
    END
$$;
-- the same for a round's faults (a jsonb list as push_supervised takes it) in a round of `game`
-- dealt as `round_uid` says, with `flags` flags and `false_alarms` of them false alarms: each
-- fault a type of the catalogue of the round's game, with its class; numbered 0 on, each once;
-- as many as the deal puts in (exactly its count for a dealt round, which scripts none; at least
-- it for a scenario, which may script more), and one flag of the round per fault caught
CREATE FUNCTION supervised_faults_problem(faults jsonb, game text, round_uid text, flags integer,
                                          false_alarms integer) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH f AS (
        SELECT x.* FROM jsonb_to_recordset(faults) AS x (n integer, kind text, fault_class text, caught boolean,
                                                         seconds double precision)
    ), dealt AS (
        SELECT split_part(round_uid, ':', 3)::integer AS count,
               split_part(round_uid, ':', 2) ~ '^(payout-)?drill-' AS drawn
    )
    SELECT CASE
        WHEN jsonb_path_exists(faults, 'lax $[*] ? (@.type() != "object" || !(@.n.type() == "number")
                                   || !(@.kind.type() == "string") || !(@.fault_class.type() == "string")
                                   || !(@.caught.type() == "boolean"))')
            THEN 'its faults are not each an object with its number, kind, class and whether it was caught'
        WHEN EXISTS (SELECT 1 FROM f LEFT JOIN supervised_fault_kinds() k
                         ON k.kind = f.kind AND k.game = supervised_faults_problem.game
                        AND k.fault_class = f.fault_class
                     WHERE k.kind IS NULL)
            THEN 'a fault of it is not a type of the catalogue of its game, with its class'
        WHEN (SELECT count(DISTINCT n) <> count(*) OR coalesce(min(n), 0) <> 0 OR coalesce(max(n), -1) <> count(*) - 1
              FROM f)
            THEN 'its faults are not numbered 0, 1, 2 ... each once'
        WHEN (SELECT CASE WHEN d.drawn THEN jsonb_array_length(faults) <> d.count
                          ELSE jsonb_array_length(faults) < d.count END FROM dealt d)
            THEN 'it has other than the faults its deal puts in'
        WHEN (SELECT count(*) FILTER (WHERE caught) FROM f) + false_alarms <> flags
            THEN 'its flags are not its faults caught and its false alarms'
    END
$$;
REVOKE ALL ON FUNCTION supervised_faults_problem(jsonb, text, text, integer, integer) FROM PUBLIC;
-- a round's uid as trainer.progress.supervised `round_uid` makes it: sha256 of the trainee's
-- id, the deal's id and the time finished, each on its line, the time as the JSON sent writes it
-- (Python's repr, which json.dumps writes too; jsonb keeps its digits)
CREATE FUNCTION supervised_round_uid(trainee_uid text, round_uid text, finished jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT encode(sha256(convert_to(trainee_uid || E'\n' || round_uid || E'\n' || finished::text, 'UTF8')), 'hex')
$$;
-- rows stored before this migration that it would refuse are retracted by it (below), each with
-- its check; from now on none is stored
ALTER TABLE supervised_rounds ADD CONSTRAINT supervised_rounds_as_the_class_keeps_them
    CHECK (supervised_round_problem(uid, round_uid, game, difficulty, finished, pace, score, d_prime,
                                    false_alarms, flags) IS NULL) NOT VALID;
-- an instructor's retraction of a supervised round, as s010's of an attempt: insert-only, with
-- its reason, who and when; the exports and the class view leave the round out, and name it
CREATE TABLE supervised_retractions (
    round_id bigint PRIMARY KEY REFERENCES supervised_rounds (id),
    reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500 AND reason = btrim(reason)
                                AND reason !~ '[\x01-\x1f\x7f]'),
    retracted_by text NOT NULL DEFAULT session_user,
    retracted double precision NOT NULL DEFAULT extract(epoch FROM now())
);
ALTER TABLE supervised_retractions ENABLE ROW LEVEL SECURITY;
ALTER TABLE supervised_retractions FORCE ROW LEVEL SECURITY;
CREATE POLICY supervised_retractions_owner ON supervised_retractions TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY supervised_retractions_staff ON supervised_retractions FOR SELECT TO class_instructor, class_supervisor USING (true);
CREATE POLICY supervised_retractions_retract ON supervised_retractions FOR INSERT TO class_instructor
    WITH CHECK (retracted_by = session_user);
CREATE POLICY supervised_retractions_own ON supervised_retractions FOR SELECT TO class_trainee
    USING (round_id IN (SELECT id FROM supervised_rounds));
REVOKE ALL ON supervised_retractions FROM PUBLIC;
GRANT SELECT ON supervised_retractions TO class_trainee, class_instructor, class_supervisor;
GRANT INSERT (round_id, reason) ON supervised_retractions TO class_instructor;
CREATE TRIGGER supervised_retractions_append_only BEFORE UPDATE OR DELETE ON supervised_retractions FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER supervised_retractions_no_truncate BEFORE TRUNCATE ON supervised_retractions FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE FUNCTION retract_supervised_round(round text, why text) RETURNS bigint
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
    found_id bigint;
    earlier supervised_retractions;
BEGIN
    SELECT id INTO found_id FROM supervised_rounds WHERE uid = round;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no supervised round % is on the class server', left(round, 64)
            USING ERRCODE = 'no_data_found';
    END IF;
    SELECT * INTO earlier FROM supervised_retractions WHERE round_id = found_id;
    IF FOUND THEN
        RAISE EXCEPTION 'supervised round % was retracted already, by % (%)', round, earlier.retracted_by,
            earlier.reason USING ERRCODE = 'unique_violation';
    END IF;
    INSERT INTO supervised_retractions (round_id, reason) VALUES (found_id, why);
    RETURN found_id;
END $$;
REVOKE ALL ON FUNCTION retract_supervised_round(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION retract_supervised_round(text, text) TO class_instructor;
INSERT INTO supervised_retractions (round_id, reason, retracted_by)
    SELECT r.id, rtrim(left('stored before the class server checked its supervised rounds (s041): ' || p.why, 500)),
           'the class server (s041)'
    FROM supervised_rounds r
    CROSS JOIN LATERAL (SELECT supervised_round_problem(r.uid, r.round_uid, r.game, r.difficulty, r.finished,
                                                        r.pace, r.score, r.d_prime, r.false_alarms, r.flags) AS why) p
    WHERE p.why IS NOT NULL;
-- s037's, with the settlings of s036 read as push_attempts reads them: a trainee's own login
-- sends the rows of its person (login_person_uids) and of an id whose claim by it the
-- instructor settled the claimant's; a workstation's login nothing under an id while a claim of
-- it stands (open, or settled the claimant's), as before the claim once every claim of it was
-- settled the row's
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
            WHEN EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = s.uid
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
-- how the instructor settled the caller's own claim of the trainee id `claimed` (s036):
-- 'claimant', 'row', or NULL while it is open or the login made none; s032's claim_trainee_uid
-- answers 'held' for a claim it kept before, settled or not, so a trainee's login asks this
-- after it, and is told what is true
CREATE FUNCTION own_claim_settled(claimed text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT x.outcome FROM trainee_claims c JOIN trainee_claim_settlements x ON x.claim_id = c.id
    WHERE c.trainee_uid = claimed AND c.login = session_user
$$;
REVOKE ALL ON FUNCTION own_claim_settled(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION own_claim_settled(text) TO class_trainee;
-- s037's push, each round checked first (supervised_round_problem, supervised_faults_problem) and
-- its uid its own (supervised_round_uid), so that a round under a classmate's round's uid names
-- her trainee id and is refused to whoever may not send her rows
CREATE OR REPLACE FUNCTION push_supervised(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    r record;
    held supervised_rounds;
    row_id bigint;
    refused text;
    added integer := 0;
    new_rows bigint := 0;
    new_bytes bigint := 0;
BEGIN
    IF jsonb_typeof(batch->'rounds') IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'refused the batch: it holds no list of rounds' USING ERRCODE = 'check_violation';
    END IF;
    IF jsonb_array_length(batch->'rounds') > 1000 THEN
        RAISE EXCEPTION 'refused the batch: more than 1,000 rounds' USING ERRCODE = 'check_violation';
    END IF;
    FOR r IN SELECT e, x.* FROM jsonb_array_elements(batch->'rounds') AS a (e),
            LATERAL jsonb_to_record(CASE WHEN jsonb_typeof(e) = 'object' THEN e ELSE '{}' END) AS x (
                uid text, trainee_uid text, round_uid text, game text, difficulty integer, finished double precision,
                pace double precision, score text, d_prime double precision, false_alarms integer, flags text, faults jsonb)
    LOOP
        refused := supervised_sender_problem(r.trainee_uid);
        IF refused IS NULL AND (jsonb_typeof(r.faults) IS DISTINCT FROM 'array' OR jsonb_array_length(r.faults) > 100) THEN
            refused := 'its faults are not a list of at most 100';
        END IF;
        IF refused IS NULL THEN
            refused := coalesce(
                supervised_round_problem(r.uid, r.round_uid, r.game, r.difficulty, r.finished, r.pace, r.score,
                                         r.d_prime, r.false_alarms, r.flags),
                CASE WHEN jsonb_typeof(r.e->'finished') IS DISTINCT FROM 'number'
                          OR r.uid <> supervised_round_uid(r.trainee_uid, r.round_uid, r.e->'finished')
                     THEN 'its id is not its own (the digest of its trainee''s id, its deal and when it was '
                          'finished): a round goes under its own id only' END,
                supervised_faults_problem(r.faults, r.game, r.round_uid, jsonb_array_length(r.flags::jsonb),
                                          r.false_alarms));
        END IF;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused supervised round %: %', left(coalesce(r.uid, ''), 64), refused
                USING ERRCODE = CASE WHEN refused LIKE 'a trainee pushes%' THEN 'insufficient_privilege' ELSE 'check_violation' END;
        END IF;
        SELECT * INTO held FROM supervised_rounds WHERE uid = r.uid;
        IF FOUND THEN
            IF (held.trainee_id, held.round_uid, held.game, held.difficulty, held.finished, held.pace, held.score,
                held.d_prime, held.false_alarms, held.flags) IS DISTINCT FROM
               ((SELECT id FROM trainees WHERE uid = r.trainee_uid), r.round_uid, r.game, r.difficulty, r.finished,
                r.pace, r.score, r.d_prime, r.false_alarms, r.flags) THEN
                RAISE EXCEPTION 'refused supervised round %: the class holds a different round under this id',
                    left(r.uid, 64) USING ERRCODE = 'check_violation';
            END IF;
            CONTINUE;
        END IF;
        BEGIN
            INSERT INTO supervised_rounds (uid, trainee_id, round_uid, game, difficulty, finished, pace, score,
                                           d_prime, false_alarms, flags)
                SELECT r.uid, t.id, r.round_uid, r.game, r.difficulty, r.finished, r.pace, r.score, r.d_prime,
                       r.false_alarms, r.flags FROM trainees t WHERE t.uid = r.trainee_uid
                RETURNING id INTO row_id;
            INSERT INTO supervised_faults (round_id, n, kind, fault_class, caught, seconds)
                SELECT row_id, x.n, x.kind, x.fault_class, x.caught, x.seconds
                FROM jsonb_to_recordset(r.faults) AS x (n integer, kind text, fault_class text, caught boolean,
                                                        seconds double precision);
        EXCEPTION WHEN check_violation OR not_null_violation OR unique_violation THEN
            RAISE EXCEPTION 'refused supervised round %: %', left(coalesce(r.uid, ''), 64), SQLERRM
                USING ERRCODE = 'check_violation';
        END;
        added := added + 1;
        new_rows := new_rows + 1 + jsonb_array_length(r.faults);
        new_bytes := new_bytes + octet_length(r.e::text);
    END LOOP;
    PERFORM charge_login('supervised rounds', new_rows, new_bytes);
    RETURN added;
END $$
