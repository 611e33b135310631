-- the instructor's settling of a login's claim of a trainee id (s032's trainee_claims): the id is
-- the claimant's ('claimant': its rows are her login's person from then on) or the row's ('row':
-- the claim rejected), with the reason; insert-only and one per claim, so that the claim and its
-- settling are both kept and neither is changed; the staff read them
CREATE TABLE trainee_claim_settlements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    claim_id bigint NOT NULL UNIQUE,  -- a trainee_claims id: settle_trainee_claim takes only those (no
                                      -- foreign key, so that TRUNCATE of the claims meets their guard)
    outcome text NOT NULL CHECK (outcome IN ('claimant', 'row')),
    reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500),
    done_by text NOT NULL DEFAULT session_user,
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp())
);
ALTER TABLE trainee_claim_settlements ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainee_claim_settlements FORCE ROW LEVEL SECURITY;
CREATE POLICY trainee_claim_settlements_owner ON trainee_claim_settlements TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY trainee_claim_settlements_staff ON trainee_claim_settlements FOR SELECT TO class_instructor, class_supervisor USING (true);
REVOKE ALL ON trainee_claim_settlements FROM PUBLIC;
GRANT SELECT ON trainee_claim_settlements TO class_instructor, class_supervisor;
CREATE TRIGGER trainee_claim_settlements_append_only BEFORE UPDATE OR DELETE ON trainee_claim_settlements FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainee_claim_settlements_no_truncate BEFORE TRUNCATE ON trainee_claim_settlements FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- an instructor's login settles every open claim of the trainee id `claimed`: `owner`, a login
-- that claims it, is given the id ('claimant'; every other open claim of it rejected), or with
-- `owner` NULL the id stays the row's (every open claim rejected); `why` is kept with each.
-- How many claims it settled.
CREATE FUNCTION settle_trainee_claim(claimed text, owner text, why text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    settled integer;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login settles whose a claimed trainee id is'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF why IS NULL OR length(btrim(why)) NOT BETWEEN 1 AND 500 THEN
        RAISE EXCEPTION 'a claim is settled with a reason (1 to 500 characters)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- one settling at a time (no advisory lock: any login may take those, s011)
    LOCK TABLE trainee_claim_settlements IN SHARE ROW EXCLUSIVE MODE;
    IF NOT EXISTS (SELECT 1 FROM trainee_claims WHERE trainee_uid = claimed) THEN
        RAISE EXCEPTION 'no login claims trainee id %', left(coalesce(claimed, ''), 64)
            USING ERRCODE = 'no_data_found';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = claimed
                   AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s WHERE s.claim_id = c.id)) THEN
        RAISE EXCEPTION 'the claims of trainee id % are settled already', left(claimed, 64)
            USING ERRCODE = 'unique_violation';
    END IF;
    IF owner IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = claimed AND c.login = owner
            AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s WHERE s.claim_id = c.id)) THEN
        RAISE EXCEPTION 'the login % has no open claim of trainee id %', left(owner, 64), left(claimed, 64)
            USING ERRCODE = 'no_data_found';
    END IF;
    INSERT INTO trainee_claim_settlements (claim_id, outcome, reason)
        SELECT c.id, CASE WHEN c.login = owner THEN 'claimant' ELSE 'row' END, btrim(why)
        FROM trainee_claims c
        WHERE c.trainee_uid = claimed
          AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s WHERE s.claim_id = c.id)
        ORDER BY c.id;
    GET DIAGNOSTICS settled = ROW_COUNT;
    RETURN settled;
END $$;
REVOKE ALL ON FUNCTION settle_trainee_claim(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION settle_trainee_claim(text, text, text) TO class_instructor;
-- s032's push: a workstation's login sends nothing under a trainee id a login claims, unless
-- every claim of it was rejected (the id is the row's again)
CREATE OR REPLACE FUNCTION push_attempts(batch jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    refused text;
BEGIN
    IF workstation_caller() THEN
        SELECT format('%s %s: a trainee''s own login claims this trainee id as hers: nothing more is '
                      'sent under it from a workstation''s login (unless the instructor settles '
                      'it the row''s)', r.kind, left(r.uid, 64))
            INTO refused
            FROM (SELECT 'trainee' AS kind, t.uid, t.uid AS trainee_uid
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'trainees') = 'array'
                                               THEN batch->'trainees' ELSE '[]' END) AS t (uid text)
                  UNION ALL
                  SELECT 'attempt', a.uid, a.trainee_uid
                  FROM jsonb_to_recordset(CASE WHEN jsonb_typeof(batch->'attempts') = 'array'
                                               THEN batch->'attempts' ELSE '[]' END) AS a (uid text, trainee_uid text)) AS r
            WHERE EXISTS (SELECT 1 FROM trainee_claims c WHERE c.trainee_uid = r.trainee_uid
                          AND NOT EXISTS (SELECT 1 FROM trainee_claim_settlements s
                                          WHERE s.claim_id = c.id AND s.outcome = 'row'))
            LIMIT 1;
        IF refused IS NOT NULL THEN
            RAISE EXCEPTION 'refused %', refused USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN push_attempts_charged(batch);
END $$
