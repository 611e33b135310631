-- s014 let an answer reach the class server up to 120 s after the time limit with no mark, so
-- anyone sending from their own program had the form's limit plus two minutes. The allowance is
-- for delivery only (an answer made in time, delivered late): the app's pusher gives a dead
-- connection up within 15 s, connects again within 5 s and retries within 4 s, so 30 s. An
-- answer that arrives after the limit within it is counted, and named on the certificate from
-- the server's own receipt time (exam_sitting_steps.received); one after it is marked late (s014)
CREATE OR REPLACE FUNCTION exam_queue_allowance() RETURNS integer
LANGUAGE sql IMMUTABLE AS $$ SELECT 30 $$;
CREATE OR REPLACE FUNCTION exam_step_reply(late double precision) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN late IS NULL THEN 'recorded'
           ELSE format('recorded late: it reached the class server %s s after the time limit (the '
                       'class allows %s s for delivery), and counts as not answered',
                       floor(late)::bigint, exam_queue_allowance()) END
$$
