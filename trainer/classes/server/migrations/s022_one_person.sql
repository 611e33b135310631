CREATE TABLE trainee_merges (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uid text NOT NULL REFERENCES trainees (uid),
    other_uid text NOT NULL REFERENCES trainees (uid),
    event text NOT NULL CHECK (event IN ('merged', 'parted')),
    at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
    done_by text NOT NULL DEFAULT session_user,
    CHECK (uid < other_uid)
);
CREATE INDEX trainee_merges_by_pair ON trainee_merges (uid, other_uid, id);
ALTER TABLE trainee_merges ENABLE ROW LEVEL SECURITY;
ALTER TABLE trainee_merges FORCE ROW LEVEL SECURITY;
CREATE POLICY trainee_merges_owner ON trainee_merges TO class_owner USING (true) WITH CHECK (true);
CREATE POLICY trainee_merges_staff ON trainee_merges FOR SELECT TO class_instructor, class_supervisor USING (true);
-- a trainee's login reads the merges of the rows it reads (its own name's)
CREATE POLICY trainee_merges_own ON trainee_merges FOR SELECT TO class_trainee
    USING (EXISTS (SELECT 1 FROM trainees t WHERE t.uid IN (trainee_merges.uid, trainee_merges.other_uid)));
REVOKE ALL ON trainee_merges FROM PUBLIC;
GRANT SELECT ON trainee_merges TO class_trainee, class_instructor, class_supervisor;
CREATE TRIGGER trainee_merges_append_only BEFORE UPDATE OR DELETE ON trainee_merges FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER trainee_merges_no_truncate BEFORE TRUNCATE ON trainee_merges FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
-- an instructor records that two trainee ids are one person ('merged'), or are not ('parted',
-- which undoes a merge: both rows stay); the pair's rows one at a time
CREATE FUNCTION record_trainee_merge(one text, other text, what text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    low text := least(one, other);
    high text := greatest(one, other);
    last text;
BEGIN
    IF NOT pg_has_role(session_user, 'class_instructor', 'MEMBER') THEN
        RAISE EXCEPTION 'only an instructor''s login merges two trainees or parts them'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF what IS NULL OR what NOT IN ('merged', 'parted') THEN
        RAISE EXCEPTION 'a merge is recorded merged or parted, not %', coalesce(what, 'nothing')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF low IS NULL OR low = high THEN
        RAISE EXCEPTION 'a merge takes two trainees'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainees WHERE uid = low) THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', left(low, 64) USING ERRCODE = 'no_data_found';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM trainees WHERE uid = high) THEN
        RAISE EXCEPTION 'no trainee % has sent results to this class', left(high, 64) USING ERRCODE = 'no_data_found';
    END IF;
    -- one record at a time (no advisory lock: any login may take those, s011)
    LOCK TABLE trainee_merges IN SHARE ROW EXCLUSIVE MODE;
    SELECT event INTO last FROM trainee_merges WHERE uid = low AND other_uid = high ORDER BY id DESC LIMIT 1;
    IF what = 'merged' AND last = 'merged' THEN
        RAISE EXCEPTION 'trainees % and % are merged already', low, high USING ERRCODE = 'unique_violation';
    END IF;
    IF what = 'parted' AND last IS DISTINCT FROM 'merged' THEN
        RAISE EXCEPTION 'trainees % and % are not merged', low, high USING ERRCODE = 'no_data_found';
    END IF;
    INSERT INTO trainee_merges (uid, other_uid, event) VALUES (low, high, what);
    RETURN what;
END $$;
REVOKE ALL ON FUNCTION record_trainee_merge(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION record_trainee_merge(text, text, text) TO class_instructor;
