-- s012 kept every refusal of a step whose link verified, up to 100 a sitting, from any login, and
-- s034 the refusal of an answer over an item's bounds the same way. But a step's link is on the
-- wire once the step is sent: anyone who saw it (the classroom's traffic) sent it again, under
-- their own login, with another answer, and each refusal was kept, so a classmate's sitting was
-- held at `certify --class`, or its 100 refusals used up (the fifth cold review, #106). A refusal
-- is kept now only when it can be the sitting's own: its step was not taken yet (the link is not
-- spent: one replayed adds nothing), it comes from the login that started the sitting, and the
-- same refusal is not kept already. Any other is refused as before, and nothing of it is kept
CREATE FUNCTION refusal_kept() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM exam_sitting_steps s WHERE s.nonce = NEW.nonce AND s.step = NEW.step)
            OR NOT EXISTS (SELECT 1 FROM exam_sitting_steps s
                           WHERE s.nonce = NEW.nonce AND s.step = 1 AND s.login = NEW.login)
            OR EXISTS (SELECT 1 FROM exam_sitting_refusals r
                       WHERE r.nonce = NEW.nonce AND r.step = NEW.step AND r.kind = NEW.kind
                         AND r.position IS NOT DISTINCT FROM NEW.position
                         AND r.answer_sha256 IS NOT DISTINCT FROM NEW.answer_sha256
                         AND r.answer_bytes IS NOT DISTINCT FROM NEW.answer_bytes
                         AND r.ending IS NOT DISTINCT FROM NEW.ending
                         AND r.reason = NEW.reason AND r.login = NEW.login) THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION refusal_kept() FROM PUBLIC;
CREATE TRIGGER exam_sitting_refusals_kept BEFORE INSERT ON exam_sitting_refusals
    FOR EACH ROW EXECUTE FUNCTION refusal_kept()
